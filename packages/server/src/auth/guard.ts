import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { AuthUser } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /api route that needs a signed-in user. */
    user?: AuthUser;
  }
}

export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** Throws 403 unless the signed-in user holds every one of the privileges. */
export function requirePrivileges(req: FastifyRequest, ...names: string[]): AuthUser {
  const user = currentUser(req);
  const missing = names.find((n) => !user.privileges.has(n));
  if (missing) throw forbidden(missing);
  return user;
}

export const hasAll = (user: AuthUser, names: readonly string[] | undefined) => !names || names.every((n) => user.privileges.has(n));
