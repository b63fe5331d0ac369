import type { FastifyInstance } from 'fastify';
import { openingHourRoutes } from './routes.ts';
import { OpeningHoursScheduler } from './scheduler.ts';
import { IdBatch } from '../bus/id-batch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Applies chargers' opening hours; the remote start asks it whether a charger is open. */
    openingHours: OpeningHoursScheduler;
  }
}

/** The opening-hours scheduler and routes; after ocppServer (it sends through its dispatcher). */
export function openingHours(app: FastifyInstance): void {
  const scheduler = new OpeningHoursScheduler(app.db, app.ocpp.central, app.ocpp.commands, app.log, app.config.timeZone);
  app.decorate('openingHours', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('preClose', async () => scheduler.stop());
  // A charger back online gets the change it missed; chargers reconnecting together are checked together
  // (a reconnect storm is one query, not one per charger).
  const backOnline = new IdBatch(200, (cpIds) => void scheduler.reconcile(cpIds));
  app.bus.on('chargerPresence', ({ cpId, online }) => (online ? backOnline.add(cpId) : backOnline.delete(cpId)));
  app.addHook('preClose', async () => backOnline.stop());
  // Changed or trashed hours apply to their chargers at once rather than at the next check.
  app.bus.on('resourceChanged', ({ key, id }) => {
    if (key !== 'opening_hour') return;
    app.db
      .query<{ cp_id: number }>(`SELECT cp_id FROM cp_opening_hour WHERE opening_hour_id = $1`, [id])
      .then((rows) => scheduler.reconcile(rows.map((r) => r.cp_id)))
      .catch((err) => app.log.error({ err }, 'opening hours not reconciled after a change'));
  });
  openingHourRoutes(app, scheduler);
}
