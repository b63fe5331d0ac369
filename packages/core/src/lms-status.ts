/**
 * The live load-management socket `/api/lms/status` (spec part 1 §7): what the portal sends and
 * what the server pushes. The socket is opened with the portal's token as `?token=`.
 */

/** LMS charger states (spec part 1 §4). */
export type LmsChargerState = 'available' | 'charging' | 'disconnected' | 'queueing';

/** One charger in a status_update, keyed by cp_no in the message (spec part 1 §7). */
export interface LmsCpStatus {
  cp_id: number;
  loc_id: number;
  zone_id: number | null;
  status: LmsChargerState;
  /** The charger's connector status (Charging, Preparing, ... or Offline). */
  cp_status: string;
  /** 1 = next to start; null unless queueing. */
  queueing_pos: number | null;
  /** ISO time the charger started queueing; null unless queueing. */
  start_queueing_at: string | null;
  /** The limit load management gave the charger (A); null unless charging. */
  distributed_current: number | null;
  /** ISO start of the running transaction. */
  start_tran_at: string | null;
  /** Minutes of charging chosen at a remote start, when one was chosen. */
  select_time: number | null;
  /** ISO planned end of the session (start + select_time), when known. */
  expected_end_at: string | null;
  session_id: number | null;
  /** Latest measured values: current (A), meter (Wh of the session), voltage (V). */
  curr_data: { current: number | null; meter: number | null; voltage: number | null };
  /** 1 while the charger has not accepted its limit and is counted at its maximum (safety first). */
  uncontrolled: boolean;
}

/** Per zone totals (A): what the chargers are measured to draw, what is handed out, and the limit. */
export interface LmsZoneStatus {
  zone_id: number;
  loc_id: number;
  measured_current: number;
  distributing_current: number;
  max_available_current: number;
}

export interface LmsStatusUpdate {
  type: 'status_update';
  /** true: the whole picture of the user's sites (answer to all_status_update); false: only what changed. */
  full: boolean;
  cp: Record<string, LmsCpStatus>;
  zones: Record<string, LmsZoneStatus>;
  /** The configured refresh interval (ms) the portal polls all_status_update at (spec §9: used if above 500). */
  interval_ms: number;
}

export interface LmsStopResult {
  type: 'stop_charging_session_result';
  cpNo: string;
  status: 'success' | 'error';
  errorCode?: number;
  message?: string;
}

/** One line of the LMS realtime log (/realtime/log). */
export interface LmsLogEntry {
  id: number;
  at: string;
  loc_id: number;
  cp_id: number | null;
  cp_no: string | null;
  level: 'info' | 'warn';
  /** A stable kind for filtering and translation: allocation, profile_sent, profile_accepted, profile_failed, ... */
  kind: string;
  /** A stored text (i18n/stored-text.ts): the portal shows it in the reader's language. */
  message: string;
}

export interface LmsLogMessage {
  type: 'lms_log';
  entries: LmsLogEntry[];
}

export interface LmsSocketError {
  type: 'error';
  message: string;
}

export type LmsServerMessage = LmsStatusUpdate | LmsStopResult | LmsLogMessage | LmsSocketError;

export type LmsClientMessage =
  | { type: 'all_status_update' }
  | { type: 'stop_charging_session'; cpNo: string }
  /** Starts the realtime log: the recent entries, then each new one. */
  | { type: 'subscribe_log' };
