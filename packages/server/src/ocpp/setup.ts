import type { FastifyInstance } from 'fastify';
import { CentralSystem } from './central-system.ts';
import { CommandDispatcher } from './commands.ts';
import { commandRoutes } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OCPP central system of this node and its command dispatcher (used by the API and load management). */
    ocpp: { central: CentralSystem; commands: CommandDispatcher };
  }
}

/** Mounts the OCPP endpoint /ocpp/{chargeBoxId} on the app's http server, and the command routes. */
export function ocppServer(app: FastifyInstance): void {
  const central = new CentralSystem(app.db, app.log);
  app.decorate('ocpp', { central, commands: new CommandDispatcher(central) });
  app.server.on('upgrade', central.handleUpgrade);
  app.addHook('onReady', () => central.resetOnlineFlags());
  // A charger changed in the portal may no longer be allowed to stay connected.
  app.bus.on('resourceChanged', ({ key, action, id, changed }) => {
    if (key !== 'cps' || action === 'CREATE') return;
    central.recheck(id, action, changed).catch((err) => app.log.error({ err, cpId: id }, 'OCPP connection not rechecked after a change'));
  });
  // Before the http server closes: charger sockets would otherwise keep it open.
  app.addHook('preClose', () => central.close());
  commandRoutes(app);
}
