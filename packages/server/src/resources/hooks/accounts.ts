import { parseMoneyToCents } from '@ev/core';
import type { AuthUser } from '../../auth/session.ts';
import type { Sql } from '../../db/client.ts';
import { badRequest, notPermitted } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Accounts, and the helpers the resources hanging off them share (vehicles, service plans, cards):
 * site scoping by loc_ids, dollars ↔ cents, yyyy-MM-dd dates, card numbers unique everywhere.
 */

/** Condition (over the accounts alias) for an account this user sees: valid at one of their sites, or at every site. */
export function accountVisibleSql(user: AuthUser, alias: string): string | undefined {
  if (user.allSites) return undefined;
  const sites = user.siteIds.filter(Number.isSafeInteger).join(',');
  return `(cardinality(${alias}.loc_ids) = 0 OR ${alias}.loc_ids && ARRAY[${sites}]::int[])`;
}

/** For resources with an acc_id: the row's account is one the user sees. */
export function viaAccount(user: AuthUser): string | undefined {
  const cond = accountVisibleSql(user, 'a');
  return cond && `t.acc_id IN (SELECT a.acc_id FROM accounts a WHERE ${cond})`;
}

/** An acc_id a write names must be an account the user sees (the option check does not know loc_ids). */
export async function checkAccount(sql: Sql, user: AuthUser, accId: unknown): Promise<void> {
  const cond = accountVisibleSql(user, 'a');
  if (!cond || accId === undefined || accId === null) return;
  const [row] = await sql.query(`SELECT 1 FROM accounts a WHERE a.acc_id = $1 AND ${cond}`, [accId]);
  if (!row) throw notPermitted('acc_id');
}

/** Dollars as entered (at most 2 decimals) to the cents stored. */
export function toCents(data: Record<string, unknown>, field: string): void {
  const v = data[field];
  if (typeof v !== 'number') return;
  const cents = parseMoneyToCents(v);
  if (cents === null) throw badRequest(`${field}: invalid`, { [field]: 'invalid' });
  data[field] = cents;
}

/** Cents stored, shown as dollars. */
export const dollars = (column: string) => `(t.${column} / 100.0)::float8`;
/** A date column as yyyy-MM-dd text (drivers would turn it into a local-midnight Date). */
export const isoDate = (column: string) => `to_char(t.${column}, 'YYYY-MM-DD')`;

/** A yyyy-MM-dd that is a real date; '' and null clear it. */
export function checkDate(data: Record<string, unknown>, field: string): void {
  const v = data[field];
  if (v === undefined || v === null) return;
  const ok = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
  if (!ok) throw badRequest(`${field}: format_error`, { [field]: 'format_error' });
}

/** Card ids of a text: separated by commas, semicolons or white space (as Authorize reads them). */
export const parseCards = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/**
 * Normalises data.rfid_cards (one comma-separated list, each card once) and refuses a card any
 * other account, vehicle or authorised card already holds (card_used): an idTag must name one
 * holder. `self` is the record written (left out of the check). Writes of cards are serialised by
 * a transaction lock so two at once cannot both take the same card.
 */
export async function checkCards(sql: Sql, data: Record<string, unknown>, self: { table: string; id?: number }): Promise<void> {
  const raw = data.rfid_cards;
  if (raw === undefined) return;
  const seen = new Map<string, string>();
  for (const c of parseCards(typeof raw === 'string' ? raw : '')) if (!seen.has(c.toUpperCase())) seen.set(c.toUpperCase(), c);
  // An OCPP idTag is at most 20 characters: a longer card could never be presented.
  if ([...seen.values()].some((c) => c.length > 20)) throw badRequest('rfid_cards: invalid', { rfid_cards: 'invalid' });
  data.rfid_cards = [...seen.values()].join(',');
  if (!seen.size) return;
  await sql.query(`SELECT pg_advisory_xact_lock(hashtext('rfid_cards'))`);
  const [clash] = await sql.query(
    `SELECT 1 FROM (
        SELECT rfid_cards FROM accounts WHERE deleted_at IS NULL AND NOT ($2 = 'accounts' AND acc_id = $3)
        UNION ALL SELECT rfid_cards FROM account_vehicles WHERE deleted_at IS NULL AND NOT ($2 = 'account_vehicles' AND id = $3)
        UNION ALL SELECT rfid_cards FROM auth_card WHERE NOT ($2 = 'auth_card' AND id = $3)
      ) x
      WHERE regexp_split_to_array(upper(trim(x.rfid_cards)), '[\\s,;]+') && $1::text[]
      LIMIT 1`,
    [[...seen.keys()], self.table, self.id ?? 0],
  );
  if (clash) throw badRequest('rfid_cards: card_used', { rfid_cards: 'card_used' });
}

/**
 * The sites a write gives the account. A user kept to some sites names only theirs (the option
 * check refuses others), cannot make an account valid everywhere or narrow one valid everywhere,
 * and keeps the sites they do not manage that the account already had.
 */
function sitesOf(user: AuthUser, sent: number[], old: number[] | undefined): number[] {
  if (user.allSites) return sent;
  if (!old) {
    if (!sent.length) throw notPermitted('locIds');
    return sent;
  }
  if (!old.length || !sent.length) {
    if (old.length !== sent.length) throw notPermitted('locIds');
    return sent;
  }
  const mine = new Set(user.siteIds);
  return [...new Set([...sent, ...old.filter((s) => !mine.has(s))])].sort((a, b) => a - b);
}

export const hooks: ResourceHooks = {
  virtualColumns: {
    acc_bal: dollars('acc_bal'),
    birthday: isoDate('birthday'),
    locIds: 't.loc_ids',
  },

  visibleTo: (user) => accountVisibleSql(user, 't'),

  async beforeWrite({ sql, user, mode, old }, data) {
    const { locIds, ...cols } = data;
    if (typeof cols.hkid === 'string' && cols.hkid.length > 3) throw badRequest('hkid: hkid_prefix_only', { hkid: 'hkid_prefix_only' });
    checkDate(cols, 'birthday');
    toCents(cols, 'acc_bal');
    if (Array.isArray(locIds)) cols.loc_ids = sitesOf(user, locIds as number[], old?.loc_ids);
    else if (locIds === null) cols.loc_ids = sitesOf(user, [], old?.loc_ids);
    else if (mode === 'create') cols.loc_ids = sitesOf(user, [], undefined);
    await checkCards(sql, cols, { table: 'accounts', id: old?.acc_id });
    return cols;
  },
};
