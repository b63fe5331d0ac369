import { ERROR_CODES, localDateTime, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../db/client.ts';
import { applicableVoucherCampaigns, price, pricingData, rateOfCharger, type Rate } from './pricing.ts';
import { nextRedeem } from './redeem.ts';
import { giveBackVouchers, redeemVouchers } from './vouchers.ts';

/** What a remote start may say beyond the plain start, used when the charger has a charging rate. */
export interface RsrFields {
  lp?: string | number | null;
  entryTime?: string | number | null;
  isFree?: boolean | number | string | null;
  /** The parking system's bay id (bay.bayId) the car stands in: it must be the connector's bay (40006). */
  bayId?: string | number | null;
  mallId?: string | number | null;
  carparkId?: string | number | null;
  /** Set by the external API: the call is kept in cp_rsr_api_log. */
  api?: { url: string; body: unknown };
}

export interface RsrStartRequest extends RsrFields {
  connectorId: number;
  minutes: number;
  /** The car's entry time, from entryTime as the form's check read it (ocpp/start-rules.ts). */
  inTime?: Date | null;
  memberId?: string | number | null;
  startCode?: string | number | null;
  remark?: unknown;
}

interface Charger {
  cp_id: number;
  cp_no: string;
  loc_id: number;
}

/** A business refusal inside the creating transaction: rolls it back and is answered {status:'error', errorCode}. */
class Refusal extends Error {
  constructor(readonly errorCode: number | string) {
    super(`refused ${errorCode}`);
  }
}

const text = (v: unknown) => (v == null || String(v).trim() === '' ? null : String(v).trim());
const FREE = new Set(['y', 'yes', '1', 'true']);

/** When the member may redeem again, as of `at`, under the rate's limit (rsr/redeem.ts); null: now. */
async function nextRedeemAt(sql: Sql, rateId: number, memberId: string, at: Date): Promise<Date | null> {
  const [row] = await sql.query<{ next: string | null }>(
    `SELECT ${nextRedeem('$3::timestamptz')} AS next FROM (SELECT $1::text AS external_account_id, $2::int AS charging_rate_id) t`,
    [memberId, rateId, at.toISOString()],
  );
  return row?.next ? new Date(row.next) : null;
}

/** Records one exchange of an RSR with its charger (cp_rsr_request); the charger's number read when not given. */
export async function logExchange(sql: Sql, rsrId: number, cpNo: string | null, request: unknown, response: unknown): Promise<void> {
  await sql.query(
    `INSERT INTO cp_rsr_request (rsr_id, cp_no, request_data, response_data)
     SELECT $1, coalesce($2, (SELECT c.cp_no FROM cp_rsr r JOIN cps c ON c.cp_id = r.cp_id WHERE r.rsr_id = $1)), $3, $4`,
    [rsrId, cpNo, JSON.stringify(request), JSON.stringify(response ?? null)],
  );
}

/**
 * A remote start on a charger with a charging rate becomes an RSR: validated, priced, vouchers
 * redeemed and the row written in one transaction, then the start is sent (`send`, which gives the
 * charger the booked minutes). Answers null for a charger without a rate (today's plain remote start).
 */
export async function rsrRemoteStart(
  app: FastifyInstance,
  cp: Charger,
  req: RsrStartRequest,
  idTag: string,
  send: (minutes: number) => Promise<ActionResult>,
): Promise<ActionResult | null> {
  const rate = await rateOfCharger(app.db, cp.cp_id);
  if (!rate) return null;
  const result = await createRsr(app, cp, rate, req, idTag, send).catch((err: unknown) => {
    if (err instanceof Refusal) return { status: 'error', errorCode: err.errorCode } as ActionResult;
    throw err;
  });
  if (req.api) {
    await app.db.query(`INSERT INTO cp_rsr_api_log (api_log_type, rsr_id, url, request_data, response_data) VALUES ('RemoteStart', $1, $2, $3, $4)`, [
      (result.data as { rsrId?: number } | undefined)?.rsrId ?? null, req.api.url, JSON.stringify(req.api.body ?? null), JSON.stringify(result),
    ]);
  }
  return result;
}

async function createRsr(app: FastifyInstance, cp: Charger, rate: Rate, req: RsrStartRequest, idTag: string, send: (minutes: number) => Promise<ActionResult>): Promise<ActionResult> {
  const units = Math.ceil(req.minutes / rate.unit);
  const member = text(req.memberId);
  // A rate that limits members cannot be used without a member ID: 21004 where it counts point redemptions, else 10014.
  if (!member && rate.max_redeem_count !== null) throw new Refusal(ERROR_CODES.MEMBER_ID);
  if (!member && rate.max_daily_charging_session !== null) throw new Refusal(ERROR_CODES.MEMBER_INVALID);
  const isFree = FREE.has(String(req.isFree ?? '').trim().toLowerCase()) ? 'Y' : 'N';
  // The connector's bay is linked; a bayId naming another was refused with the form (ocpp/start-rules.ts).
  const [bay] = await app.db.query<{ id: number; mallId: string | null; cpLocId: string | null; penaltyMode: string | null }>(
    `SELECT id, "mallId", "cpLocId", "penaltyMode" FROM bay WHERE "cpId" = $1 AND "connectorId" = $2 AND deleted_at IS NULL ORDER BY id LIMIT 1`,
    [cp.cp_id, req.connectorId],
  );
  const timeZone = app.config.timeZone;
  const data = await pricingData(app.db, rate.id);
  const rsr = await app.db.tx(async (sql) => {
    // One start of a member at a time: the daily and redeem limits count what is committed.
    if (member) await sql.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`rsr-member:${member}`]);
    // One open RSR per connector: a second would take the first one's session.
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`rsr-connector:${cp.cp_id}:${req.connectorId}`]);
    const [open] = await sql.query(
      `SELECT 1 FROM cp_rsr WHERE cp_id = $1 AND connector_id = $2 AND status IN ('RemoteStarted', 'Charging', 'UnderPenalty') LIMIT 1`,
      [cp.cp_id, req.connectorId],
    );
    if (open) throw new Refusal(ERROR_CODES.CONNECTOR_STATUS);
    const quotedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const today = localDateTime(quotedAt, timeZone).date;
    if (member && rate.max_daily_charging_session !== null) {
      const [{ n }] = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cp_rsr WHERE external_account_id = $1 AND charging_rate_id = $2
            AND status NOT IN ('Failed', 'Cancelled') AND (cre_dttm AT TIME ZONE $3)::date = $4::date`,
        [member, rate.id, timeZone, today],
      );
      if (n >= rate.max_daily_charging_session) throw new Refusal(ERROR_CODES.MAX_SESSION);
    }
    const booking = { rate, data, locId: cp.loc_id, units, vouchers: 0, quotedAt, timeZone };
    const quote = price(booking);
    if (!quote.ok) throw new Refusal(quote.errorCode);
    const [row] = await sql.query<{ rsr_id: number }>(
      `INSERT INTO cp_rsr (external_account_id, cp_id, connector_id, bay_id, charging_rate_id, status, penalty_mode, current_unit_session,
                           max_charging_unit, duration, start_code, lp, in_time, unit_in_minutes, rate, mall_id, carpark_id, remarks, is_free, cre_dttm)
       VALUES ($1, $2, $3, $4, $5, 'RemoteStarted', $6, $7, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING rsr_id`,
      [
        member, cp.cp_id, req.connectorId, bay?.id ?? null, rate.id, bay?.penaltyMode ?? 'Rate', units, units * rate.unit, text(req.startCode),
        text(req.lp), req.inTime?.toISOString() ?? null, rate.unit, rate.name, text(req.mallId) ?? bay?.mallId ?? null,
        text(req.carparkId) ?? bay?.cpLocId ?? null, text(req.remark), isFree, quotedAt.toISOString(),
      ],
    );
    const campaigns = member ? applicableVoucherCampaigns(data, cp.loc_id, quotedAt, timeZone) : [];
    const vouchers = member ? await redeemVouchers(sql, row.rsr_id, member, campaigns, units, today) : 0;
    const priced = price({ ...booking, vouchers });
    if (!priced.ok) throw new Refusal(priced.errorCode);
    if (member && priced.point > 0 && (await nextRedeemAt(sql, rate.id, member, quotedAt))) throw new Refusal(ERROR_CODES.REDEEM_TIME);
    await sql.query(
      `UPDATE cp_rsr SET charging_fee = $2, point = $3, redeem_voucher_sessions = $4, campaign_id = $5 WHERE rsr_id = $1`,
      [row.rsr_id, isFree === 'Y' ? 0 : priced.fee, priced.point, vouchers, priced.campaignId],
    );
    return row.rsr_id;
  });

  const outcome = await send(units * rate.unit);
  await logExchange(app.db, rsr, cp.cp_no, { action: 'RemoteStartTransaction', connectorId: req.connectorId, idTag }, outcome);
  if (outcome.status !== 'success') {
    await app.db.tx(async (sql) => {
      const failed = await sql.query(`UPDATE cp_rsr SET status = 'Failed', lupd_dttm = now() WHERE rsr_id = $1 AND status = 'RemoteStarted' RETURNING rsr_id`, [rsr]);
      if (failed.length) await giveBackVouchers(sql, rsr);
    });
    return { ...outcome, data: { ...(typeof outcome.data === 'object' ? outcome.data : {}), rsrId: rsr } };
  }
  return { status: 'success', data: { ...(typeof outcome.data === 'object' ? outcome.data : {}), rsrId: rsr } };
}
