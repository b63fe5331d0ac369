import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { isDatabaseUnavailable, isRetryableConflict } from './faults.ts';

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Sql {
  /**
   * `name` makes it a prepared statement on PostgreSQL: parsed and planned once per connection,
   * for a statement run very often (the OCPP group commit). One name, one text. PGlite ignores it.
   */
  query<T = Record<string, any>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
}

export interface Database extends Sql {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Told about connections lost outside any query (idle in the pool); the pool replaces them. */
  onConnectionLost?: (err: Error) => void;
  /** A connection of its own for a long read in many batches (a large export); PostgreSQL only. Close it after. */
  reader?(): Promise<Sql & { close(): Promise<void> }>;
}

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));

// int8 (counts, sums) as JS numbers: our counts and ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** Bounds on PostgreSQL calls (PGlite runs in-process and has nothing to wait for). */
export interface DatabaseOptions {
  poolSize: number;
  /** Longest a statement may run on the server before it is cancelled. */
  statementTimeoutMs: number;
  /** Longest a statement may wait for a lock (a table locked by someone else). */
  lockTimeoutMs: number;
  /** Longest a caller waits to connect or for a free connection of the pool. */
  connectTimeoutMs: number;
}

export const DEFAULT_DATABASE_OPTIONS: DatabaseOptions = { poolSize: 10, statementTimeoutMs: 5000, lockTimeoutMs: 2000, connectTimeoutMs: 3000 };

/** A transaction PostgreSQL aborted for a conflict (serialization, deadlock) runs again, this many times at most. */
const TX_ATTEMPTS = 3;

/**
 * Opens the database named by url: a postgres:// URL selects a PostgreSQL server, anything
 * else is a PGlite data directory ('memory://' for a throw-away one) — embedded, for trying
 * the portal and for tests.
 */
export async function openDatabase(url: string, options: Partial<DatabaseOptions> = {}): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, { ...DEFAULT_DATABASE_OPTIONS, ...options });
  return openPglite(url);
}

/**
 * openDatabase, waiting while PostgreSQL cannot be reached yet (the server and the database
 * started together at boot, or a restart of both): tries again every 2 s for up to waitMs.
 */
export async function openDatabaseWhenReachable(
  url: string,
  options: Partial<DatabaseOptions>,
  waitMs: number,
  onWait: (err: Error) => void,
): Promise<Database> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await openDatabase(url, options);
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() >= until) throw err;
      onWait(err as Error);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  // Loaded only here: the embedded database's module weighs some 40 MB of RSS a PostgreSQL server never needs.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
  const run = async (q: { query: PGlite['query'] }, text: string, params?: unknown[]) =>
    (await q.query<any>(text, params as any[])).rows;
  return {
    kind: 'pglite',
    query: (text, params) => run(client, text, params),
    tx: (fn) => client.transaction((t) => fn({ query: (text, params) => run(t, text, params) })),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  // Migrations on a connection of their own, without the timeouts: a migration may rewrite a big table.
  const migrator = new pg.Client({ connectionString: url, connectionTimeoutMillis: opts.connectTimeoutMs });
  await migrator.connect();
  try {
    // Several nodes starting together: one migrates, the others wait and then find nothing to do.
    // (The lock goes with the connection; the key is arbitrary but fixed.)
    await migrator.query('SELECT pg_advisory_lock(8061906)');
    await migratePg(drizzlePg(migrator), { migrationsFolder: MIGRATIONS });
  } finally {
    await migrator.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    statement_timeout: opts.statementTimeoutMs,
    lock_timeout: opts.lockTimeoutMs,
    // A transaction left open by a client that hangs must not hold its locks for long.
    idle_in_transaction_session_timeout: opts.statementTimeoutMs * 2,
    // A server gone without a word (no RST) is noticed on the client side too.
    query_timeout: opts.statementTimeoutMs + opts.connectTimeoutMs,
    keepAlive: true,
  });

  // Every client gets its own 'error' listener the moment it exists. One attached after
  // pool.connect() resolves comes too late when a single socket read holds both the end of the
  // previous query (which hands the client to the next waiter) and the FATAL of a terminated
  // backend: the event fires in between, with no listener, and ends the process.
  const lost = new WeakMap<pg.PoolClient | pg.Client, Error>();
  pool.on('connect', (client) =>
    client.on('error', (err) => {
      lost.set(client, err);
      db.onConnectionLost?.(err);
    }),
  );
  // pg-pool re-emits an idle client's error on the pool; the listener above has told already.
  pool.on('error', () => undefined);

  const transaction = async <T>(fn: (sql: Sql) => Promise<T>): Promise<T> => {
    const conn = await pool.connect();
    let rollbackFailed: Error | undefined;
    try {
      await conn.query('BEGIN');
      const result = await fn({ query: async (text, params, name) => (await conn.query({ text, values: params, name })).rows });
      await conn.query('COMMIT');
      return result;
    } catch (err) {
      if (!lost.has(conn)) await conn.query('ROLLBACK').catch((e: Error) => (rollbackFailed = e));
      throw err;
    } finally {
      // A client whose connection broke is released as such: the pool drops it and opens another.
      conn.release(lost.get(conn) ?? rollbackFailed);
    }
  };

  /**
   * node-postgres' query_timeout, like its promise API, sets a query's callback after creating it, and
   * V8 then promotes about every row read to the old generation (35 % of a batch read's bytes instead
   * of 2 %): a million-row export peaked some 90 MB higher (bench/export-large.ts). The reader's
   * queries are given their callback at once, on a client without query_timeout, and time out by a
   * timer of their own.
   */
  const reader = async () => {
    const client = new pg.Client({
      connectionString: url, connectionTimeoutMillis: opts.connectTimeoutMs, statement_timeout: opts.statementTimeoutMs,
      lock_timeout: opts.lockTimeoutMs, keepAlive: true,
    });
    client.on('error', () => undefined); // the query under way fails with it
    await client.connect();
    const query = <T>(text: string, params?: unknown[]) => new Promise<T[]>((ok, no) => {
      const timer = setTimeout(() => {
        no(new Error('Query read timeout'));
        client.connection.stream.destroy();
      }, opts.statementTimeoutMs + opts.connectTimeoutMs);
      client.query(text, params ?? [], (err: Error | null, res: pg.QueryResult) => {
        clearTimeout(timer);
        if (err) no(err);
        else ok(res.rows as T[]);
      });
    });
    return { query, close: () => client.end().catch(() => undefined) };
  };

  const db: Database = {
    kind: 'postgres',
    reader,
    query: async (text, params, name) => (await pool.query({ text, values: params, name })).rows,
    tx: async (fn) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await transaction(fn);
        } catch (err) {
          if (attempt >= TX_ATTEMPTS || !isRetryableConflict(err)) throw err;
        }
      }
    },
    close: () => pool.end(),
  };
  return db;
}
