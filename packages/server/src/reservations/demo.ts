import type { Sql } from '../db/client.ts';

/**
 * The demo's reservations (npm run demo, issue 29): yesterday's history on the first site's first
 * charger, one used by the session it was made for and one that expired unused, so the list and the
 * charger's Reservations tab have something to show. A live one is made from the charger view. Added once.
 */
export async function addDemoReservations(sql: Sql, cpId: number, idTag: string): Promise<void> {
  if ((await sql.query(`SELECT 1 FROM reservations WHERE created_by = 'demo'`)).length) return;
  await sql.query(
    `INSERT INTO reservations (cp_id, connector_id, id_tag, expiry_dttm, status, answer, created_by, ended_dttm, cre_dttm)
     VALUES ($1, 1, $2, now() - interval '20 hours', 'Used', 'Accepted', 'demo', now() - interval '20 hours 40 minutes', now() - interval '21 hours'),
            ($1, 0, $2, now() - interval '6 hours', 'Expired', 'Accepted', 'demo', now() - interval '6 hours', now() - interval '7 hours')`,
    [cpId, idTag],
  );
}
