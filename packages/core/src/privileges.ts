/** Privilege names. Resource privileges are READ_/CREATE_/EDIT_ + the key upper-cased (spec part 1 §6). */

/** Every resource key of both spec parts, including menu-only pages, in menu order. */
export const ALL_RESOURCE_KEYS = [
  // part 1
  'users', 'user_profile', 'user_log', 'roles', 'privileges', 'rnp', 'cps', 'cp_locs', 'cp_zones', 'cp_pow',
  'lms_profiles', 'zone_lms_profiles', 'cp_requests', 'cp_sessions', 'cp_sessions_all', 'kmb_cp_sessions',
  'cp_connectors', 'cp_config', 'lms/dashboard', 'test/cp_request', 'lms/cp_simulator', 'realtime/log',
  // part 2
  'accounts', 'account_vehicles', 'account_service_plans', 'service_plans', 'auth_card', 'opening_hour', 'contact',
  'contact_group', 'alert', 'cp_rsr', 'cp_rsr_request', 'cp_rsr_api_log', 'payment_result_detail', 'charging_rate',
  'charging_rate_detail', 'price_scheme', 'campaign', 'campaign_rule', 'voucher', 'bay', 'bay_log',
  'cpRsrPointRedeem', 'third_party_conf', 'third_party_error_log', 'portal_action_log', 'data_rotation_setup',
  'app_config',
  // fleet operations (OCPP 1.6 operations beyond the spec): one line per resource
  'firmware', 'firmware_jobs',
  'reservations',
] as const;

