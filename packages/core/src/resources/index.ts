import type { ResourceDef } from '../resource.ts';
import { portal_action_log } from './audit.ts';
import { cps } from './cps.ts';
import { auth_card, cp_connectors, cp_requests, cp_sessions, cp_sessions_all, kmb_cp_sessions } from './ocpp.ts';
import { privileges, roles } from './roles.ts';
import { cp_locs, cp_pow, cp_zones } from './sites.ts';
import { user_log } from './user-log.ts';
import { user_profile, users } from './users.ts';

/** Every resource the generic engine serves, by key. Add a resource here and it is served and shown. */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [users, user_profile, user_log, roles, privileges, cp_locs, cp_zones, cp_pow, cps, portal_action_log,
    cp_requests, cp_sessions, cp_sessions_all, kmb_cp_sessions, cp_connectors, auth_card].map((d) => [d.key, d]),
);

export function getResource(key: string): ResourceDef | undefined {
  return Object.hasOwn(RESOURCES, key) ? RESOURCES[key] : undefined;
}
