import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../db/client.ts';
import type { PaymentGateway } from './gateway.ts';

/**
 * One payment attempt of a payment_result: a payment_result_detail row with the RSR's figures
 * (spec part 2 §3), the gateway call logged in cp_rsr_api_log, then Success (the payment and its
 * RSR Settled) or Error (both stay Unsettled). Claiming an attempt happens under the
 * payment_result's row lock, so two callers never charge the same payment at once.
 */

export type ActionType = 'AutoPay' | 'Retry' | 'Manual';

/** The payment_result locked for this transaction (undefined: the RSR has none). */
export async function lockPayment(sql: Sql, where: { rsrId: number } | { resultId: number }) {
  const [pr] = await sql.query<{ id: number; rsr_id: number; status: string; amount: number }>(
    `SELECT id, rsr_id, status, amount FROM payment_result WHERE ${'rsrId' in where ? 'rsr_id' : 'id'} = $1 FOR UPDATE`,
    ['rsrId' in where ? where.rsrId : where.resultId],
  );
  return pr;
}

/**
 * Whether a gateway attempt is still within its time. A Pending row past autoPaymentExpiredTime
 * was abandoned (the server stopped mid-call): it is closed as Error so that staff can act on it.
 */
export async function attemptInFlight(sql: Sql, resultId: number): Promise<boolean> {
  await sql.query(
    `UPDATE payment_result_detail SET status = 'Error', lupd_dttm = now()
     WHERE "resultId" = $1 AND status = 'Pending' AND "autoPaymentExpiredTime" <= now()`,
    [resultId],
  );
  const [row] = await sql.query(
    `SELECT 1 FROM payment_result_detail WHERE "resultId" = $1 AND status = 'Pending' AND "autoPaymentExpiredTime" > now()`,
    [resultId],
  );
  return Boolean(row);
}

/** What kind of fee the amount is, from the RSR's charging and penalty fees. */
const PAYMENT_TYPE = `CASE WHEN r.penalty_fee > 0 AND r.charging_fee > 0 THEN 'ChargingAndPenalty' WHEN r.penalty_fee > 0 THEN 'Penalty' ELSE 'Charging' END`;
/** Whole minutes the car stayed past the grace period. */
const PENALTY_MINUTES = `CASE WHEN r.actual_finished_time IS NULL OR r.gracing_period_end_dttm IS NULL THEN NULL
  ELSE greatest(0, floor(extract(epoch FROM r.actual_finished_time - r.gracing_period_end_dttm) / 60))::int END`;

export interface Claimed {
  detailId: number;
  resultId: number;
  rsrId: number;
  requestReference: string;
  memberId: string | null;
  amount: number;
}

/**
 * Adds the attempt's detail row (call with the payment_result locked). Gateway attempts start
 * Pending and expire after the gateway's timeout and a margin; a manual one is Success at once.
 */
export async function addDetail(sql: Sql, resultId: number, actionType: ActionType, timeoutMs: number): Promise<Claimed> {
  const manual = actionType === 'Manual';
  const [d] = await sql.query<Omit<Claimed, 'resultId'>>(
    `WITH d AS (
       INSERT INTO payment_result_detail ("resultId", "referenceMemberId", "paymentType", amount, "startTime", "endTime",
         "autoPaymentExpiredTime", "gracingPeriodEndDttm", "actualFinishedTime", "penaltyDuration", point, "redeemVoucherSessions",
         "currentUnitSession", status, "actionType", "requestReference")
       SELECT pr.id, r.external_account_id, ${PAYMENT_TYPE}, pr.amount, r.start_time, r.end_time,
         CASE WHEN $3 THEN NULL ELSE now() + make_interval(secs => $4::float8 / 1000 + 60) END,
         r.gracing_period_end_dttm, r.actual_finished_time, ${PENALTY_MINUTES}, r.point, r.redeem_voucher_sessions,
         r.current_unit_session, CASE WHEN $3 THEN 'Success' ELSE 'Pending' END, $2, $5
       FROM payment_result pr JOIN cp_rsr r ON r.rsr_id = pr.rsr_id WHERE pr.id = $1
       RETURNING id, "resultId", "requestReference", "referenceMemberId", amount)
     SELECT d.id AS "detailId", pr.rsr_id AS "rsrId", d."requestReference", d."referenceMemberId" AS "memberId", d.amount
     FROM d JOIN payment_result pr ON pr.id = d."resultId"`,
    [resultId, actionType, manual, timeoutMs, randomUUID()],
  );
  return { ...d, resultId, amount: Number(d.amount) };
}

/** The payment and its RSR settled (call with the payment_result locked). */
export async function settle(sql: Sql, resultId: number, rsrId: number): Promise<void> {
  await sql.query(`UPDATE payment_result SET status = 'Settled', lupd_dttm = now() WHERE id = $1`, [resultId]);
  await sql.query(
    `UPDATE cp_rsr SET status = 'Settled', payment_status = 'Settled', settled_time = now(), lupd_dttm = now() WHERE rsr_id = $1`,
    [rsrId],
  );
}

/** Calls the gateway for a claimed attempt and records the outcome; answers whether it was approved and the gateway's message. */
export async function charge(app: FastifyInstance, gateway: PaymentGateway, c: Claimed): Promise<{ approved: boolean; message: string | null }> {
  const request = { requestReference: c.requestReference, memberId: c.memberId, amount: c.amount, currency: 'HKD' as const, rsrId: c.rsrId };
  const outcome = await gateway.charge(request);
  // The key travels in a header only: the logged request is the body as sent.
  await app.db.query(
    `INSERT INTO cp_rsr_api_log (api_log_type, rsr_id, url, request_data, response_data) VALUES ('payment', $1, $2, $3, $4)`,
    [c.rsrId, gateway.url, JSON.stringify(request), JSON.stringify(outcome.response ?? null)],
  );
  await app.db.tx(async (sql) => {
    await lockPayment(sql, { resultId: c.resultId });
    // The gateway's reason stays with the attempt: staff read it in the payment results before deciding what to do.
    if (!outcome.approved) {
      await sql.query(`UPDATE payment_result_detail SET status = 'Error', "gatewayMessage" = $2, lupd_dttm = now() WHERE id = $1`, [c.detailId, outcome.message]);
      return;
    }
    await sql.query(
      `UPDATE payment_result_detail SET status = 'Success', "transactionReference" = $2, "gatewayMessage" = $3, lupd_dttm = now() WHERE id = $1`,
      [c.detailId, outcome.transactionReference, outcome.message],
    );
    await settle(sql, c.resultId, c.rsrId);
  });
  return { approved: outcome.approved, message: outcome.message };
}
