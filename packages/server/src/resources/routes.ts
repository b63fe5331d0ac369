import type { FastifyInstance } from 'fastify';

export function resourceRoutes(_app: FastifyInstance) {}
