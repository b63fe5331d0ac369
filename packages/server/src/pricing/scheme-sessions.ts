import type { Sql } from '../db/client.ts';

/**
 * A price scheme's sessions (spec part 2 §4, §7, §9): session n is what n units cost in all.
 * There is one enabled row per session 1..maxChargingUnit. Fixed: n × fee cash and n × session
 * 1's points, computed, only session 1's points typed in. Custom: each row typed in; a new row
 * starts at n × fee and 0 points (§9). Rows past maxChargingUnit are disabled (enable_flag 0),
 * not removed: a lowered maximum raised again gets its typed-in rows back.
 */

export interface Scheme {
  id: number;
  type: 'Fixed' | 'Custom';
  fee: number;
  maxChargingUnit: number;
  locId: number | null;
}
export interface SessionRow {
  id: number;
  session: number;
  cash: number;
  point: number;
  enable_flag: number;
}

export const sessionRows = (sql: Sql, schemeId: number) =>
  sql.query<SessionRow>(
    `SELECT id, session, cash::float8 AS cash, point, enable_flag FROM price_scheme_detail WHERE "priceSchemeId" = $1 ORDER BY session, id`,
    [schemeId],
  );

/** Brings the scheme's rows in step with its type, fee and maximum (the hook calls it after every write). */
export async function keepSchemeSessions(sql: Sql, schemeId: number): Promise<void> {
  const [scheme] = await sql.query<Scheme>(
    `SELECT id, type, fee::float8 AS fee, "maxChargingUnit" FROM price_scheme WHERE id = $1`,
    [schemeId],
  );
  if (!scheme) return;
  const bySession = new Map<number, SessionRow>();
  for (const r of await sessionRows(sql, schemeId)) if (!bySession.has(r.session)) bySession.set(r.session, r);
  const firstPoint = bySession.get(1)?.point ?? 0;
  const fixed = scheme.type === 'Fixed';
  for (let n = 1; n <= scheme.maxChargingUnit; n++) {
    const row = bySession.get(n);
    const cash = fixed || !row ? n * scheme.fee : row.cash;
    const point = fixed ? n * firstPoint : (row?.point ?? 0);
    if (!row) {
      await sql.query(`INSERT INTO price_scheme_detail ("priceSchemeId", session, cash, point) VALUES ($1, $2, $3, $4)`, [schemeId, n, cash, point]);
    } else if (row.cash !== cash || row.point !== point || row.enable_flag !== 1) {
      await sql.query(`UPDATE price_scheme_detail SET cash = $2, point = $3, enable_flag = 1, lupd_dttm = now() WHERE id = $1`, [row.id, cash, point]);
    }
  }
  await sql.query(
    `UPDATE price_scheme_detail SET enable_flag = 0, lupd_dttm = now() WHERE "priceSchemeId" = $1 AND session > $2 AND enable_flag = 1`,
    [schemeId, scheme.maxChargingUnit],
  );
}
