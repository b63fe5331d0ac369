import { getResource, mayReadOptionList, readPrivilege, STATIC_OPTIONS, staticOptionItems, type Lang, type OptionItem, type OptionSource, type ResourceDef } from '@ev/core';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { hooksFor, quoteIdent } from './registry.ts';
import { Params } from './sql.ts';


type Source = ResourceDef & { asOption: OptionSource };

/** The resource offered as the option list `key` (its definition declares asOption), if any. */
function sourceOf(key: string): Source | undefined {
  const def = getResource(key);
  return def?.asOption ? (def as Source) : undefined;
}

/** The label of a record in the reader's language; where it is blank, the other language's (a zone's English name is optional). */
function labelSql(alias: string, label: OptionSource['label'], lang: Lang): string {
  if (typeof label === 'string') return `${alias}.${quoteIdent(label)}`;
  if (Array.isArray(label)) return `concat_ws(' ', ${label.map((f) => `${alias}.${quoteIdent(f)}`).join(', ')})`;
  const [first, other] = lang === 'en' ? [label.en, label['zh-TW']] : [label[lang], label.en];
  return `coalesce(nullif(${alias}.${quoteIdent(first)}, ''), ${alias}.${quoteIdent(other)})`;
}

/**
 * The query of one resource's option list, as `label, value` rows: records the user may see
 * (their sites, nothing in trash, the source's own limits), optionally only some values.
 * `scoped: false` drops the user's limits: used to tell "not yours" from "does not exist".
 */
function optionQuery(def: Source, user: AuthUser, lang: Lang, opts: { values?: unknown[]; scoped?: boolean } = {}) {
  const src = def.asOption;
  const params = new Params();
  const where: string[] = [];
  let label = labelSql('t', src.label, lang);
  let join = '';
  if (src.detail) {
    const mayReadRecords = user.privileges.has(readPrivilege(def.privilegeKey ?? def.key));
    const detail = mayReadRecords ? `t.${quoteIdent(src.detail)}` : `'#' || t.${quoteIdent(def.idField)}`;
    label = `${label} || ' (' || coalesce(${detail}, '') || ')'`;
  }
  if (def.softDelete) where.push('t.deleted_at IS NULL');
  if (src.qualifiedBy) {
    const ref = referencedResource(def, src.qualifiedBy);
    join = ` JOIN ${quoteIdent(ref.table)} q ON q.${quoteIdent(ref.idField)} = t.${quoteIdent(src.qualifiedBy)}`;
    label = `${label} || ' (' || ${labelSql('q', ref.asOption.label, lang)} || ')'`;
    if (ref.softDelete) where.push('q.deleted_at IS NULL');
  }
  for (const [field, value] of Object.entries(src.only ?? {})) where.push(`t.${quoteIdent(field)} = ${params.add(value)}`);
  if (opts.scoped !== false) {
    if (!user.allSites && def.site?.column) where.push(`t.${quoteIdent(def.site.column)} = ANY(${params.add(user.siteIds)}::int[])`);
    if (src.atMostUserLevel) where.push(`t.${quoteIdent(src.atMostUserLevel)} <= ${params.add(user.roleLevel)}`);
    // Records the resource's hook hides from this user (campaigns of other sites) are not offered either.
    const hidden = hooksFor(def.key).visibleTo?.(user);
    if (hidden) where.push(hidden);
  }
  const value = `t.${quoteIdent(src.value ?? def.idField)}`;
  if (opts.values) where.push(`${value} = ANY(${params.add(opts.values)})`);
  const order = [...(src.orderBy ?? []).map((o) => `t.${quoteIdent(o.field)}${o.desc ? ' DESC' : ''}`), 'label'];
  return {
    text: `SELECT ${label} AS label, ${value} AS value FROM ${quoteIdent(def.table)} t${join}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order.join(', ')}`,
    values: params.values,
  };
}

/** The resource a field's option list names (it must itself be an option source). */
function referencedResource(def: ResourceDef, field: string): Source {
  const key = def.fields.find((f) => f.field === field)?.options ?? def.columns.find((c) => c.field === field)?.options;
  const ref = key ? sourceOf(key) : undefined;
  if (!ref) throw new Error(`${def.key}.asOption.qualifiedBy: ${field} names no option source`);
  return ref;
}

export async function loadOptions(sql: Sql, user: AuthUser, keys: string[], lang: Lang = 'en'): Promise<Record<string, OptionItem[]>> {
  const unknown = keys.filter((k) => !Object.hasOwn(STATIC_OPTIONS, k) && !sourceOf(k));
  if (unknown.length) throw badRequest(`Unknown option list: ${unknown.join(', ')}`, { opts: 'invalid' });
  // A list of records is a read of them: the resource's read privilege or a form's that picks from it.
  const denied = keys.find((k) => !mayReadOptionList(k, (p) => user.privileges.has(p)));
  if (denied) throw forbidden(readPrivilege(sourceOf(denied)!.privilegeKey ?? denied));
  const entries = await Promise.all(
    keys.map(async (k) => {
      if (Object.hasOwn(STATIC_OPTIONS, k)) return [k, staticOptionItems(k, lang)] as const;
      const q = optionQuery(sourceOf(k)!, user, lang);
      return [k, await sql.query<OptionItem>(q.text, q.values)] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * Checks the values a write gives to fields whose options are another resource's records: each
 * must be one the user is offered. One the user may not pick (another site's, a role above
 * their own) is 'not_permitted'; one that does not exist (or is in trash) is 'invalid'.
 */
export async function checkRecordOptions(sql: Sql, def: ResourceDef, data: Record<string, unknown>, user: AuthUser): Promise<void> {
  const errors: Record<string, string> = {};
  for (const f of def.fields) {
    const source = f.options ? sourceOf(f.options) : undefined;
    const given = data[f.field];
    if (!source || given === undefined || given === null) continue;
    const values = [...new Set(Array.isArray(given) ? given : [given])];
    if (!values.length) continue;
    const visible = optionQuery(source, user, 'en', { values });
    const offered = new Set((await sql.query<OptionItem>(visible.text, visible.values)).map((o) => o.value));
    const missing = values.filter((v) => !offered.has(v as number));
    if (!missing.length) continue;
    const anywhere = optionQuery(source, user, 'en', { values: missing, scoped: false });
    errors[f.field] = (await sql.query(anywhere.text, anywhere.values)).length ? 'not_permitted' : 'invalid';
  }
  if (Object.keys(errors).length) throw badRequest(Object.entries(errors).map(([k, v]) => `${k}: ${v}`), errors);
}
