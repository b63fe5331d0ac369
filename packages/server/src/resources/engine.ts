import type { ResourceDef } from '@ev/core';
import type { Database, Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest, forbidden, HttpError, notFound, notPermitted } from '../http/errors.ts';
import { writeAudit } from './audit.ts';
import { quoteIdent, resolveResource } from './registry.ts';
import { Params, scopeConditions, selectList } from './sql.ts';
import { validateWrite } from './validate.ts';
import { checkRecordOptions } from './options.ts';
import type { WriteContext } from './hooks/types.ts';

export function parseId(raw: string): number {
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw badRequest(`Invalid id: ${raw}`, { id: 'invalid' });
  return id;
}

/** One record as the API shows it; 404 when it does not exist, 403 when it is outside the user's sites. */
export async function getRecord(sql: Sql, def: ResourceDef, id: number, user: AuthUser, timeZone: string): Promise<Record<string, unknown>> {
  const r = resolveResource(def);
  const params = new Params();
  // A record in trash can still be viewed.
  const where = scopeConditions(r, user, params, 'any');
  const p = params.add(id);
  const [row] = await sql.query(`SELECT ${selectList(r, user, timeZone, true)} FROM ${quoteIdent(def.table)} t WHERE ${where.join(' AND ')} AND t.${quoteIdent(def.idField)} = ${p}`, params.values);
  if (row) return row;
  return throwMissing(sql, def, id, true);
}

/** Distinguishes "no such record" (404) from "not yours to see" (403) after a scoped lookup missed. */
async function throwMissing(sql: Sql, def: ResourceDef, id: number, trashToo: boolean): Promise<never> {
  const live = def.softDelete && !trashToo ? ' AND deleted_at IS NULL' : '';
  const [exists] = await sql.query(`SELECT 1 FROM ${quoteIdent(def.table)} WHERE ${quoteIdent(def.idField)} = $1${live}`, [id]);
  throw exists ? forbidden() : notFound(`${def.key} ${id} does not exist`);
}

/** The stored row within the user's scope (not in trash), locked when it is about to be written. */
async function loadStored(sql: Sql, def: ResourceDef, id: number, user: AuthUser, lock: boolean): Promise<Record<string, any>> {
  const r = resolveResource(def);
  const params = new Params();
  const where = scopeConditions(r, user, params, false);
  const p = params.add(id);
  const [row] = await sql.query(
    `SELECT t.* FROM ${quoteIdent(def.table)} t WHERE ${where.join(' AND ')} AND t.${quoteIdent(def.idField)} = ${p}${lock ? ' FOR UPDATE' : ''}`,
    params.values,
  );
  return row ?? throwMissing(sql, def, id, false);
}

/** A row the definition locks (lockedWhen: a voucher campaign, a redeemed voucher) is neither edited nor deleted. */
function refuseLocked(def: ResourceDef, row: Record<string, unknown>): void {
  const hit = Object.entries(def.lockedWhen ?? {}).find(([field, values]) => values.some((v) => String(v) === String(row[field])));
  if (hit) throw badRequest(`${hit[0]}: not_editable`, { [hit[0]]: 'not_editable' });
}

/** What the audit log keeps of a row: everything but secrets. */
function auditable(row: Record<string, unknown> | undefined, def: ResourceDef): Record<string, unknown> | undefined {
  if (!row) return undefined;
  const writeOnly = new Set(def.fields.filter((f) => f.writeOnly).map((f) => f.field));
  return Object.fromEntries(Object.entries(row).filter(([k]) => !k.endsWith('_hash') && !writeOnly.has(k)));
}

async function checkUnique(sql: Sql, def: ResourceDef, data: Record<string, unknown>, id?: number): Promise<void> {
  const fields: Record<string, string> = {};
  for (const f of def.fields) {
    if (!f.unique || data[f.field] === undefined || data[f.field] === null) continue;
    const params = [data[f.field], id ?? 0];
    const trash = def.softDelete ? ' AND deleted_at IS NULL' : '';
    const [hit] = await sql.query(
      `SELECT 1 FROM ${quoteIdent(def.table)} WHERE ${quoteIdent(f.field)} = $1 AND ${quoteIdent(def.idField)} <> $2${trash} LIMIT 1`,
      params,
    );
    if (hit) fields[f.field] = f.unique;
  }
  if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
}

/**
 * A user kept to some sites writes only records of those sites: on create the site must be one of
 * theirs (an empty one would mean every site), on update only a site they change is checked.
 */
function checkSiteOfNewValues(def: ResourceDef, cols: Record<string, unknown>, user: AuthUser, mode: 'create' | 'update'): void {
  const column = def.site?.column;
  if (user.allSites || !column || (mode === 'update' && !(column in cols))) return;
  if (!user.siteIds.includes(Number(cols[column]))) throw notPermitted(column);
}

/** Maps constraint violations that slipped past validation (races, foreign keys) to a 400. */
function mapDbError(err: any, def: ResourceDef): never {
  const code = err?.code;
  if (code === '23505') {
    const field = def.fields.find((f) => f.unique && String(err.constraint ?? err.detail ?? '').includes(f.field))?.field ?? 'id';
    throw badRequest(`${field}: already_exist`, { [field]: 'already_exist' });
  }
  if (code === '23502') {
    // A field that may be left out but not emptied (a column with a default, such as a flag).
    const field = typeof err.column === 'string' ? err.column : 'id';
    throw badRequest(`${field}: required`, { [field]: 'required' });
  }
  if (code === '23503') {
    const field = def.fields.find((f) => String(err.detail ?? err.constraint ?? '').includes(f.field))?.field;
    throw badRequest(field ? `${field}: invalid` : 'The record is referenced by or refers to a record that does not exist', field ? { [field]: 'invalid' } : {});
  }
  if (code === '22P02' || code === '22003' || code === '22007' || code === '22008') throw badRequest('A value has the wrong form', {});
  throw err;
}

