import { STATIC_OPTIONS, type OptionItem } from '@ev/core';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest } from '../http/errors.ts';

export type OptionLang = 'en' | 'zh-TW';
type Provider = (sql: Sql, user: AuthUser, lang: OptionLang) => Promise<OptionItem[]>;

/** A site's address in the reader's language, the English one when no Chinese one is kept. */
const address = (alias: string, lang: OptionLang) =>
  lang === 'zh-TW' ? `coalesce(nullif(${alias}.address_chi, ''), ${alias}.address)` : `${alias}.address`;

/** `AND <column> = ANY(sites)` for a site-restricted user, nothing otherwise. */
const siteFilter = (user: AuthUser, column: string, params: unknown[]) => {
  if (user.allSites) return '';
  params.push(user.siteIds);
  return ` AND ${column} = ANY($${params.length}::int[])`;
};

const scopedList =
  (select: (lang: OptionLang) => string, from: string, where: string, siteColumn: string, order: string): Provider =>
  async (sql, user, lang) => {
    const params: unknown[] = [];
    return sql.query(`SELECT ${select(lang)} FROM ${from} WHERE ${where}${siteFilter(user, siteColumn, params)} ORDER BY ${order}`, params);
  };

/** Option lists read from the database, each limited to what the user may see; nothing in trash is offered. */
const DYNAMIC: Record<string, Provider> = {
  cp_locs: scopedList((lang) => `${address('l', lang)} AS label, l.loc_id AS value`, 'cp_locs l', 'l.deleted_at IS NULL', 'l.loc_id', 'label'),
  cp_zones: scopedList(
    (lang) => `z.name_chi || ' (' || ${address('l', lang)} || ')' AS label, z.zone_id AS value`,
    'cp_zones z JOIN cp_locs l ON l.loc_id = z.loc_id',
    'l.deleted_at IS NULL',
    'z.loc_id',
    'label',
  ),
  cps: scopedList(() => 'cp_no AS label, cp_id AS value', 'cps', 'deleted_at IS NULL', 'loc_id', 'cp_no'),
  cp_pow: async (sql) => sql.query(`SELECT name AS label, power_meter_type_id AS value FROM cp_pow ORDER BY name`),
  // Nobody may hand out a role ranked above their own.
  roles: async (sql, user) => sql.query(`SELECT name_chi AS label, id AS value FROM roles WHERE level <= $1 ORDER BY level DESC, name_chi`, [user.roleLevel]),
};

export function optionKeys(): string[] {
  return [...Object.keys(STATIC_OPTIONS), ...Object.keys(DYNAMIC)];
}

export async function loadOptions(sql: Sql, user: AuthUser, keys: string[], lang: OptionLang = 'en'): Promise<Record<string, OptionItem[]>> {
  const unknown = keys.filter((k) => !Object.hasOwn(STATIC_OPTIONS, k) && !Object.hasOwn(DYNAMIC, k));
  if (unknown.length) throw badRequest(`Unknown option list: ${unknown.join(', ')}`, { opts: 'invalid' });
  const entries = await Promise.all(
    keys.map(async (k) => [k, Object.hasOwn(STATIC_OPTIONS, k) ? STATIC_OPTIONS[k] : await DYNAMIC[k](sql, user, lang)] as const),
  );
  return Object.fromEntries(entries);
}
