import { createPrivilege, editPrivilege, P, readPrivilege, type ResourceAction, type ResourceDef } from '@ev/core';
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { forbidden, HttpError } from '../http/errors.ts';

export type Access = 'read' | 'create' | 'edit' | 'delete';

const ACTION_FOR: Record<Exclude<Access, 'read'>, ResourceAction[]> = {
  create: ['create'],
  edit: ['edit', 'editview'],
  delete: ['delete'],
};

export function privilegesFor(def: ResourceDef, access: Access): string[] {
  const stem = def.privilegeKey ?? def.key;
  switch (access) {
    case 'read':
      return [readPrivilege(stem)];
    case 'create':
      return [createPrivilege(stem)];
    case 'edit':
      return [editPrivilege(stem), ...(def.rowActionPrivileges ?? [])];
    case 'delete':
      return [P.DELETE, editPrivilege(stem), ...(def.rowActionPrivileges ?? [])];
  }
}

/**
 * The server-side permission check of every engine route (spec part 1 §6): read needs READ_key,
 * create CREATE_key, edit EDIT_key, delete READ_DELETE + EDIT_key. A resource that does not offer
 * the action at all answers 405 whoever asks.
 */
export function requireAccess(req: FastifyRequest, def: ResourceDef, access: Access): AuthUser {
  const user = currentUser(req);
  if (def.roles && !def.roles.includes(user.role)) throw forbidden();
  if (access !== 'read' && (def.readOnly || !ACTION_FOR[access].some((a) => def.actions.includes(a)))) {
    throw new HttpError(405, { message: `${def.key} does not allow ${access}` });
  }
  const missing = privilegesFor(def, access).find((p) => !user.privileges.has(p));
  if (missing) throw forbidden(missing);
  return user;
}
