import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Sql {
  query<T = Record<string, any>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Sql {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));

// int8 (counts, sums) as JS numbers: our counts and ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Opens the database named by url: a postgres:// URL selects a PostgreSQL server, anything
 * else is a PGlite data directory ('memory://' for a throw-away one) — embedded, for trying
 * the portal and for tests.
 */
export async function openDatabase(url: string): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  return openPglite(url);
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
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

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle client losing its connection must not take the process down; the pool replaces it.
  pool.on('error', () => undefined);
  await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS });
  return {
    kind: 'postgres',
    query: async (text, params) => (await pool.query(text, params as any[])).rows,
    tx: async (fn) => {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn({ query: async (text, params) => (await conn.query(text, params as any[])).rows });
        await conn.query('COMMIT');
        return result;
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}
