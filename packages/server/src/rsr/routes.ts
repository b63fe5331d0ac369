import { editPrivilege, ERROR_CODES } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { writeAudit } from '../resources/audit.ts';
import { logExchange } from './start.ts';
import { giveBackVouchers } from './vouchers.ts';

const params = z.strictObject({ resource: z.enum(['cp_rsr']), rsr_id: z.string().regex(/^\d{1,9}$/, 'invalid').transform(Number) });
/** Cancelled, or refused with the spec's code (HTTP 200). */
const CancelAnswer = z.union([z.object({ status: z.literal('success') }), z.object({ status: z.literal('error'), errorCode: z.int() })]);

/** GET /api/cp_rsr/cancel/{rsr_id} (spec §7): a request whose charging has not begun is called off. */
export function rsrRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/:resource/cancel/:rsr_id', {
    schema: { params, response: { 200: CancelAnswer } },
    config: { doc: { summary: 'Cancel a remote start request whose charging has not begun', privileges: [editPrivilege('cp_rsr')] } },
  }, async (req): Promise<z.output<typeof CancelAnswer>> => {
    const { rsr_id: id } = req.params;
    const user = requirePrivileges(req, editPrivilege('cp_rsr'));
    const outcome = await app.db.tx(async (sql): Promise<{ errorCode: number } | { rsr: Record<string, any> }> => {
      const [r] = await sql.query(
        `SELECT r.rsr_id, r.status, r.cp_id, r.connector_id, r.cre_dttm, c.loc_id, c.cp_no,
                left(coalesce(r.external_account_id, r.start_code, 'PORTAL'), 20) AS id_tag
           FROM cp_rsr r JOIN cps c ON c.cp_id = r.cp_id
          WHERE r.rsr_id = $1 FOR UPDATE OF r`,
        [id],
      );
      // Another site's RSR does not exist for this user.
      if (!r || (!user.allSites && !user.siteIds.includes(r.loc_id))) return { errorCode: ERROR_CODES.RSR_NOT_FOUND };
      if (r.status !== 'RemoteStarted') return { errorCode: ERROR_CODES.RSR_INVALID };
      const [after] = await sql.query(
        `UPDATE cp_rsr SET status = 'Cancelled', cancel_time = now(), lupd_dttm = now() WHERE rsr_id = $1 RETURNING status, cancel_time`,
        [id],
      );
      await giveBackVouchers(sql, id);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'cp_rsr', targetId: id, oldData: { status: r.status }, newData: after, remark: 'cancel' });
      return { rsr: r as Record<string, any> };
    });
    if (!('rsr' in outcome)) return { status: 'error', errorCode: outcome.errorCode };
    const r = outcome.rsr;
    // The idTag the start was sent with (ocpp/routes.ts): a charger starting late is refused (idTagInfo Invalid).
    app.ocpp.central.remoteStarts.revoke(r.cp_id, r.id_tag);
    // A start that reached the charger just before the cancel: its transaction is stopped too.
    const [running] = await app.db.query(
      `SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = $2 AND session_end_time IS NULL AND session_start_time >= $3
        ORDER BY session_id DESC LIMIT 1`,
      [r.cp_id, r.connector_id, r.cre_dttm],
    );
    if (running) {
      const request = { action: 'RemoteStopTransaction', transactionId: running.tran_id };
      const sent = await app.ocpp.commands.send(r.cp_id, 'RemoteStopTransaction', { transactionId: running.tran_id });
      await logExchange(app.db, id, r.cp_no, request, sent);
    }
    return { status: 'success' };
  });
}
