import type { FastifyInstance } from 'fastify';
import { thirdPartyConfRoutes } from './conf-routes.ts';
import { externalRoutes } from './external.ts';

/** Third-party access: the portal's key management and the apps' external API. */
export function thirdPartyRoutes(app: FastifyInstance): void {
  thirdPartyConfRoutes(app);
  externalRoutes(app);
}
