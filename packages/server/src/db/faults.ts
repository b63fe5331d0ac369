/**
 * Which database errors mean "the database is unreachable, restarting, overloaded or locked"
 * rather than "this statement or its data is wrong". The first kind is nobody's input: the API
 * answers 503, a charger gets CALLERROR InternalError, and the work is not retried row by row.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, or a server shutting down
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting
  '53300', // too_many_connections
  '57014', // query_canceled: our statement_timeout
  '55P03', // lock_not_available: our lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure (after our retries)
  '40P01', // deadlock_detected (after our retries)
]);

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENETUNREACH']);

/** Messages node-postgres gives to errors of its own that carry no code. */
const CLIENT_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|Client was closed|Cannot use a pool after calling end/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && CLIENT_MESSAGES.test(message);
}

/** Conflicts PostgreSQL resolves by aborting one transaction: running it again is correct. */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}
