import type { FastifyInstance } from 'fastify';
import { autoPay } from '../payments/collect.ts';
import { price, pricingData, type Rate } from './pricing.ts';

/** What the StopTransaction said about the RSR's session. */
export interface Stop {
  rsrId: number;
  at: Date;
  /** The OCPP stop reason (Local, Remote, EVDisconnected …). */
  reason: string;
  note: string | null;
}

/**
 * The session of an RSR ended: the times and reason are kept, the penalty is priced from when it
 * actually finished, and what is owed (fee + penalty) is recorded in payment_result in the same
 * transaction. Nothing owed: Settled at once; else Unsettled, and the payment is collected after
 * the commit (autoPay never throws: it settles or records its error).
 */
export async function finishRsr(app: FastifyInstance, stop: Stop): Promise<void> {
  const owed = await app.db.tx(async (sql) => {
    const [r] = await sql.query(
      `SELECT r.*, c.loc_id FROM cp_rsr r JOIN cps c ON c.cp_id = r.cp_id WHERE r.rsr_id = $1 AND r.status IN ('Charging', 'UnderPenalty') FOR UPDATE OF r`,
      [stop.rsrId],
    );
    if (!r) return null;
    const [rate] = await sql.query<Rate>(`SELECT * FROM charging_rate WHERE id = $1`, [r.charging_rate_id]);
    let penalty = 0;
    if (r.is_free !== 'Y' && r.penalty_mode === 'Manual') penalty = Number(r.penalty_fee);
    else if (r.is_free !== 'Y' && rate && r.start_time) {
      // Priced as quoted (same slot and campaigns), the overtime measured from the real start.
      const quotedAt = new Date(r.cre_dttm);
      const lateStart = new Date(r.start_time).getTime() - quotedAt.getTime();
      const priced = price({
        rate, data: await pricingData(sql, rate.id), locId: r.loc_id, units: r.max_charging_unit, vouchers: r.redeem_voucher_sessions,
        quotedAt, timeZone: app.config.timeZone, actualFinished: new Date(stop.at.getTime() - lateStart),
      });
      penalty = priced.ok ? priced.penaltyFee : 0;
    }
    const fee = r.is_free === 'Y' ? 0 : Number(r.charging_fee);
    const amount = fee + penalty;
    const settled = amount === 0;
    const [pr] = await sql.query<{ id: number }>(
      `INSERT INTO payment_result (rsr_id, status, amount) VALUES ($1, $2, $3)
       ON CONFLICT (rsr_id) DO UPDATE SET status = EXCLUDED.status, amount = EXCLUDED.amount, lupd_dttm = now() RETURNING id`,
      [r.rsr_id, settled ? 'Settled' : 'Unsettled', amount],
    );
    await sql.query(
      `UPDATE cp_rsr SET status = $2, payment_status = $2, actual_finished_time = $3, actual_end_time = $3, stop_type = $4, stop_reason = $5,
              charging_fee = $6, penalty_fee = $7, payment_result_id = $8, settled_time = CASE WHEN $2 = 'Settled' THEN now() END,
              ev_disconnect_time = CASE WHEN $4 = 'EVDisconnected' THEN $3::timestamptz ELSE ev_disconnect_time END, lupd_dttm = now()
        WHERE rsr_id = $1`,
      [r.rsr_id, settled ? 'Settled' : 'Unsettled', stop.at.toISOString(), stop.reason, stop.note ?? stop.reason, fee, penalty, pr.id],
    );
    return settled ? null : r.rsr_id as number;
  });
  if (owed !== null) await autoPay(app, owed);
}
