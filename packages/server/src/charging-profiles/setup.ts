import type { FastifyInstance } from 'fastify';
import { ProfileRecorder } from './record.ts';
import { chargingProfileRoutes } from './routes.ts';

/** Charging profiles (issue 29): records what chargers accept, ends TxProfiles with their transactions, and the routes. */
export function chargingProfiles(app: FastifyInstance): void {
  const recorder = new ProfileRecorder(app.db, app.log);
  app.ocpp.commands.onAccepted = (cpId, action, params) => recorder.onAccepted(cpId, action, params);
  app.bus.on('chargerMessage', (m) => void recorder.onMessage(m));
  chargingProfileRoutes(app);
}