export function privilegeStem(key: string): string {
  return key.replace(/\//g, '_').toUpperCase();
}
export const readPrivilege = (key: string) => `READ_${privilegeStem(key)}`;
export const createPrivilege = (key: string) => `CREATE_${privilegeStem(key)}`;
export const editPrivilege = (key: string) => `EDIT_${privilegeStem(key)}`;

export const P = {
  DELETE: 'READ_DELETE',
  V1_DASHBOARD: 'READ_V1_DASHBOARD',
  V2_DASHBOARD: 'READ_V2_DASHBOARD',
  DASHBOARD_SUMMARY: 'READ_DASHBOARD_SUMMARY',
  CP_TYPE: 'READ_CP_TYPE',
  CP_CONFIG: 'READ_CP_CONFIG',
  /** Changes the settings of Admin authority in a charger configuration (spec part 1 §6: Admin vs Everyone). */
  CP_CONFIG_ADMIN: 'READ_CP_CONFIG_ADMIN',
  /** Changes app_config entries of Admin authority (Everyone entries need EDIT_APP_CONFIG only). */
  APP_CONFIG_ADMIN: 'READ_APP_CONFIG_ADMIN',
  ALERT: 'READ_ALERT',
  CP_CONNECTOR: 'READ_CP_CONNECTOR',
  LMS_PROFILE: 'READ_LMS_PROFILE',
  MASTER_FLAG: 'READ_MASTER_FLAG',
  /** Edit and delete of account_vehicles rows, besides EDIT_ACCOUNT_VEHICLES (spec part 2 §6). */
  ACCOUNT_VEHICLE_ROW_ACTIONS: 'EDIT_ACCOUNT_VEHICLE',
  REMOTE_START_CHARGER: 'READ_REMOTE_START_CHARGER',
  REMOTE_RESET_CHARGER: 'READ_REMOTE_RESET_CHARGER',
  GET_DIAGNOSTICS: 'READ_GET_GIAGNOSTICS',
  CHANGE_AVAILABILITY: 'READ_CHANGE_AVAILABILITY',
  TRIGGER_MESSAGE: 'READ_TRIGGER_MESSAGE',
  /** Clears a charger's authorization cache (OCPP ClearCache). */
  CLEAR_CACHE: 'READ_CLEAR_CACHE',
  /** Reads a charger's own configuration keys (OCPP GetConfiguration); setting one also needs EDIT_CP_CONFIG. */
  GET_CONFIGURATION: 'READ_GET_CONFIGURATION',
  /** Sends and checks a charger's local authorization list (OCPP SendLocalList, GetLocalListVersion). */
  LOCAL_LIST: 'READ_LOCAL_LIST',
  /** Sets, clears and reads a charger's charging profiles by hand (SetChargingProfile, ClearChargingProfile, GetCompositeSchedule). */
  CHARGING_PROFILE: 'READ_CHARGING_PROFILE',
  /** Sets or rotates a charger's Basic-auth password (ChangeConfiguration AuthorizationKey). */
  CHARGER_PASSWORD: 'READ_CHARGER_PASSWORD',
  RETRY_ERROR_PAYMENT: 'READ_RETRY_ERROR_PAYMENT',
  PENALTY_BUTTON: 'READ_PENALTY_BUTTON',
  SETTLED_BUTTON: 'READ_SETTLED_BUTTON',
  /** Closes a running session the charger never stopped, with a reason (POST /api/cp_sessions/{id}/close). */
  CLOSE_SESSION: 'EDIT_CLOSE_SESSION',
  CST_DEBUG: 'cstDebug',
} as const;

/** The "Other" column of role settings (/rnp): named permission → privilege. */
export const OTHER_PERMISSIONS: { name: string; privilege: string }[] = [
  { name: 'delete', privilege: P.DELETE },
  { name: 'remote_start_charger', privilege: P.REMOTE_START_CHARGER },
  { name: 'retry_error_payment', privilege: P.RETRY_ERROR_PAYMENT },
  { name: 'remote_reset_charger', privilege: P.REMOTE_RESET_CHARGER },
  { name: 'penalty_button', privilege: P.PENALTY_BUTTON },
  { name: 'settled_button', privilege: P.SETTLED_BUTTON },
  { name: 'close_session', privilege: P.CLOSE_SESSION },
  { name: 'get_giagnostics', privilege: P.GET_DIAGNOSTICS },
  { name: 'trigger_message', privilege: P.TRIGGER_MESSAGE },
  { name: 'change_availability', privilege: P.CHANGE_AVAILABILITY },
  { name: 'clear_cache', privilege: P.CLEAR_CACHE },
  { name: 'get_configuration', privilege: P.GET_CONFIGURATION },
  { name: 'local_list', privilege: P.LOCAL_LIST },
  { name: 'charging_profile', privilege: P.CHARGING_PROFILE },
  { name: 'charger_password', privilege: P.CHARGER_PASSWORD },
  { name: 'master_flag', privilege: P.MASTER_FLAG },
];

/** Named privileges outside the READ/CREATE/EDIT matrix (dashboards, field gates, debug). */
export const NAMED_PRIVILEGES: string[] = [
  ...new Set([
    ...Object.values(P),
    ...OTHER_PERMISSIONS.map((o) => o.privilege),
  ]),
];

export const SUPER_ADMIN_ROLE = 'super_admin';

/**
 * What a third-party app may call on the external API (/api/external/v1): third_party_conf.privilege_key
 * is one of these, each a set of calls. Apps are not portal users: these are never given to roles.
 */
export const EXTERNAL_PRIVILEGES = ['EXT_CHARGING', 'EXT_LICENCE_PLATE', 'EXT_ALL'] as const;
export type ExternalPrivilege = (typeof EXTERNAL_PRIVILEGES)[number];
export type ExternalAction = 'remote_start' | 'remote_stop' | 'get_lp' | 'parking_event';
export const EXTERNAL_ACTIONS: Record<ExternalPrivilege, readonly ExternalAction[]> = {
  EXT_CHARGING: ['remote_start', 'remote_stop'],
  // The parking system reports cars in and out of bays (parking_event) and reads plates (get_lp).
  EXT_LICENCE_PLATE: ['get_lp', 'parking_event'],
  EXT_ALL: ['remote_start', 'remote_stop', 'get_lp', 'parking_event'],
};
