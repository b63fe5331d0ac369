import type { FastifyInstance } from 'fastify';
import { localListRoutes } from './routes.ts';
import { PendingSender } from './send.ts';

/**
 * The local authorization list (issue 29): its routes, and card changes sent by themselves — to the
 * connected chargers holding a list when a card is written (auth_card's hook marked them pending in
 * the write's transaction), and to a charger with pending changes when it connects or boots.
 */
export function localList(app: FastifyInstance): void {
  localListRoutes(app);
  const pending = new PendingSender(app);
  const failed = (cpId?: number) => (err: unknown) => app.log.error({ err, cpId }, 'Local list changes not sent');
  app.bus.on('resourceChanged', ({ key }) => {
    if (key === 'auth_card') pending.flushConnected().catch(failed());
  });
  // After the event, so that the BootNotification is answered before the list goes.
  const later = (cpId: number) => setTimeout(() => pending.flush(cpId).catch(failed(cpId)), 0);
  app.bus.on('chargerPresence', ({ cpId, online }) => {
    if (online) later(cpId);
  });
  app.bus.on('chargerMessage', ({ cpId, action }) => {
    if (action === 'BootNotification') later(cpId);
  });
}
