import type { ResourceHooks } from './types.ts';
import * as cp_connectors from './cp_connectors.ts';
import * as cp_locs from './cp_locs.ts';
import * as cp_zones from './cp_zones.ts';
import * as cps from './cps.ts';
import * as roles from './roles.ts';
import * as user_profile from './user_profile.ts';
import * as users from './users.ts';

/**
 * Hooks by resource key: one module per key beside this file, named after it and exporting
 * `hooks` (hooks.test.ts fails when a module is missing here). A resource without a module is
 * served from its definition alone.
 */
export const RESOURCE_HOOKS: Record<string, ResourceHooks> = Object.fromEntries(
  Object.entries({ cp_connectors, cp_locs, cp_zones, cps, roles, user_profile, users }).map(([key, mod]) => [key, mod.hooks]),
);
