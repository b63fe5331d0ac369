/** Numeric business error codes of spec part 1 §8 / part 2 §8, plus our own for the charger link. */
export const ERROR_CODES = {
  CP_NOT_FOUND: 10001,
  CP_ACTIVATION: 10002,
  INVALID_DURATION: 10003,
  MOBILE_LAST4: 10004,
  RSR_NOT_FOUND: 10007,
  CONNECTOR_ERROR: 10008,
  CONNECTOR_ERROR_2: 10009,
  CHARGING_DATA: 10011,
  RSR_INVALID: 10013,
  MEMBER_INVALID: 10014,
  PLUG_NOT_READY: 10015,
  CONNECTOR_STATUS: 10016,
  CABLE_NOT_CONNECTED: 10017,
  MAX_SESSION: 10018,
  RATE_MISSING: 10019,
  ONE_CONNECTOR_AT_A_TIME: 10022,
  /** Ours: the charger is not connected to the central system. */
  CP_OFFLINE: 10030,
  /** Ours: the charger did not answer in time. */
  CP_TIMEOUT: 10031,
  /** Ours: the charger answered Rejected / NotSupported / a CALLERROR. */
  CP_REJECTED: 10032,
  /** Ours: the server node holding the charger's connection cannot be reached (several nodes: it is frozen, or Redis is down). */
  CP_NODE_UNREACHABLE: 10033,
  /** Ours: the charger's boot was rejected (no command goes to it), or is pending (no remote start or stop yet). */
  CP_NOT_ACCEPTED: 10034,
  /** Ours: a remote start outside the charger's opening hours. */
  OUTSIDE_OPENING_HOURS: 10040,
  /** Ours: no running transaction on that connector. */
  NO_TRANSACTION: 30002,
  SESSIONS_MISMATCH: 21001,
  REDEEM_TIME: 21002,
  MEMBER_ID: 21004,
  FAILED: 21005,
  ENTRY_TIME: 30001,
  LICENSE_PLATE: 30003,
  PAYMENT_NOT_FOUND: 40001,
  PAYMENT_SETTLED: 40002,
  PAYMENT_RETRIED: 40003,
  INVALID_RECORD: 40004,
  PAYMENT_RECORD_INVALID: 40005,
  BAY_OCCUPIED: 40006,
  DELETE_ALL_TRANSACTIONS: 9001,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Codes of a command that did not get through to the charger (or got no answer): worth sending again later. */
export const UNREACHED_ERROR_CODES: readonly number[] = [ERROR_CODES.CP_OFFLINE, ERROR_CODES.CP_TIMEOUT, ERROR_CODES.CP_NODE_UNREACHABLE];

/** A business outcome: HTTP 200 with status success or error (DESIGN: API contract). */
export interface ActionResult {
  status: 'success' | 'error';
  errorCode?: number;
  message?: string;
  data?: unknown;
}

/** HTTP 400 body: what was wrong, overall and per field (values are i18n message keys). */
export interface ValidationErrorBody {
  errors: string[];
  fields: Record<string, string>;
}
