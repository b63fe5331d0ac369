import type { ResourceDef } from '../resource.ts';
import { auth_card } from './auth_card.ts';
import { cp_connectors } from './cp_connectors.ts';
import { cp_locs } from './cp_locs.ts';
import { cp_pow } from './cp_pow.ts';
import { cp_requests } from './cp_requests.ts';
import { cp_sessions } from './cp_sessions.ts';
import { cp_sessions_all } from './cp_sessions_all.ts';
import { cp_zones } from './cp_zones.ts';
import { cps } from './cps.ts';
import { kmb_cp_sessions } from './kmb_cp_sessions.ts';
import { lms_profiles } from './lms_profiles.ts';
import { portal_action_log } from './portal_action_log.ts';
import { privileges } from './privileges.ts';
import { roles } from './roles.ts';
import { user_log } from './user_log.ts';
import { user_profile } from './user_profile.ts';
import { users } from './users.ts';

/**
 * Every resource the generic engine serves, by key: one module per key beside this file, each
 * named after its key (resources.test.ts fails when a module is missing here). Add the module
 * and its entry, and the resource is served, validated, labelled and shown.
 */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [auth_card, cp_connectors, cp_locs, cp_pow, cp_requests, cp_sessions, cp_sessions_all, cp_zones, cps, kmb_cp_sessions, lms_profiles, portal_action_log, privileges, roles, user_log, user_profile, users].map((d) => [d.key, d]),
);

export function getResource(key: string): ResourceDef | undefined {
  return Object.hasOwn(RESOURCES, key) ? RESOURCES[key] : undefined;
}
