import type { FastifyInstance } from 'fastify';
import { LoadManager } from './runtime.ts';
import { lmsSocket } from './socket.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Load management of this node's sites. */
    lms: LoadManager;
  }
}

/** Records whose change alters what load management works from. */
const CONFIGURATION = new Set(['cp_locs', 'cp_zones', 'cps', 'lms_profiles', 'zone_lms_profiles']);

/** Starts load management on the OCPP central system (registered after ocppServer) and its live socket. */
export function loadManagement(app: FastifyInstance): void {
  const lms = new LoadManager(
    app.db,
    app.log,
    (cpId, action, params, opts) => app.ocpp.commands.send(cpId, action, params, opts),
    (cpId) => app.ocpp.central.connection(cpId) !== undefined,
  );
  app.decorate('lms', lms);
  app.bus.on('chargerMessage', (m) => lms.onMessage(m));
  app.bus.on('chargerPresence', (p) => lms.onPresence(p));
  app.bus.on('resourceChanged', ({ key }) => {
    if (CONFIGURATION.has(key)) lms.configurationChanged();
  });
  app.addHook('onReady', () => lms.start());
  app.addHook('preClose', () => lms.stop());
  lmsSocket(app, lms, app.config.lmsStatusIntervalMs);
}
