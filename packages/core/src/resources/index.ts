import type { ResourceDef } from '../resource.ts';
import { app_config } from './app_config.ts';
import { alert } from './alert.ts';
import { account_service_plans } from './account_service_plans.ts';
import { account_vehicles } from './account_vehicles.ts';
import { accounts } from './accounts.ts';
import { auth_card } from './auth_card.ts';
import { bay } from './bay.ts';
import { bay_log } from './bay_log.ts';
import { charging_rate } from './charging_rate.ts';
import { charging_rate_detail } from './charging_rate_detail.ts';
import { service_plans } from './service_plans.ts';
import { contact } from './contact.ts';
import { contact_group } from './contact_group.ts';
import { campaign } from './campaign.ts';
import { campaign_rule } from './campaign_rule.ts';
import { cp_connectors } from './cp_connectors.ts';
import { cp_locs } from './cp_locs.ts';
import { cp_pow } from './cp_pow.ts';
import { cp_requests } from './cp_requests.ts';
import { cp_rsr } from './cp_rsr.ts';
import { cp_rsr_api_log } from './cp_rsr_api_log.ts';
import { cp_rsr_request } from './cp_rsr_request.ts';
import { cpRsrPointRedeem } from './cpRsrPointRedeem.ts';
import { cp_sessions } from './cp_sessions.ts';
import { cp_sessions_all } from './cp_sessions_all.ts';
import { cp_zones } from './cp_zones.ts';
import { data_rotation_setup } from './data_rotation_setup.ts';
import { cps } from './cps.ts';
import { firmware } from './firmware.ts';
import { firmware_jobs } from './firmware_jobs.ts';
import { kmb_cp_sessions } from './kmb_cp_sessions.ts';
import { lms_profiles } from './lms_profiles.ts';
import { opening_hour } from './opening_hour.ts';
import { portal_action_log } from './portal_action_log.ts';
import { payment_result_detail } from './payment_result_detail.ts';
import { price_scheme } from './price_scheme.ts';
import { privileges } from './privileges.ts';
import { roles } from './roles.ts';
import { third_party_conf } from './third_party_conf.ts';
import { third_party_error_log } from './third_party_error_log.ts';
import { user_log } from './user_log.ts';
import { user_profile } from './user_profile.ts';
import { users } from './users.ts';
import { voucher } from './voucher.ts';
import { reservations } from './reservations.ts';
export { OPEN_RESERVATION_STATUSES, RESERVATION_STATUSES, type ReservationStatus } from './reservations.ts';

/**
 * Every resource the generic engine serves, by key: one module per key beside this file, each
 * named after its key (resources.test.ts fails when a module is missing here). Add the module
 * and its entry, and the resource is served, validated, labelled and shown.
 */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [accounts, account_vehicles, bay, bay_log, account_service_plans, service_plans, app_config, data_rotation_setup, alert, auth_card, charging_rate, charging_rate_detail, contact, contact_group, cp_connectors, cp_locs, cp_pow, cp_requests, cp_rsr, cp_rsr_api_log, cp_rsr_request, cpRsrPointRedeem, cp_sessions, cp_sessions_all, cp_zones, cps, firmware, firmware_jobs, kmb_cp_sessions, lms_profiles, opening_hour, portal_action_log, payment_result_detail, price_scheme, privileges, roles, third_party_conf, third_party_error_log, user_log, user_profile, users, campaign, campaign_rule, voucher, reservations].map((d) => [d.key, d]),
);

export { FIRMWARE_FAILED_STATES, FIRMWARE_JOB_STATES, FIRMWARE_JOB_STATUSES, FIRMWARE_TARGET_KINDS, type FirmwareJobState, type FirmwareJobStatus, type FirmwareTargetKind } from './firmware_jobs.ts';
export { FIRMWARE_URL_PATTERN } from './firmware.ts';

export function getResource(key: string): ResourceDef | undefined {
  return Object.hasOwn(RESOURCES, key) ? RESOURCES[key] : undefined;
}
