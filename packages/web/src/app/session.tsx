import { createContext, useContext, useMemo } from 'react';
import {
  createPrivilege, editPrivilege, P, readPrivilege, type MeResponse, type ResourceDef,
} from '@ev/core';

export const MeContext = createContext<MeResponse | null>(null);

/** The signed-in user; only used below the auth guard, which provides it. */
export function useMe(): MeResponse {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in layout');
  return me;
}

export type Permissions = ReturnType<typeof permissionsOf>;

/** Spec part 1 §6: READ_/CREATE_/EDIT_{KEY}; delete needs READ_DELETE plus EDIT_{KEY}. */
export function permissionsOf(me: MeResponse) {
  const held = new Set(me.privileges);
  const has = (privilege: string) => held.has(privilege);
  const hasAll = (privileges?: string[]) => !privileges || privileges.every(has);
  const inRoles = (roles?: string[]) => !roles || roles.includes(me.role) || me.roles.some((r) => roles.includes(r));
  const stem = (def: ResourceDef) => def.privilegeKey ?? def.key;
  const canEdit = (def: ResourceDef) =>
    !def.readOnly && (def.actions.includes('edit') || def.actions.includes('editview')) && has(editPrivilege(stem(def))) &&
    hasAll(def.rowActionPrivileges);
  return {
    has,
    hasAll,
    canRead: (def: ResourceDef) => has(readPrivilege(stem(def))) && inRoles(def.roles),
    canCreate: (def: ResourceDef) => !def.readOnly && def.actions.includes('create') && has(createPrivilege(stem(def))),
    canEdit,
    canDelete: (def: ResourceDef) =>
      !def.readOnly && def.actions.includes('delete') && has(P.DELETE) && has(editPrivilege(stem(def))) && hasAll(def.rowActionPrivileges),
  };
}

export function usePermissions(): Permissions {
  const me = useMe();
  return useMemo(() => permissionsOf(me), [me]);
}
