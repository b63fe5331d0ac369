import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DATABASE_OPTIONS, type DatabaseOptions } from './db/client.ts';
import { DEFAULT_GARBAGE_CLOSES_PER_ADDRESS, DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS } from './ocpp/abusive-addresses.ts';
import { DEFAULT_GARBAGE_READ_PAUSE_MS, DEFAULT_PING_INTERVAL_MS } from './ocpp/connection.ts';
import { parseTrustProxy, type TrustProxy } from './http/client-address.ts';

/** Every setting the server reads, from environment variables (listed in the README). */
export interface Config {
  port: number;
  host: string;
  /** postgres://… for a PostgreSQL server, else a PGlite data directory ('memory://' for none). */
  databaseUrl: string;
  /** Pool size and the bounds on every PostgreSQL call. */
  database: DatabaseOptions;
  adminPassword?: string;
  /** Time zone in which datetimes are shown and date-range filters are read. */
  timeZone: string;
  tokenTtlHours: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  logLevel: string;
  /** Built portal to serve (absent: API only). */
  portalDir: string;
  /** URL path of the portal: the build profile's VITE_BASE_PATH, so one setting serves what was built. */
  portalPath: string;
  /** redis://… turns on the Redis bus: several nodes share chargers, commands, LMS and rate limits (cluster/). */
  redisUrl?: string;
  /** Prefix of every Redis key and channel of this deployment. */
  redisPrefix: string;
  /** Where GetDiagnostics asks chargers to upload their files when the portal names no location. */
  diagnosticsUrl: string;
  /** How often the LMS dashboard asks for the whole picture (ms; spec §9: 5000 when 500 or less). */
  lmsStatusIntervalMs: number;
  /** smtp(s)://user:pass@host:port for alert e-mails; absent: alerts are recorded, nothing is mailed. */
  smtpUrl?: string;
  /** Sender address of alert e-mails. */
  smtpFrom: string;
  /** A charger away this long raises an Offline alert (a quick reconnect does not). */
  alertOfflineGraceMs: number;
  /** The payment gateway RSR fees are charged through; absent: payments are settled by hand (payments/gateway.ts). */
  paymentGateway?: { url: string; key: string; timeoutMs: number };
  /** Origins another web app may call the API from (CORS); none by default: the portal is same-origin. */
  corsOrigins: string[];
  /** Bearer token GET /metrics requires when set; unset: /metrics answers callers on this machine only. */
  metricsToken?: string;
  /**
   * OCPP connections closed for garbage from one address in a minute before the address is refused for a minute
   * (ocpp/abusive-addresses.ts); 0 turns it off.
   */
  ocppGarbageClosesPerAddress: number;
  /** Failed charger sign-ins from one address in a minute before it is refused (429) for a minute; 0 turns it off. */
  ocppSignInFailuresPerAddress: number;
  /** TLS_CERT_FILE, TLS_KEY_FILE: https and wss:// (OCPP security profile 2) on TLS_PORT, beside plain HTTP on PORT. */
  tls?: { certFile: string; keyFile: string; port: number };
  /** ms a charger connection is not read after each malformed message past its first few (OCPP_GARBAGE_READ_PAUSE_MS). */
  ocppGarbageReadPauseMs: number;
  /** ms between the server's WebSocket pings to each charger; one unanswered until the next cuts the socket (OCPP_PING_INTERVAL_MS, 0: never). */
  ocppPingIntervalMs: number;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY); none by default: the TCP peer is the client. */
  trustProxy: TrustProxy;
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** A setting the server cannot run with: it refuses to start and names the variable. */
export class ConfigError extends Error {}

/**
 * A numeric setting: its default when unset or blank, else a number from min to max (a whole one
 * unless fractions are allowed). A typo must stop the start, not become NaN or 0 somewhere later
 * (a NaN timeout fires at once, a pool of NaN connections never connects).
 */
function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER, fractions = false): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (!fractions && !Number.isInteger(n)) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name}=${env[name]} is not a ${fractions ? 'number' : 'whole number'} ${range}`);
  }
  return n;
}

/** Both files or neither: one alone is a half-done setup that must stop the start, not silently serve plain HTTP only. */
function tlsSetting(env: NodeJS.ProcessEnv, port: number): Config['tls'] {
  const certFile = env.TLS_CERT_FILE?.trim();
  const keyFile = env.TLS_KEY_FILE?.trim();
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new ConfigError(`TLS_CERT_FILE and TLS_KEY_FILE go together: ${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is not set`);
  return { certFile, keyFile, port };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const num = (name: string, fallback: number, min: number, max?: number, fractions?: boolean) => numberSetting(env, name, fallback, min, max, fractions);
  return {
    port: num('PORT', 8080, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL ?? resolve(repoRoot, 'data'),
    database: {
      poolSize: num('DATABASE_POOL_SIZE', DEFAULT_DATABASE_OPTIONS.poolSize, 1),
      statementTimeoutMs: num('DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_OPTIONS.statementTimeoutMs, 0),
      lockTimeoutMs: num('DATABASE_LOCK_TIMEOUT_MS', DEFAULT_DATABASE_OPTIONS.lockTimeoutMs, 0),
      connectTimeoutMs: num('DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_OPTIONS.connectTimeoutMs, 0),
    },
    adminPassword: env.ADMIN_PASSWORD || undefined,
    timeZone: env.APP_TIMEZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    tokenTtlHours: num('TOKEN_TTL_HOURS', 12, 0.01, 24 * 366, true),
    bodyLimit: num('BODY_LIMIT', 1024 * 1024, 1024),
    logLevel: env.LOG_LEVEL ?? 'info',
    portalDir: env.PORTAL_DIR ?? resolve(repoRoot, 'packages/web/dist'),
    portalPath: `/${(env.VITE_BASE_PATH ?? '/portal/').replace(/^\/+|\/+$/g, '')}/`.replace('//', '/'),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'ev:',
    diagnosticsUrl: env.DIAGNOSTICS_URL || 'ftp://localhost/diagnostics/',
    lmsStatusIntervalMs: num('LMS_STATUS_INTERVAL_MS', 5000, 100),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || 'EV Charging Alerts <alerts@localhost>',
    alertOfflineGraceMs: num('ALERT_OFFLINE_GRACE_SECONDS', 60, 0, 86_400, true) * 1000,
    paymentGateway: env.PAYMENT_GATEWAY_URL
      ? { url: env.PAYMENT_GATEWAY_URL, key: env.PAYMENT_GATEWAY_KEY ?? '', timeoutMs: num('PAYMENT_GATEWAY_TIMEOUT_MS', 10_000, 1) }
      : undefined,
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    metricsToken: env.METRICS_TOKEN || undefined,
    ocppGarbageClosesPerAddress: num('OCPP_GARBAGE_CLOSES_PER_ADDRESS', DEFAULT_GARBAGE_CLOSES_PER_ADDRESS, 0),
    ocppSignInFailuresPerAddress: num('OCPP_SIGN_IN_FAILURES_PER_ADDRESS', DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS, 0),
    tls: tlsSetting(env, num('TLS_PORT', 8443, 0, 65535)),
    ocppGarbageReadPauseMs: num('OCPP_GARBAGE_READ_PAUSE_MS', DEFAULT_GARBAGE_READ_PAUSE_MS, 0, 60_000),
    ocppPingIntervalMs: num('OCPP_PING_INTERVAL_MS', DEFAULT_PING_INTERVAL_MS, 0, 3_600_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
