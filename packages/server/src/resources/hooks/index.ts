import type { ResourceHooks } from './types.ts';
import { rolesHooks } from './roles.ts';
import { cpLocsHooks, cpsHooks, cpZonesHooks } from './sites.ts';
import { usersHooks } from './users.ts';

/** Hooks by resource key; a resource without an entry is served from its definition alone. */
export const RESOURCE_HOOKS: Record<string, ResourceHooks> = {
  users: usersHooks,
  user_profile: usersHooks,
  roles: rolesHooks,
  cp_locs: cpLocsHooks,
  cp_zones: cpZonesHooks,
  cps: cpsHooks,
};
