import type { FastifyInstance } from 'fastify';
import { clusterLoadManagement } from './lms.ts';
import { ClusterNode } from './node.ts';

/**
 * With REDIS_URL, joins this node to the others sharing the database: presence, command
 * forwarding, record changes and load management across nodes. Registered after the OCPP
 * central system and load management, whose hooks it sets; without Redis it does nothing.
 */
export function cluster(app: FastifyInstance): void {
  if (!app.redis) return;
  const node = new ClusterNode(app, app.redis);
  const lms = clusterLoadManagement(app, node);
  node.attach();
  app.addHook('onReady', async () => {
    node.start();
    lms.start();
  });
  app.addHook('preClose', () => node.stop());
}
