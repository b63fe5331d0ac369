import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getResource } from '@ev/core';
import { currentUser } from '../../auth/guard.ts';
import { editBodySchema, recordSchema } from '../api-doc.ts';
import { getRecord, updateRecord } from '../engine.ts';

/** /user/profile: every signed-in user reads and edits their own record (name, email, password), no privilege needed. */
export function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const def = getResource('user_profile')!;
  const profile = recordSchema(def, true);
  app.get('/api/user_profile', { schema: { response: { 200: profile } }, config: { doc: { summary: 'The signed-in user\'s own profile', privileges: [] } } }, async (req) => {
    const user = currentUser(req);
    return getRecord(app.db, def, user.id, user, app.config.timeZone);
  });
  app.put('/api/user_profile', {
    schema: { body: editBodySchema(def), response: { 200: z.object({ status: z.literal('success'), data: profile }) } },
    config: { doc: { summary: 'Change the signed-in user\'s own profile or password', privileges: [] } },
  }, async (req) => {
    const user = currentUser(req);
    return { status: 'success' as const, data: await updateRecord(app.db, def, user.id, req.body, user, app.config.timeZone) };
  });
}
