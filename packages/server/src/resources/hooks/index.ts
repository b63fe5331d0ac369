import type { ResourceHooks } from './types.ts';
import * as cp_connectors from './cp_connectors.ts';
import * as cp_locs from './cp_locs.ts';
import * as cp_requests from './cp_requests.ts';
import * as cp_sessions from './cp_sessions.ts';
import * as cp_sessions_all from './cp_sessions_all.ts';
import * as cp_zones from './cp_zones.ts';
import * as cps from './cps.ts';
import * as kmb_cp_sessions from './kmb_cp_sessions.ts';
import * as lms_profiles from './lms_profiles.ts';
import * as roles from './roles.ts';
import * as user_profile from './user_profile.ts';
import * as users from './users.ts';

/**
 * Hooks by resource key: one module per key beside this file, named after it and exporting
 * `hooks` (hooks.test.ts fails when a module is missing here). A resource without a module is
 * served from its definition alone.
 */
export const RESOURCE_HOOKS: Record<string, ResourceHooks> = Object.fromEntries(
  Object.entries({ cp_connectors, cp_locs, cp_requests, cp_sessions, cp_sessions_all, cp_zones, cps, kmb_cp_sessions, lms_profiles, roles, user_profile, users }).map(([key, mod]) => [key, mod.hooks]),
);
