import type { MenuGroup } from './resource.ts';
import { SUPER_ADMIN_ROLE } from './privileges.ts';

export interface MenuItem {
  /** Route under the portal (also the resource key for generic lists). */
  key: string;
  /** Shown without checking READ_{KEY}. */
  skipPermission?: boolean;
  /** Only users of these roles see it. */
  roles?: string[];
}

/** The sidebar of spec part 1 §2, in order. An item shows only with READ_{KEY}; empty groups are hidden. */
export const MENU: { group: MenuGroup; items: MenuItem[] }[] = [
  {
    group: 'operation',
    items: [
      'cp_requests', 'cp_sessions', 'cp_sessions_all', 'alert', 'user_log', 'cp_rsr', 'cpRsrPointRedeem', 'cp_rsr_request',
      'cp_rsr_api_log', 'payment_result_detail', 'third_party_error_log', 'portal_action_log',
    ].map((key) => ({ key })),
  },
  {
    group: 'management',
    items: [
      'cps', 'accounts', 'account_vehicles', 'account_service_plans', 'cp_locs', 'cp_zones', 'cp_pow', 'auth_card',
      'opening_hour', 'contact', 'contact_group', 'charging_rate', 'bay', 'bay_log', 'voucher', 'campaign', 'price_scheme',
    ].map((key) => ({ key })),
  },
  {
    group: 'setting',
    items: [
      { key: 'roles' },
      { key: 'privileges', roles: [SUPER_ADMIN_ROLE] },
      { key: 'rnp' },
      { key: 'users' },
      { key: 'data_rotation_setup' },
      { key: 'third_party_conf' },
      { key: 'app_config' },
    ],
  },
  {
    group: 'lms',
    items: ['lms/dashboard', 'test/cp_request', 'lms/cp_simulator', 'lms_profiles', 'realtime/log'].map((key) => ({ key })),
  },
];
