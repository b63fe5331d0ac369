import type { ResourceHooks } from './types.ts';
import * as account_service_plans from './account_service_plans.ts';
import * as account_vehicles from './account_vehicles.ts';
import * as accounts from './accounts.ts';
import * as app_config from './app_config.ts';
import * as auth_card from './auth_card.ts';
import * as bay from './bay.ts';
import * as bay_log from './bay_log.ts';
import * as campaign from './campaign.ts';
import * as campaign_rule from './campaign_rule.ts';
import * as charging_rate from './charging_rate.ts';
import * as charging_rate_detail from './charging_rate_detail.ts';
import * as service_plans from './service_plans.ts';
import * as contact from './contact.ts';
import * as contact_group from './contact_group.ts';
import * as cp_connectors from './cp_connectors.ts';
import * as cp_locs from './cp_locs.ts';
import * as cp_requests from './cp_requests.ts';
import * as cp_rsr from './cp_rsr.ts';
import * as cp_rsr_api_log from './cp_rsr_api_log.ts';
import * as cp_rsr_request from './cp_rsr_request.ts';
import * as cpRsrPointRedeem from './cpRsrPointRedeem.ts';
import * as cp_sessions from './cp_sessions.ts';
import * as cp_sessions_all from './cp_sessions_all.ts';
import * as cp_zones from './cp_zones.ts';
import * as cps from './cps.ts';
import * as firmware from './firmware.ts';
import * as kmb_cp_sessions from './kmb_cp_sessions.ts';
import * as lms_profiles from './lms_profiles.ts';
import * as opening_hour from './opening_hour.ts';
import * as payment_result_detail from './payment_result_detail.ts';
import * as portal_action_log from './portal_action_log.ts';
import * as price_scheme from './price_scheme.ts';
import * as roles from './roles.ts';
import * as third_party_conf from './third_party_conf.ts';
import * as user_profile from './user_profile.ts';
import * as users from './users.ts';
import * as voucher from './voucher.ts';
import * as reservations from './reservations.ts';

/**
 * Hooks by resource key: one module per key beside this file, named after it and exporting
 * `hooks` (hooks.test.ts fails when a module is missing here). A resource without a module is
 * served from its definition alone.
 */
export const RESOURCE_HOOKS: Record<string, ResourceHooks> = Object.fromEntries(
  Object.entries({ accounts, bay, bay_log, account_vehicles, account_service_plans, auth_card, charging_rate, charging_rate_detail, service_plans, contact, contact_group, app_config, cp_connectors, cp_locs, cp_requests, cp_rsr, cp_rsr_api_log, cp_rsr_request, cpRsrPointRedeem, cp_sessions, cp_sessions_all, cp_zones, cps, firmware, kmb_cp_sessions, lms_profiles, opening_hour, payment_result_detail, portal_action_log, price_scheme, roles, third_party_conf, user_profile, users, campaign, campaign_rule, voucher, reservations }).map(([key, mod]) => [key, mod.hooks]),
);
