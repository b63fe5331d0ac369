import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabaseWhenReachable, type Database } from './db/client.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { buildApp } from './app.ts';
import { closeTls, listenTls } from './charger-credentials/tls.ts';

export interface RunningServer {
  config: Config;
  db: Database;
  app: FastifyInstance;
  seeded: SeedResult;
  portalUrl: string;
  /** Work to finish before the server closes on SIGINT / SIGTERM (stop simulated chargers, timers). */
  onStop(fn: () => Promise<void> | void): void;
}

/** The longest a SIGINT / SIGTERM shutdown may take before the process exits regardless. */
const SHUTDOWN_LIMIT_MS = 15_000;
/** How long a starting server waits for PostgreSQL before it gives up. */
const STARTUP_WAIT_MS = 60_000;

/** The settings, or, for a mistyped one, a single line naming it and exit code 1 (not a stack trace). */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Not started: ${err.message}`);
    process.exit(1);
  }
}

/**
 * Starts the server as configured by the environment: opens and migrates the database, seeds it,
 * lets `prepare` add data, listens, and closes everything cleanly on SIGINT or SIGTERM.
 */
export async function startServer(prepare?: (db: Database) => Promise<void>): Promise<RunningServer> {
  const config = configOrExit();
  const db = await openDatabaseWhenReachable(config.databaseUrl, config.database, STARTUP_WAIT_MS, (err) =>
    console.error(`Database not reachable yet (${err.message}); trying again in 2 s`),
  );
  const seeded = await seed(db, config.adminPassword);
  await prepare?.(db);
  const app = await buildApp(config, db);
  // A reconnect storm of thousands of chargers overflows Node's default backlog of 511: dropped
  // handshakes then wait for TCP retransmits (1 s, 3 s, …) while the server idles (bench/README.md).
  await app.listen({ port: config.port, host: config.host, backlog: 4096 });
  const stopHooks: (() => Promise<void> | void)[] = [];
  // TLS_CERT_FILE / TLS_KEY_FILE: https and wss:// on TLS_PORT too (OCPP security profile 2).
  if (config.tls) {
    const tls = await listenTls(app, config.tls, config.host);
    stopHooks.push(() => closeTls(tls));
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      // Stop accepting, close charger sockets with 1012, drain the batch writer; but never hang on a stuck peer.
      setTimeout(() => {
        console.error(`Shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s: exiting anyway`);
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS).unref();
      for (const fn of stopHooks) await fn();
      await app.close();
      await db.close();
      process.exit(0);
    });
  }
  return {
    config,
    db,
    app,
    seeded,
    portalUrl: `http://localhost:${config.port}${config.portalPath}`,
    onStop: (fn) => stopHooks.push(fn),
  };
}
