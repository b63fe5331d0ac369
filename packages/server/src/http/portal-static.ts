import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sep } from 'node:path';

/** A year: the longest max-age caches honour; the file's name changes with its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built portal. Its build writes each file also as .br and .gz (packages/web's
 * precompress plugin): those are sent as they are to a client that accepts them, so nothing is
 * compressed per request. Files under assets/ carry their content hash in their name and are cached
 * for good; everything else (index.html above all, which names the current assets) is revalidated
 * at every visit, so a new build is picked up at once.
 */
export async function portalStatic(app: FastifyInstance, root: string, prefix: string): Promise<void> {
  const assets = `${sep}assets${sep}`;
  await app.register(fastifyStatic, {
    root,
    prefix,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes(assets) ? IMMUTABLE : 'no-cache');
    },
  });
}
