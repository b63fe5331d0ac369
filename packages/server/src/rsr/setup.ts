import type { FastifyInstance } from 'fastify';
import { RsrLifecycle } from './lifecycle.ts';
import { rsrRoutes } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The remote start requests that follow their chargers (rsr/lifecycle.ts). */
    rsr: RsrLifecycle;
  }
}

/** Remote start requests: their routes and their lifecycle on the charger events (registered after ocppServer). */
export function remoteStartRequests(app: FastifyInstance): void {
  const lifecycle = new RsrLifecycle(app);
  app.decorate('rsr', lifecycle);
  app.bus.on('chargerMessage', (m) => void lifecycle.onMessage(m));
  app.bus.on('plannedStopSent', (stop) => void lifecycle.onPlannedStop(stop));
  app.addHook('onReady', async () => lifecycle.start());
  app.addHook('preClose', () => lifecycle.stop());
  rsrRoutes(app);
}
