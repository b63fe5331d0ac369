import { OPEN_RESERVATION_STATUSES } from '@ev/core';
import type { Sql } from '../db/client.ts';

/** SQL: the reservation still holds its connector. */
export const OPEN = `status IN (${OPEN_RESERVATION_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * The parentIdTag an Authorize answers for a card at this charger (OCPP 1.6 §3.11.1): that of an open
 * reservation here held by the same holder, the cards of one auth_card record or of one account (its own and
 * its vehicles') being one holder. None, the answer unchanged, when the charger has no such reservation.
 */
export async function reservationParent(sql: Sql, cpId: number, idTag: string): Promise<string | null> {
  const open = await sql.query<{ id_tag: string; parent_id_tag: string }>(
    `SELECT id_tag, parent_id_tag FROM reservations WHERE cp_id = $1 AND ${OPEN} AND parent_id_tag IS NOT NULL ORDER BY reservation_id`,
    [cpId],
  );
  if (!open.length) return null;
  const holders = await sql.query<{ tags: string[] }>(
    `SELECT tags FROM (
       SELECT regexp_split_to_array(upper(trim(rfid_cards)), '[\\s,;]+') AS tags FROM auth_card
       UNION ALL
       SELECT array_agg(t) FROM (
         SELECT a.acc_id, unnest(regexp_split_to_array(upper(trim(coalesce(a.rfid_cards, '') || ',' || coalesce(v.cards, ''))), '[\\s,;]+')) AS t
           FROM accounts a
           LEFT JOIN (SELECT acc_id, string_agg(rfid_cards, ',') AS cards FROM account_vehicles WHERE deleted_at IS NULL GROUP BY acc_id) v ON v.acc_id = a.acc_id
          WHERE a.deleted_at IS NULL) x GROUP BY acc_id
     ) h WHERE upper($1) = ANY (tags)`,
    [idTag.trim()],
  );
  const mates = new Set(holders.flatMap((h) => h.tags));
  mates.add(idTag.trim().toUpperCase());
  return open.find((r) => mates.has(r.id_tag.toUpperCase()))?.parent_id_tag ?? null;
}
