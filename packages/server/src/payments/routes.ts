import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, P, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { recordId } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import { addDetail, attemptInFlight, charge, lockPayment, settle } from './attempt.ts';
import { gatewayOf } from './gateway.ts';

/**
 * Staff acting on a payment (spec part 2 §4, §7): retrying a failed automatic payment through the
 * gateway (GET /api/payment_result_detail/retry/{id}) and settling an RSR by hand
 * (POST /api/cp_rsr/setup_settled/). Both are refused with the spec's codes (HTTP 200) and audited.
 */

const refuse = (errorCode: number, message?: string) => ({ status: 'error' as const, errorCode, ...(message ? { message } : {}) });

/** Whether the charger of an RSR is at one of the user's sites. */
async function chargerInScope(sql: Sql, user: AuthUser, cpId: number): Promise<boolean> {
  if (user.allSites) return true;
  const [row] = await sql.query(`SELECT 1 FROM cps WHERE cp_id = $1 AND loc_id = ANY($2::int[])`, [cpId, user.siteIds]);
  return Boolean(row);
}

const SettleBody = z.strictObject({ rsr_id: z.union([z.int().min(1).max(2_147_483_647), z.string().regex(/^\d{1,10}$/).transform(Number)]) });
/** A refusal with the spec's code (HTTP 200); message: the gateway's reason, when it gave one. */
const Refusal = z.object({ status: z.literal('error'), errorCode: z.int(), message: z.string().optional() });
const SettleAnswer = z.union([z.object({ status: z.literal('success') }), Refusal]);
const RetryAnswer = z.union([z.object({ status: z.literal('Success') }), Refusal]);
// Only payment_result_detail's failed payments are retried.
const retryParams = z.strictObject({ key: z.enum(['payment_result_detail']), id: recordId });

export function paymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/:key/retry/:id', { schema: { params: retryParams, response: { 200: RetryAnswer } }, config: { doc: { summary: 'Retry a failed payment', privileges: [readPrivilege('payment_result_detail'), P.RETRY_ERROR_PAYMENT] } } }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('payment_result_detail'), P.RETRY_ERROR_PAYMENT);
    const { id } = req.params;
    const gateway = gatewayOf(app.config);
    const claimed = await app.db.tx(async (sql) => {
      const [d] = await sql.query<{ resultId: number; status: string; actionType: string }>(
        `SELECT "resultId", status, "actionType" FROM payment_result_detail WHERE id = $1`,
        [id],
      );
      const pr = d && (await lockPayment(sql, { resultId: d.resultId }));
      const [rsr] = pr ? await sql.query<{ cp_id: number; member: string | null }>(`SELECT cp_id, nullif(trim(external_account_id), '') AS member FROM cp_rsr WHERE rsr_id = $1`, [pr.rsr_id]) : [];
      if (!d || !pr || !rsr || !(await chargerInScope(sql, user, rsr.cp_id))) return refuse(ERROR_CODES.PAYMENT_NOT_FOUND);
      if (pr.status === 'Settled') return refuse(ERROR_CODES.PAYMENT_SETTLED);
      // A later gateway attempt (a retry, or one still running) has superseded this one.
      const [later] = await sql.query(
        `SELECT 1 FROM payment_result_detail WHERE "resultId" = $1 AND id > $2 AND "actionType" IN ('AutoPay', 'Retry')`,
        [d.resultId, id],
      );
      if (later || (await attemptInFlight(sql, d.resultId))) return refuse(ERROR_CODES.PAYMENT_RETRIED);
      if (d.status !== 'Error' || d.actionType !== 'AutoPay' || pr.status !== 'Unsettled') return refuse(ERROR_CODES.PAYMENT_RECORD_INVALID);
      // Spec 40004: the gateway charges a member, and the RSR names none; only staff can settle it (by hand).
      if (!rsr.member) return refuse(ERROR_CODES.INVALID_RECORD);
      // Manual settlement only: never a success that no gateway approved.
      if (!gateway) return refuse(ERROR_CODES.FAILED, 'No payment gateway is configured: settle the payment by hand');
      return addDetail(sql, d.resultId, 'Retry', app.config.paymentGateway!.timeoutMs);
    });
    if ('status' in claimed) return claimed;
    const { approved, message } = await charge(app, gateway!, claimed);
    await writeAudit(app.db, user, {
      action: 'COMMAND',
      target: 'payment_result_detail',
      targetId: id,
      newData: { retry: claimed.detailId, rsr_id: claimed.rsrId, amount: claimed.amount, status: approved ? 'Success' : 'Error', message },
      remark: 'retry',
    });
    return approved ? { status: 'Success' as const } : refuse(ERROR_CODES.FAILED, message ?? undefined);
  });

  app.post('/api/cp_rsr/setup_settled', {
    schema: { body: SettleBody, response: { 200: SettleAnswer } },
    config: { doc: { summary: 'Mark a request\'s payment settled', privileges: [readPrivilege('cp_rsr'), P.SETTLED_BUTTON] } },
  }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('cp_rsr'), P.SETTLED_BUTTON);
    const { rsr_id: rsrId } = req.body;
    return app.db.tx(async (sql) => {
      // The payment first, then the RSR: the order the gateway attempts lock them in.
      const pr = await lockPayment(sql, { rsrId });
      const [rsr] = await sql.query<{ cp_id: number; status: string; payment_status: string | null }>(
        `SELECT cp_id, status, payment_status FROM cp_rsr WHERE rsr_id = $1 FOR UPDATE`,
        [rsrId],
      );
      if (!rsr || !(await chargerInScope(sql, user, rsr.cp_id))) return refuse(ERROR_CODES.RSR_NOT_FOUND);
      if (rsr.status === 'Settled' || rsr.payment_status === 'Settled' || pr?.status === 'Settled') return refuse(ERROR_CODES.PAYMENT_SETTLED);
      if (rsr.status !== 'Unsettled' || rsr.payment_status !== 'Unsettled' || !pr) return refuse(ERROR_CODES.RSR_INVALID);
      // The gateway may be charging it right now: settling too would collect twice.
      if (await attemptInFlight(sql, pr.id)) return refuse(ERROR_CODES.PAYMENT_RECORD_INVALID);
      const detail = await addDetail(sql, pr.id, 'Manual', 0);
      await settle(sql, pr.id, rsrId);
      await writeAudit(sql, user, {
        action: 'UPDATE',
        target: 'cp_rsr',
        targetId: rsrId,
        oldData: { status: rsr.status, payment_status: rsr.payment_status },
        newData: { status: 'Settled', payment_status: 'Settled', payment_result_detail: detail.detailId, amount: detail.amount },
        remark: 'setup_settled',
      });
      return { status: 'success' as const };
    });
  });
}
