import type { Dataset, ResourceDef } from '@ev/core';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import type { ListQuery } from './list-query.ts';
import { quoteIdent, resolveResource } from './registry.ts';
import { filterCondition, Params, scopeConditions, selectList } from './sql.ts';

/**
 * Rows up to this many are counted exactly. Past it, counting costs a scan of the whole match
 * (about 50 ms per million rows here), so the total is the planner's estimate, marked as such.
 */
export const EXACT_COUNT_LIMIT = 10_000;

export interface BuiltQuery {
  from: string;
  where: string;
  params: Params;
  order: string;
}

/** FROM, WHERE and ORDER BY of a list request, shared by the page, the count and the export. */
export function buildListQuery(def: ResourceDef, q: ListQuery, user: AuthUser): BuiltQuery {
  const r = resolveResource(def);
  const params = new Params();
  const where = scopeConditions(r, user, params, q.trash);
  for (const f of q.filters) where.push(filterCondition(r, f, params));
  const id = `t.${quoteIdent(def.idField)}`;
  const sortExpr = q.sortBy === def.idField ? id : r.expr.get(q.sortBy);
  if (!sortExpr) throw new Error(`sort column ${def.key}.${q.sortBy} has no SQL expression`);
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  // The id breaks ties so that pages never repeat or skip a row.
  const order = sortExpr === id ? `${id} ${dir}` : `${sortExpr} ${dir}, ${id} ${dir}`;
  return { from: `${quoteIdent(def.table)} t`, where: where.join(' AND '), params, order };
}

/**
 * Up to this many matches, a date-filtered list sorted by id reads the matching ids and sorts them
 * (an index-only scan and a top-N sort: 10 ms for a month of 77,000 rows here) rather than walking the
 * id index backwards. Ids are handed out in time order, so a date range is one stretch of ids and
 * the walk crosses every newer row before the first match (0.1 s from February on a year of
 * 1,000,000 rows), which the planner, assuming matches spread evenly, cannot see. Past this, the
 * walk: its cost is bounded by the rows newer than the range, the sort's by the matches.
 */
export const SORTED_PAGE_LIMIT = 100_000;

export async function listRecords(sql: Sql, def: ResourceDef, q: ListQuery, user: AuthUser, timeZone: string): Promise<Dataset> {
  const r = resolveResource(def);
  const b = buildListQuery(def, q, user);
  const pageParams = [...b.params.values, q.size, q.page * q.size];
  const n = b.params.values.length;
  const select = selectList(r, user, timeZone, false);
  const limit = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const pageSql = `SELECT ${select} FROM ${b.from} WHERE ${b.where} ORDER BY ${b.order} ${limit}`;
  let content: Record<string, unknown>[];
  let total: { count: number; estimate: boolean };
  if (q.sortBy === def.idField && q.filters.some((f) => f.kind === 'dateRange')) {
    // The count comes first: it says whether the matches are few enough to sort (above).
    total = await countRows(sql, b);
    if (total.count <= SORTED_PAGE_LIMIT) {
      const id = quoteIdent(def.idField);
      // OFFSET 0 keeps the inner select apart, so the planner cannot order it by walking the id index.
      const ids = `SELECT s.${id} FROM (SELECT t.${id} FROM ${b.from} WHERE ${b.where} OFFSET 0) s ORDER BY s.${id} ${q.order === 'asc' ? 'ASC' : 'DESC'} ${limit}`;
      content = await sql.query(`SELECT ${select} FROM ${b.from} WHERE t.${id} IN (${ids}) ORDER BY ${b.order}`, pageParams);
    } else {
      content = await sql.query(pageSql, pageParams);
    }
  } else {
    [content, total] = await Promise.all([sql.query(pageSql, pageParams), countRows(sql, b)]);
  }
  if (q.siteReference && def.site?.column) content = await withSiteReferences(sql, def.site.column, content);
  return {
    content,
    totalElements: total.count,
    totalPages: Math.ceil(total.count / q.size),
    ...(total.estimate ? { totalIsEstimate: true } : {}),
    // Said only when the cap held rows back: a full page, and more match (or, estimated, surely do).
    ...(q.sizeAsked && content.length === q.size && (total.estimate || total.count > (q.page + 1) * q.size) ? { sizeCappedTo: q.size } : {}),
  };
}

/** The site column of each row as the spec's charge-point reference has it: {loc_id, address}. */
async function withSiteReferences(sql: Sql, column: string, rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const ids = [...new Set(rows.map((r) => r[column]).filter((v) => v !== null && v !== undefined))];
  if (!ids.length) return rows;
  const sites = await sql.query<{ loc_id: number; address: string | null }>(`SELECT loc_id, address FROM cp_locs WHERE loc_id = ANY($1::int[])`, [ids]);
  const address = new Map(sites.map((s) => [s.loc_id, s.address]));
  return rows.map((r) => (r[column] === null || r[column] === undefined ? r : { ...r, [column]: { loc_id: r[column], address: address.get(r[column] as number) ?? null } }));
}

async function countRows(sql: Sql, b: BuiltQuery): Promise<{ count: number; estimate: boolean }> {
  const n = b.params.values.length;
  const [{ count }] = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (SELECT 1 FROM ${b.from} WHERE ${b.where} LIMIT $${n + 1}) s`,
    [...b.params.values, EXACT_COUNT_LIMIT + 1],
  );
  if (count <= EXACT_COUNT_LIMIT) return { count, estimate: false };
  const [plan] = await sql.query<{ 'QUERY PLAN': any }>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${b.from} WHERE ${b.where}`, b.params.values);
  const raw = plan['QUERY PLAN'];
  const rows = Number((typeof raw === 'string' ? JSON.parse(raw) : raw)[0]?.Plan?.['Plan Rows'] ?? 0);
  // The estimate can be off; it is never shown below what is known to exist.
  return { count: Math.max(Math.round(rows), EXACT_COUNT_LIMIT + 1), estimate: true };
}
