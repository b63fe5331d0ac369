import type { FastifyInstance } from 'fastify';
import { getResource } from '@ev/core';
import { currentUser } from '../../auth/guard.ts';
import { getRecord, updateRecord } from '../engine.ts';

/** /user/profile: every signed-in user reads and edits their own record (name, email, password), no privilege needed. */
export function profileRoutes(app: FastifyInstance) {
  const def = getResource('user_profile')!;
  app.get('/api/user_profile', { config: { doc: { summary: 'The signed-in user\'s own profile', privileges: [] } } }, async (req) => {
    const user = currentUser(req);
    return getRecord(app.db, def, user.id, user, app.config.timeZone);
  });
  app.put('/api/user_profile', { config: { doc: { summary: 'Change the signed-in user\'s own profile or password', privileges: [] } } }, async (req) => {
    const user = currentUser(req);
    return { status: 'success', data: await updateRecord(app.db, def, user.id, req.body, user, app.config.timeZone) };
  });
}
