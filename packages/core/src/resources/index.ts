import type { ResourceDef } from '../resource.ts';
import { app_config } from './app_config.ts';
import { alert } from './alert.ts';
import { account_service_plans } from './account_service_plans.ts';
import { account_vehicles } from './account_vehicles.ts';
import { accounts } from './accounts.ts';
import { auth_card } from './auth_card.ts';
import { service_plans } from './service_plans.ts';
import { contact } from './contact.ts';
import { contact_group } from './contact_group.ts';
import { cp_connectors } from './cp_connectors.ts';
import { cp_locs } from './cp_locs.ts';
import { cp_pow } from './cp_pow.ts';
import { cp_requests } from './cp_requests.ts';
import { cp_sessions } from './cp_sessions.ts';
import { cp_sessions_all } from './cp_sessions_all.ts';
import { cp_zones } from './cp_zones.ts';
import { data_rotation_setup } from './data_rotation_setup.ts';
import { cps } from './cps.ts';
import { kmb_cp_sessions } from './kmb_cp_sessions.ts';
import { lms_profiles } from './lms_profiles.ts';
import { opening_hour } from './opening_hour.ts';
import { portal_action_log } from './portal_action_log.ts';
import { price_scheme } from './price_scheme.ts';
import { privileges } from './privileges.ts';
import { roles } from './roles.ts';
import { third_party_conf } from './third_party_conf.ts';
import { third_party_error_log } from './third_party_error_log.ts';
import { user_log } from './user_log.ts';
import { user_profile } from './user_profile.ts';
import { users } from './users.ts';

/**
 * Every resource the generic engine serves, by key: one module per key beside this file, each
 * named after its key (resources.test.ts fails when a module is missing here). Add the module
 * and its entry, and the resource is served, validated, labelled and shown.
 */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [accounts, account_vehicles, account_service_plans, service_plans, app_config, data_rotation_setup, alert, auth_card, contact, contact_group, cp_connectors, cp_locs, cp_pow, cp_requests, cp_sessions, cp_sessions_all, cp_zones, cps, kmb_cp_sessions, lms_profiles, opening_hour, portal_action_log, price_scheme, privileges, roles, third_party_conf, third_party_error_log, user_log, user_profile, users].map((d) => [d.key, d]),
);

export function getResource(key: string): ResourceDef | undefined {
  return Object.hasOwn(RESOURCES, key) ? RESOURCES[key] : undefined;
}
