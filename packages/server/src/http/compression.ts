import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';

/**
 * Compresses answers of 1 KB or more with brotli or gzip, as the client accepts (call it before the
 * routes: it attaches to each route as it is registered). Only compressible types (JSON, text,
 * scripts…): xlsx, PDF and images pass as they are, and so would text/event-stream, which must flush.
 * Compressed request bodies are not accepted (nobody sends them; one input path fewer).
 */
export async function compression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
}