async function writeRow(ctx: WriteContext, data: Record<string, unknown>, id?: number): Promise<number> {
  const { sql, def } = ctx;
  const r = resolveResource(def);
  const cols = r.hooks.beforeWrite ? await r.hooks.beforeWrite(ctx, data) : { ...data };
  for (const k of Object.keys(cols)) if (!r.tableColumns.has(k)) throw new Error(`${def.key}: ${k} is not a column of ${def.table}`);
  checkSiteOfNewValues(def, cols, ctx.user, ctx.mode);
  const names = Object.keys(cols);
  const values = names.map((k) => (cols[k] !== null && typeof cols[k] === 'object' && !Array.isArray(cols[k]) ? JSON.stringify(cols[k]) : cols[k]));
  const table = quoteIdent(def.table);
  const idCol = quoteIdent(def.idField);
  try {
    if (id === undefined) {
      const [row] = await sql.query(
        names.length
          ? `INSERT INTO ${table} (${names.map(quoteIdent).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${idCol} AS id`
          : `INSERT INTO ${table} DEFAULT VALUES RETURNING ${idCol} AS id`,
        values,
      );
      id = row.id as number;
    } else if (names.length || r.tableColumns.has('lupd_dttm')) {
      const sets = names.map((k, i) => `${quoteIdent(k)} = $${i + 1}`);
      if (r.tableColumns.has('lupd_dttm') && !names.includes('lupd_dttm')) sets.push('lupd_dttm = now()');
      await sql.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE ${idCol} = $${names.length + 1}`, [...values, id]);
    }
  } catch (err) {
    mapDbError(err, def);
  }
  await r.hooks.afterWrite?.(ctx, id!, data);
  return id!;
}

/**
 * A create naming the id of a record that exists (in trash too) is the spec's duplicate key: it would
 * otherwise be given a new record under another id. An id the table does not hold yet is ignored (ids are assigned).
 */
async function refuseTakenId(sql: Sql, def: ResourceDef, body: unknown): Promise<void> {
  const id = (body as Record<string, unknown>)[def.idField];
  if (id === undefined || id === null || id === '' || def.fields.some((f) => f.field === def.idField)) return;
  const [taken] = await sql.query(`SELECT 1 FROM ${quoteIdent(def.table)} WHERE ${quoteIdent(def.idField)}::text = $1`, [String(id)]);
  if (taken) throw badRequest(`${def.idField}: duplicate_key`, { [def.idField]: 'duplicate_key' });
}

export async function createRecord(db: Database, def: ResourceDef, body: unknown, user: AuthUser, timeZone: string) {
  const data = validateWrite(def, body, user, 'create');
  return db.tx(async (sql) => {
    await refuseTakenId(sql, def, body);
    await checkRecordOptions(sql, def, data, user);
    await checkUnique(sql, def, data);
    const id = await writeRow({ sql, user, def, mode: 'create' }, data);
    const created = await getRecord(sql, def, id, user, timeZone);
    await writeAudit(sql, user, { action: 'CREATE', target: def.key, targetId: id, newData: auditable(created, def) });
    return created;
  });
}

export async function updateRecord(db: Database, def: ResourceDef, id: number, body: unknown, user: AuthUser, timeZone: string) {
  return db.tx(async (sql) => {
    const old = await loadStored(sql, def, id, user, true);
    refuseLocked(def, old);
    // As GET shows it: what a client sends back whole (read-only columns included) is compared with.
    const before = await getRecord(sql, def, id, user, timeZone);
    const data = validateWrite(def, body, user, 'update', old, before);
    await checkRecordOptions(sql, def, data, user);
    await checkUnique(sql, def, data, id);
    await writeRow({ sql, user, def, mode: 'update', old }, data, id);
    const after = await getRecord(sql, def, id, user, timeZone);
    await writeAudit(sql, user, { action: 'UPDATE', target: def.key, targetId: id, oldData: auditable(before, def), newData: auditable(after, def) });
    return after;
  });
}

export async function deleteRecord(db: Database, def: ResourceDef, id: number, user: AuthUser): Promise<void> {
  const r = resolveResource(def);
  await db.tx(async (sql) => {
    const old = await loadStored(sql, def, id, user, true);
    refuseLocked(def, old);
    await r.hooks.beforeDelete?.(sql, old, user);
    const table = quoteIdent(def.table);
    const idCol = quoteIdent(def.idField);
    try {
      if (def.softDelete) await sql.query(`UPDATE ${table} SET deleted_at = now() WHERE ${idCol} = $1`, [id]);
      else await sql.query(`DELETE FROM ${table} WHERE ${idCol} = $1`, [id]);
    } catch (err: any) {
      if (err?.code === '23503') throw new HttpError(409, { errors: ['in_use'], fields: {}, message: 'The record is still in use' });
      throw err;
    }
    await writeAudit(sql, user, { action: 'DELETE', target: def.key, targetId: id, oldData: auditable(old, def) });
  });
}

export async function checkDelete(sql: Sql, def: ResourceDef, id: number, user: AuthUser): Promise<{ msgCode?: string }> {
  await loadStored(sql, def, id, user, false);
  const msgCode = await resolveResource(def).hooks.checkDelete?.(sql, id, user);
  return msgCode ? { msgCode } : {};
}
