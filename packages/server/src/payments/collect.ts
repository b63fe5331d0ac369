import type { FastifyInstance } from 'fastify';
import { addDetail, attemptInFlight, charge, lockPayment } from './attempt.ts';
import { gatewayOf } from './gateway.ts';

/**
 * Collects the amount of an Unsettled RSR through the payment gateway, once (the RSR lifecycle
 * calls it after committing the payment_result). Never throws: it settles the RSR or records the
 * attempt as Error. Without a configured gateway nothing is recorded: the RSR stays Unsettled
 * for staff to settle by hand (never a fake success).
 */
export async function autoPay(app: FastifyInstance, rsrId: number): Promise<void> {
  try {
    const gateway = gatewayOf(app.config);
    if (!gateway) {
      app.log.info({ rsrId }, 'no payment gateway configured: the RSR stays Unsettled for manual settlement');
      return;
    }
    const timeoutMs = app.config.paymentGateway!.timeoutMs;
    // Under the payment's row lock: a second call at the same time waits, then finds the AutoPay row and stops.
    const claimed = await app.db.tx(async (sql) => {
      const pr = await lockPayment(sql, { rsrId });
      if (!pr || pr.status !== 'Unsettled' || Number(pr.amount) <= 0) return undefined;
      const [done] = await sql.query(`SELECT 1 FROM payment_result_detail WHERE "resultId" = $1 AND "actionType" = 'AutoPay'`, [pr.id]);
      if (done || (await attemptInFlight(sql, pr.id))) return undefined;
      return addDetail(sql, pr.id, 'AutoPay', timeoutMs);
    });
    if (!claimed) return;
    const { approved, message } = await charge(app, gateway, claimed);
    if (!approved) app.log.warn({ rsrId, message }, 'automatic payment failed: the RSR stays Unsettled');
  } catch (err) {
    app.log.error({ err, rsrId }, 'automatic payment could not be recorded');
  }
}
