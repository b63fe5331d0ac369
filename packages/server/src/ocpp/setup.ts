import type { FastifyInstance } from 'fastify';
import { getResource } from '@ev/core';
import { CentralSystem } from './central-system.ts';
import { CommandDispatcher } from './commands.ts';
import { MALFORMED_LIMIT, MALFORMED_READ_FREELY } from './connection.ts';
import { configReadbackRoutes } from './config-readback-routes.ts';
import { chargerCredentialsRoutes } from '../charger-credentials/routes.ts';
import { chargingProfiles } from '../charging-profiles/setup.ts';
import { configFleetRoutes } from './config-fleet-routes.ts';
import { localList } from '../local-list/setup.ts';
import { reservations } from '../reservations/index.ts';
import { cpConfigRoutes } from './cp-config.ts';
import { massUpdateRoutes } from './mass-update.ts';
import { firmwareRoutes } from '../firmware/routes.ts';
import { meterChartRoute } from './meter-chart.ts';
import { PlannedStops } from './planned-stops.ts';
import { commandRoutes } from './routes.ts';
import { testerRoutes } from './tester.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OCPP central system of this node and its command dispatcher (used by the API and load management). */
    ocpp: { central: CentralSystem; commands: CommandDispatcher; plannedStops: PlannedStops };
  }
}

/** Mounts the OCPP endpoint /ocpp/{chargeBoxId} on the app's http server, and the command routes. */
export function ocppServer(app: FastifyInstance): void {
  const central = new CentralSystem(app.db, app.log, app.bus, {
    garbageClosesPerAddress: app.config.ocppGarbageClosesPerAddress,
    signInFailuresPerAddress: app.config.ocppSignInFailuresPerAddress,
    garbageReadPauseMs: app.config.ocppGarbageReadPauseMs,
    pingIntervalMs: app.config.ocppPingIntervalMs,
    trustProxy: app.config.trustProxy,
  });
  const commands = new CommandDispatcher(central);
  const plannedStops = new PlannedStops(central, commands);
  app.decorate('ocpp', { central, commands, plannedStops });
  app.server.on('upgrade', central.handleUpgrade);
  app.describeWebSocket({
    path: '/ocpp/{chargeBoxId}',
    summary: 'OCPP 1.6-J and 2.0.1: where chargers connect',
    description: 'Subprotocol ocpp2.0.1 or ocpp1.6, as the charger offers (both: ocpp2.0.1). A 1.6 charger sends its calls '
      + '(BootNotification, Heartbeat, StatusNotification, Authorize, StartTransaction, MeterValues, StopTransaction, DataTransfer, …), '
      + 'a 2.0.1 station its own (BootNotification, StatusNotification, Authorize, TransactionEvent, MeterValues, NotifyReport, …), '
      + 'and each answers the commands sent to it in its version; docs/ocpp-201.md maps 2.0.1 onto the portal. '
      + 'Refused at the upgrade: 401 for an unknown or deleted charger and for a missing or wrong password, 403 for a disabled one, '
      + '400 without either subprotocol, 429 during a cool-down, from an address that keeps sending garbage, or from one with '
      + 'too many failed sign-ins (OCPP_SIGN_IN_FAILURES_PER_ADDRESS a minute). During a password rotation (POST /api/cps/{id}/password) '
      + 'the old password is accepted until the charger signs in with the new one. '
      + `A connection sending more than ${MALFORMED_READ_FREELY} malformed messages a minute is read slowly (OCPP_GARBAGE_READ_PAUSE_MS after each), `
      + `and closed with 1008 past ${MALFORMED_LIMIT}. `
      + 'The server sends a WebSocket ping every OCPP_PING_INTERVAL_MS (30 s); a charger that has not answered one by the next is disconnected.',
    parameters: [{ name: 'chargeBoxId', in: 'path', description: 'The charger number (cps.cp_no)' }],
    public: true,
    // No portal sign-in; a charger that has a password gives it as HTTP Basic.
    security: [{}, { chargerBasic: [] }],
    note: 'The charger\'s HTTP Basic password (user: the chargeBoxId) when it has one.',
  });
  app.addHook('onReady', async () => {
    await central.resetOnlineFlags();
    plannedStops.start();
  });
  // A charger changed in the portal may no longer be allowed to stay connected.
  app.bus.on('resourceChanged', ({ key, action, id, changed }) => {
    if (!getResource(key)?.commandable || action === 'CREATE') return;
    central.recheck(id, action, changed).catch((err) => app.log.error({ err, cpId: id }, 'OCPP connection not rechecked after a change'));
  });
  // Before the http server closes: charger sockets would otherwise keep it open.
  app.addHook('preClose', async () => {
    await plannedStops.stop();
    await central.close();
  });
  commandRoutes(app);
  testerRoutes(app);
  meterChartRoute(app);
  cpConfigRoutes(app);
  configReadbackRoutes(app);
  chargerCredentialsRoutes(app);
  configFleetRoutes(app);
  massUpdateRoutes(app);
  firmwareRoutes(app);
  reservations(app);
  chargingProfiles(app);
  localList(app);
}
