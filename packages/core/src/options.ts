import { REQUEST_TYPE_OPTIONS, STOP_REASONS } from './ocpp.ts';

/** Option lists that are fixed in code; lists read from the database are served by the server under the same API. */
export interface OptionItem {
  label: string;
  value: string | number;
}

export const CONNECTOR_STATUSES = [
  'Available', 'Preparing', 'Charging', 'SuspendedEVSE', 'SuspendedEV', 'Finishing', 'Reserved', 'Unavailable', 'Faulted', 'Offline', 'N/A',
] as const;
export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

/** Statuses in which a connector counts as charging for the remote-action buttons (part 1 §4). */
export const CHARGING_STATUSES: readonly string[] = ['Charging', 'SuspendedEVSE', 'SuspendedEV'];

export const HOME_SCREENS = ['LMS', 'Dashboard', 'CpList'] as const;
export type HomeScreen = (typeof HOME_SCREENS)[number];

export const USER_LOG_TYPES = ['LOGIN', 'LOGIN_FAILED', 'LOGOUT'] as const;
export const PORTAL_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'COMMAND'] as const;

const plain = (values: readonly string[]): OptionItem[] => values.map((v) => ({ label: v, value: v }));

export const STATIC_OPTIONS: Record<string, OptionItem[]> = {
  connector_status: plain(CONNECTOR_STATUSES),
  home_screen: plain(HOME_SCREENS),
  user_log_type: plain(USER_LOG_TYPES),
  portal_action: plain(PORTAL_ACTIONS),
  reset_type: plain(['Hard', 'Soft']),
  availability_type: plain(['Operative', 'Inoperative']),
  request_types: REQUEST_TYPE_OPTIONS,
  stop_reason: plain(STOP_REASONS),
};
