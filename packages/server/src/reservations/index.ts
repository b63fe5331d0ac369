import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPrivilege, editPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import { idParams } from '../http/schema.ts';
import { ActionAnswer } from '../ocpp/routes.ts';
import { cancel, expireReservations, reserve, useOnStart } from './service.ts';

/** How often open reservations are checked for expiry; the charger ends them on its own at expiryDate. */
const EXPIRY_CHECK_MS = 15_000;

const CREATE = createPrivilege('reservations');
const EDIT = editPrivilege('reservations');
const int = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
const ReserveBody = z.strictObject({
  cp_id: int.describe('The charger (cps.cp_id)'),
  connector_id: int.optional().describe('1..n, or 0 (the default) for any connector of the charger'),
  id_tag: z.string().max(20).describe('A card accepted at the charger'),
  parent_id_tag: z.string().max(20).nullish(),
  expiry_dttm: z.string().max(40).describe('YYYY-MM-DD HH:mm:ss in the portal\'s time zone, or ISO 8601 with an offset'),
});

/**
 * OCPP 1.6 reservations (issue 29): the create and cancel routes, the expiry check, and the end of a
 * reservation by the StartTransaction that uses it (told by the bus once the session is committed).
 */
export function reservations(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // The engine's create of this resource: a reservation is a ReserveNow, so its create is this route.
  app.post('/api/reservations', {
    schema: { body: ReserveBody, response: { 200: ActionAnswer } },
    config: { doc: { summary: 'Reserve a connector (ReserveNow); the answer carries the stored reservation', privileges: [CREATE], note: 'status success only when the charger Accepted; its other answers (Occupied, Faulted, Unavailable, Rejected) are error 10032 with the reservation in data.' } },
  }, async (req) => {
    const user = requirePrivileges(req, CREATE);
    return reserve(app, req.log, user, req.body);
  });

  app.post('/api/reservations/:id/cancel', {
    schema: { params: idParams, response: { 200: ActionAnswer } },
    config: { doc: { summary: 'Cancel a reservation (CancelReservation)', privileges: [EDIT], note: 'A reservation no longer open (used, expired, cancelled, refused) is 400 status: not_editable.' } },
  }, async (req) => {
    const user = requirePrivileges(req, EDIT);
    return cancel(app, req.log, user, req.params.id);
  });

  app.bus.on('chargerMessage', ({ cpId, action, params, response }) => {
    const transactionId = (response as { transactionId?: unknown }).transactionId;
    const accepted = (response as { idTagInfo?: { status?: unknown } }).idTagInfo?.status === 'Accepted';
    if (action !== 'StartTransaction' || typeof transactionId !== 'number' || !accepted) return;
    useOnStart(app.db, cpId, params, transactionId).catch((err: unknown) => app.log.error({ err, cpId }, 'reservation not marked used'));
  });

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= expireReservations(app.db)
        .catch((err: unknown) => app.log.warn({ err }, 'reservations not expired; the next check tries again'))
        .finally(() => (running = null));
    }, EXPIRY_CHECK_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
