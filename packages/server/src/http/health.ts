import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The 503 body of any call that failed because the database could not be reached in time. */
export const DATABASE_UNAVAILABLE = {
  message: 'The database is unavailable or busy; please try again in a few seconds',
  errorCode: 'database_unavailable',
};

/**
 * Probes for a process supervisor or load balancer: /healthz is the process answering at all
 * (restart it when this fails), /readyz whether it can serve now (the database answers): take it
 * out of rotation while this fails, it recovers by itself.
 */
export function healthRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/healthz', {
    schema: { response: { 200: z.object({ status: z.literal('ok') }) } },
    config: { public: true, doc: { summary: 'Liveness: the process answers ({status: ok})' } },
  }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', {
    schema: {
      response: {
        200: z.object({ status: z.literal('ready'), database: z.literal('ok'), chargers: z.int().describe('chargers connected to this node') }),
        503: z.object({ status: z.literal('not ready'), database: z.literal('unreachable'), error: z.string() }).describe('The database does not answer'),
      },
    },
    config: { public: true, doc: { summary: 'Readiness: 200 while the database answers (with the connected chargers), else 503' } },
  }, async (_req, reply) => {
    try {
      await app.db.query('SELECT 1');
      return { status: 'ready' as const, database: 'ok' as const, chargers: app.ocpp.central.connectionCount };
    } catch (err) {
      return reply.status(503).send({ status: 'not ready', database: 'unreachable', error: (err as Error).message });
    }
  });
}
