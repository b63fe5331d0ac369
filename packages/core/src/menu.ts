import { P, readPrivilege } from './privileges.ts';

export type MenuGroup = 'operation' | 'management' | 'setting' | 'lms';

/** A lazily loaded screen whose code has not arrived in this long shows the error page (spec part 1 §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * The sidebar of spec part 1 §2, in order: route keys (a resource key for the generic screens).
 * An item shows only once its screen exists (a resource key, or a custom screen of the portal) and
 * with READ_{KEY} (and, for a resource limited to some roles, one of them); empty groups are hidden.
 * service_plans is not in the spec's menu, but an account's service plan needs a plan: its list sits beside them.
 */
/**
 * Screens that are views over other resources, with the privileges their calls need instead of a
 * READ_{KEY} of their own (a box in the role settings that would grant nothing by itself).
 */
export const SCREEN_PRIVILEGES: Record<string, string[]> = {
  'config/fleet': [P.GET_CONFIGURATION, readPrivilege('cp_locs')],
};

export const MENU: { group: MenuGroup; items: string[] }[] = [
  {
    group: 'operation',
    items: [
      'cp_requests', 'cp_sessions', 'cp_sessions_all', 'alert', 'user_log', 'cp_rsr', 'cpRsrPointRedeem', 'cp_rsr_request',
      'cp_rsr_api_log', 'payment_result_detail', 'third_party_error_log', 'portal_action_log',
    ],
  },
  {
    group: 'management',
    items: [
      'cps', 'reservations', 'accounts', 'account_vehicles', 'account_service_plans', 'service_plans', 'cp_locs', 'cp_zones', 'cp_pow', 'auth_card',
      'opening_hour', 'contact', 'contact_group', 'charging_rate', 'bay', 'bay_log', 'voucher', 'campaign', 'price_scheme',
      'firmware', 'firmware_jobs', 'config/fleet',
    ],
  },
  {
    group: 'setting',
    items: ['roles', 'privileges', 'rnp', 'users', 'data_rotation_setup', 'third_party_conf', 'app_config'],
  },
  {
    group: 'lms',
    items: ['lms/dashboard', 'test/cp_request', 'lms/cp_simulator', 'lms_profiles', 'realtime/log'],
  },
];
