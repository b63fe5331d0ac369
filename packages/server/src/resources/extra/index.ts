import type { FastifyInstance } from 'fastify';
import { appSettingsRoutes } from './app-settings.ts';
import { profileRoutes } from './profile.ts';
import { rnpRoutes } from './rnp.ts';
import { zoneAssignmentRoutes } from './zone-assignment.ts';

/** Routes of resources that go beyond list / view / create / edit / delete. */
export function registerResourceExtras(app: FastifyInstance) {
  profileRoutes(app);
  rnpRoutes(app);
  zoneAssignmentRoutes(app);
  appSettingsRoutes(app);
}
