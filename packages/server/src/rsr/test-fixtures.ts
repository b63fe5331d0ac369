import type { Sql } from '../db/client.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';

/** Test fixtures of the RSR tests (not production code): a charger with a charging rate, vouchers. */

export interface RateOptions {
  unit?: number;
  gracing_period?: number;
  max_daily_charging_session?: number | null;
  max_penalty_unit?: number | null;
  redeem_period?: number | null;
  max_redeem_count?: number | null;
  /** Cents per unit of the Fixed scheme (§9: 6.00 for a 15-minute session). */
  fee?: number;
  point?: number;
  penaltyUnit?: number | null;
  /** Cents per penalty unit. */
  penaltyFee?: number | null;
  /** No time slot at all: every start is 10019. */
  noSlot?: boolean;
}

/** A charger at a new site (or locId) charging at a new rate: one all-day slot of a Fixed scheme. */
export async function ratedCharger(sql: Sql, cpNo: string, o: RateOptions & { locId?: number } = {}) {
  const locId = o.locId ?? (await addSite(sql));
  const cpId = await addCharger(sql, cpNo, { locId });
  const [scheme] = await sql.query(
    `INSERT INTO price_scheme (name, fee, "locId", "maxChargingUnit", type) VALUES ($1, $2, $3, 96, 'Fixed') RETURNING id`,
    [`scheme ${cpNo}`, o.fee ?? 600, locId],
  );
  await sql.query(`INSERT INTO price_scheme_detail ("priceSchemeId", session, cash, point) VALUES ($1, 1, $2, $3)`, [scheme.id, o.fee ?? 600, o.point ?? 0]);
  const [rate] = await sql.query(
    `INSERT INTO charging_rate (name, loc_id, unit, gracing_period, max_daily_charging_session, max_penalty_unit, redeem_period, max_redeem_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [`rate ${cpNo}`, locId, o.unit ?? 15, o.gracing_period ?? 5, o.max_daily_charging_session ?? null, o.max_penalty_unit ?? null, o.redeem_period ?? null, o.max_redeem_count ?? null],
  );
  if (!o.noSlot) {
    await sql.query(
      `INSERT INTO charging_rate_detail ("chargingRateId", "startTime", "endTime", "priceSchemeId", "penaltyUnit", "penaltyFee") VALUES ($1, '00:00', '24:00', $2, $3, $4)`,
      [rate.id, scheme.id, o.penaltyUnit === undefined ? 15 : o.penaltyUnit, o.penaltyFee === undefined ? 200 : o.penaltyFee],
    );
  }
  await sql.query(`INSERT INTO charging_rate_cp (cp_id, "chargingRateId") VALUES ($1, $2)`, [cpId, rate.id]);
  return { cpId, locId, rateId: rate.id as number, schemeId: scheme.id as number };
}

/** A voucher campaign for every site and `n` Valid vouchers of the member, expiring in a year. */
export async function addVouchers(sql: Sql, memberId: string, n: number, expire = '2099-12-31'): Promise<number[]> {
  const [c] = await sql.query(`INSERT INTO campaign (name, "isVoucher", "isAllCpLocFlag") VALUES ($1, 1, 1) RETURNING id`, [`vouchers ${memberId}`]);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [v] = await sql.query(`INSERT INTO voucher ("memberId", "campaignId", "voucherExpireDate") VALUES ($1, $2, $3) RETURNING id`, [memberId, c.id, expire]);
    ids.push(Number(v.id));
  }
  return ids;
}
