import type { Sql } from '../db/client.ts';

/**
 * A charger's OCPP local authorization list (issue 29), built from the authorised cards (auth_card):
 * every card valid at the charger — everywhere (no site, no charger), at its site, or for the charger
 * itself — Accepted when the card record is active, Blocked when not. auth_card has no expiry date,
 * so no entry is Expired nor carries an expiryDate. Accounts' own cards are not in the list: they are
 * authorized online, where the account's balance and sites are known.
 */

export type ListStatus = 'Accepted' | 'Blocked';
/** idTag (as written on the card record) → status. */
export type ListEntries = Record<string, ListStatus>;

/** One entry of SendLocalList (OCPP 1.6 §6.45): without idTagInfo it removes the idTag (Differential). */
export interface AuthorizationData {
  idTag: string;
  idTagInfo?: { status: ListStatus };
}

/** The state of a charger's list as stored (cp_local_list). */
export interface ListRow {
  cp_id: number;
  expected_version: number;
  entries: ListEntries;
  reported_version: number | null;
  reported_at: Date | null;
  pending_since: Date | null;
  last_update_type: string | null;
  last_version: number | null;
  last_answer: string | null;
  sent_at: Date | null;
}

/** Card ids of auth_card.rfid_cards (as Authorize reads them: commas, semicolons or white space). */
const CARDS = `regexp_split_to_table(trim(c.rfid_cards), '[\\s,;]+')`;

/** The list the charger should hold now. A card named twice (should not happen) is Accepted if any record accepts it. */
export async function wantedList(sql: Sql, cpId: number): Promise<ListEntries> {
  const rows = await sql.query<{ id_tag: string; status: ListStatus }>(
    `SELECT DISTINCT ON (upper(x.id_tag)) x.id_tag, x.status FROM (
       SELECT ${CARDS} AS id_tag, CASE WHEN c.active = 1 THEN 'Accepted' ELSE 'Blocked' END AS status
         FROM auth_card c JOIN cps p ON p.cp_id = $1
        WHERE (c.loc IS NULL AND c.cp IS NULL) OR c.loc = p.loc_id OR c.cp = p.cp_id
     ) x
     WHERE x.id_tag <> ''
     ORDER BY upper(x.id_tag), x.status = 'Accepted' DESC`,
    [cpId],
  );
  return Object.fromEntries(rows.map((r) => [r.id_tag, r.status]));
}

/** All entries, for a Full update. */
export const fullList = (wanted: ListEntries): AuthorizationData[] =>
  Object.entries(wanted).map(([idTag, status]) => ({ idTag, idTagInfo: { status } }));

/** What turns the held list into the wanted one, for a Differential update: added or changed entries, and removals. */
export function differences(held: ListEntries, wanted: ListEntries): AuthorizationData[] {
  const changes: AuthorizationData[] = [];
  for (const [idTag, status] of Object.entries(wanted)) if (held[idTag] !== status) changes.push({ idTag, idTagInfo: { status } });
  for (const idTag of Object.keys(held)) if (!(idTag in wanted)) changes.push({ idTag });
  return changes;
}

export async function listRow(sql: Sql, cpId: number): Promise<ListRow | null> {
  const [row] = await sql.query<ListRow>(`SELECT * FROM cp_local_list WHERE cp_id = $1`, [cpId]);
  return row ?? null;
}

/** The charger's GetLocalListVersion answer, and when it gave it. */
export async function storeReported(sql: Sql, cpId: number, version: number): Promise<Date> {
  const [row] = await sql.query<{ reported_at: Date }>(
    `INSERT INTO cp_local_list (cp_id, reported_version, reported_at) VALUES ($1, $2, now())
     ON CONFLICT (cp_id) DO UPDATE SET reported_version = EXCLUDED.reported_version, reported_at = EXCLUDED.reported_at
     RETURNING reported_at`,
    [cpId, version],
  );
  return row.reported_at;
}

/**
 * A SendLocalList and the charger's answer (or why none came). Accepted: the charger now holds
 * `version` with the wanted entries; the pending mark goes, unless a card changed after `startedAt`.
 */
export async function storeSent(
  sql: Sql,
  sent: { cpId: number; updateType: string; version: number; answer: string; wanted: ListEntries; startedAt: Date },
): Promise<void> {
  const accepted = sent.answer === 'Accepted';
  await sql.query(
    `INSERT INTO cp_local_list (cp_id, expected_version, entries, last_update_type, last_version, last_answer, sent_at)
     VALUES ($1, CASE WHEN $5 THEN $3 ELSE 0 END, CASE WHEN $5 THEN $6::jsonb ELSE '{}'::jsonb END, $2, $3, $4, now())
     ON CONFLICT (cp_id) DO UPDATE SET
       expected_version = CASE WHEN $5 THEN $3 ELSE cp_local_list.expected_version END,
       entries = CASE WHEN $5 THEN $6::jsonb ELSE cp_local_list.entries END,
       pending_since = CASE WHEN $5 AND cp_local_list.pending_since <= $7 THEN NULL ELSE cp_local_list.pending_since END,
       last_update_type = $2, last_version = $3, last_answer = $4, sent_at = now()`,
    [sent.cpId, sent.updateType, sent.version, sent.answer, accepted, JSON.stringify(sent.wanted), sent.startedAt],
  );
}

/**
 * Card records changed (written or deleted, in the writer's transaction): every charger holding a
 * list the change may reach — all of them for a card valid everywhere, a site's chargers, one
 * charger — has pending changes. pending_since is the latest change, so that a send that started
 * before it does not clear it. `scopes` are the record before and after the write.
 */
export async function markPending(sql: Sql, scopes: { loc?: unknown; cp?: unknown }[]): Promise<void> {
  for (const { loc, cp } of scopes) {
    await sql.query(
      `UPDATE cp_local_list l SET pending_since = clock_timestamp()
         FROM cps p
        WHERE p.cp_id = l.cp_id AND l.expected_version > 0
          AND (($1::int IS NULL AND $2::int IS NULL) OR p.loc_id = $1::int OR p.cp_id = $2::int)`,
      [loc ?? null, cp ?? null],
    );
  }
}
