/**
 * The privileges the system knows, one per thing it grants: a resource's READ/CREATE/EDIT under its
 * privilege stem (a read-only log has no CREATE or EDIT; cp_connectors reads as READ_CP_CONNECTOR, the
 * spec's name), the pages' and the named ones. The role settings show a box for each, so a name that
 * grants nothing would be a box that does nothing.
 */
import { ALL_RESOURCE_KEYS, createPrivilege, editPrivilege, NAMED_PRIVILEGES, readPrivilege } from './privileges.ts';
import { getResource } from './resources/index.ts';

function resourcePrivileges(key: string): string[] {
  const def = getResource(key);
  if (!def) return [readPrivilege(key), createPrivilege(key), editPrivilege(key)];
  // Read as another resource (one's own profile is the users resource): that one's names serve.
  if (def.privilegeKey && ALL_RESOURCE_KEYS.includes(def.privilegeKey as (typeof ALL_RESOURCE_KEYS)[number])) return [];
  const stem = def.privilegeKey ?? def.key;
  return def.readOnly ? [readPrivilege(stem)] : [readPrivilege(stem), createPrivilege(stem), editPrivilege(stem)];
}

/** Every privilege name the system knows; seeded at every start. */
export function allPrivilegeNames(): string[] {
  return [...new Set([...ALL_RESOURCE_KEYS.flatMap(resourcePrivileges), ...NAMED_PRIVILEGES])];
}

/**
 * Names earlier versions seeded that grant nothing (READ_CP_CONNECTORS beside READ_CP_CONNECTOR, CREATE_ and
 * EDIT_ of read-only logs): removed at start, with the roles' grants of them.
 */
export function retiredPrivilegeNames(): string[] {
  const known = new Set(allPrivilegeNames());
  const former = ALL_RESOURCE_KEYS.flatMap((key) => [readPrivilege(key), createPrivilege(key), editPrivilege(key)]);
  return former.filter((name) => !known.has(name));
}
