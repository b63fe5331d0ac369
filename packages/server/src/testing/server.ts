/**
 * Test support, not production code: everything under src/testing/ (this test server, the
 * fresh test database, OCPP fixtures and raw chargers, the charging load, the TCP proxy) is for
 * the tests and benchmarks only. The server's start (main.ts, start.ts, app.ts) never loads it;
 * testing/production-imports.test.ts checks that.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { freshDatabaseUrl } from './database.ts';
import { seed } from '../db/seed.ts';
import { buildApp } from '../app.ts';

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  /** http://127.0.0.1:port */
  baseUrl: string;
  /** ws://127.0.0.1:port */
  wsUrl: string;
  /** The fresh database as reached directly (not through databaseVia). */
  databaseUrl: string;
  /** fetch against the server: JSON body in, parsed body out. */
  api(method: string, path: string, opts?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the real server on a random port over a fresh database (in-memory PGlite, or a new
 * database on TEST_DATABASE_URL), seeded with the admin user. Close it in afterAll.
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  /** Rewrites the fresh database's URL the server connects to (e.g. through a proxy that can cut it). */
  databaseVia: (url: string) => string = (url) => url,
  /** Another node on the database of a server already started (its databaseUrl), which it leaves in place. */
  joinDatabase?: string,
): Promise<TestServer> {
  const fresh = joinDatabase ? { url: joinDatabase, drop: async () => undefined } : await freshDatabaseUrl();
  const config: Config = { ...loadConfig({}), databaseUrl: databaseVia(fresh.url), logLevel: 'silent', portalDir: '/nonexistent', ...overrides };
  const db = await openDatabase(config.databaseUrl, config.database);
  await seed(db, TEST_ADMIN_PASSWORD);
  const app = await buildApp(config, db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const api: TestServer['api'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text (e.g. 'Deleted') */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    app,
    db,
    databaseUrl: fresh.url,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}`,
    api,
    async login(username = 'admin', password = TEST_ADMIN_PASSWORD) {
      const res = await api('POST', '/api/login', { body: { username, password } });
      if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    async close() {
      await app.close();
      await db.close();
      await fresh.drop();
    },
  };
}
