import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabaseWhenReachable } from '../db/client.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { TcpProxy } from '../testing/tcp-proxy.ts';
import { checkDurability, startChargingLoad, type ChargingLoad } from '../testing/charging-load.ts';
import { addCard, connectCharger, eventually } from '../testing/ocpp-support.ts';

/**
 * The server on PostgreSQL while the database fails under it: backends terminated, the database
 * unreachable for seconds, tables locked. The process must live through all of it, acknowledge
 * only what it stored, answer everything else with CALLERROR InternalError (the API with 503),
 * and carry on by itself. PostgreSQL only: the embedded database cannot fail this way.
 */
const base = process.env.TEST_DATABASE_URL;
const CHARGERS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!base)('database faults (PostgreSQL)', () => {
  let s: TestServer;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let token: string;
  const cpNos = Array.from({ length: CHARGERS }, (_, i) => `FAULT${String(i + 1).padStart(3, '0')}`);

  beforeAll(async () => {
    const target = new URL(base!);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).listen();
    // Short bounds so that the tests see them act within seconds.
    s = await startTestServer(
      { database: { poolSize: 10, statementTimeoutMs: 3000, lockTimeoutMs: 1000, connectTimeoutMs: 1500 } },
      (url) => proxy.via(url),
    );
    const [site] = await s.db.query(`INSERT INTO cp_locs (address) VALUES ('fault site') RETURNING loc_id`);
    await s.db.query(`INSERT INTO cps (cp_no, name, loc_id) SELECT x, x, $2 FROM unnest($1::text[]) x`, [[...cpNos, 'LEAVE001'], site.loc_id]);
    await addCard(s.db, ['FAULTTAG']);
    token = await s.login();
    admin = new pg.Client({ connectionString: s.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await s?.close();
    await proxy?.close();
  });

  /** Runs the fleet through fault(), then checks it recovered and that every acknowledgement holds. */
  async function chargeThrough(fault: (load: ChargingLoad) => Promise<void>) {
    const load = startChargingLoad({ wsUrl: s.wsUrl, cpNos, idTag: 'FAULTTAG' });
    try {
      expect(await load.progressed(3, 30_000)).toBe(true);
      await fault(load);
      // Charging resumes by itself: every charger gets acknowledgements again.
      expect(await load.progressed(3, 30_000)).toBe(true);
    } finally {
      await load.stop();
    }
    const report = await checkDurability({ query: async (text, params) => (await admin.query(text, params)).rows }, load.calls());
    expect(report.unanswered).toEqual([]);
    expect(report.missingRequests).toEqual([]);
    expect(report.missingSessions).toEqual([]);
    expect(report.unappliedStops).toEqual([]);
    // What was not stored was refused as the central system's own failure, never as the charger's.
    expect(Object.keys(report.errorCodes).filter((code) => code !== 'InternalError')).toEqual([]);
    // No session left open: every charger stopped what it started; and none closed for a lost stop
    // (a start stored but answered with an error is found again when the charger sends it again).
    const [open] = await admin.query(`SELECT count(*)::int AS n FROM cp_sessions WHERE session_end_time IS NULL OR stop_note IS NOT NULL`).then((r) => r.rows);
    expect(open.n).toBe(0);
    return report;
  }

  it('survives its PostgreSQL backends being terminated while 100 chargers charge', async () => {
    const report = await chargeThrough(async () => {
      // Many times: a termination can land between the end of one query and a waiting caller getting the connection.
      for (let i = 0; i < 10; i++) {
        const killed = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        expect(killed.rowCount).toBeGreaterThan(0);
        await sleep(300);
      }
    });
    expect(report.acknowledged).toBeGreaterThan(CHARGERS * 6);
  }, 120_000);

  it('rides out a database outage of a few seconds: chargers get InternalError, the API 503, /readyz says not ready', async () => {
    const leaving = await connectCharger(s.wsUrl, cpNos[0].replace('FAULT', 'LEAVE'));
    const report = await chargeThrough(async (load) => {
      const before = load.calls().length;
      proxy.outage(4000);
      await leaving.close(); // its offline flag cannot be written now
      await sleep(1000);
      const ready = await s.api('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not ready');
      expect((await s.api('GET', '/healthz')).status).toBe(200);
      const list = await s.api('GET', '/api/cps?page=0&size=10', { token });
      expect(list.status).toBe(503);
      expect(list.body.errorCode).toBe('database_unavailable');
      await sleep(3500);
      // The outage was felt: messages sent during it were refused, not acknowledged.
      expect(load.calls().slice(before).some((c) => c.outcome === 'callerror')).toBe(true);
    });
    expect(report.refused).toBeGreaterThan(0);
    // The flag the outage kept from being written is repaired without the charger's help.
    expect(await eventually(async () => (await admin.query(`SELECT online_flag FROM cps WHERE cp_no = 'LEAVE001'`)).rows[0].online_flag === 0, 10_000)).toBe(true);
    expect((await s.api('GET', '/readyz')).status).toBe(200);
    expect((await s.api('GET', '/api/cps?page=0&size=10', { token })).status).toBe(200);
  }, 120_000);

  it('waits for a database that cannot be reached yet at start', async () => {
    proxy.outage(3000);
    const waits: string[] = [];
    const db = await openDatabaseWhenReachable(proxy.via(s.databaseUrl), { connectTimeoutMs: 1000 }, 20_000, (err) => waits.push(err.message));
    try {
      expect(waits.length).toBeGreaterThan(0);
      expect(await db.query('SELECT count(*)::int AS n FROM cps')).toEqual([{ n: CHARGERS + 1 }]);
    } finally {
      await db.close();
    }
  });

  it('turns a locked table into errors within seconds instead of a queue that waits for the lock', async () => {
    const locker = new pg.Client({ connectionString: s.databaseUrl });
    await locker.connect();
    try {
      await chargeThrough(async (load) => {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE cp_sessions, cp_requests IN ACCESS EXCLUSIVE MODE');
        const held = Date.now();
        try {
          // Sign-in and the API keep answering while the chargers' tables are locked: they wait for no lock,
          // and a pool busy with waiting charger messages makes them wait at most the connect timeout.
          const login = await s.api('POST', '/api/login', { body: { username: 'admin', password: 'admin-test-password' } });
          expect([200, 503]).toContain(login.status);
          const me = await s.api('POST', '/api/me', { token });
          expect([200, 503]).toContain(me.status);
          expect(Date.now() - held).toBeLessThan(8000);
          await sleep(Math.max(0, 10_000 - (Date.now() - held)));
        } finally {
          await locker.query('ROLLBACK');
        }
        // Messages sent while the lock was held were answered, with a CALLERROR, long before it was released.
        const during = load.calls().filter((c) => c.sentAt > held && c.sentAt < held + 5000);
        expect(during.some((c) => c.outcome === 'callerror' && c.answeredAt! < held + 8000)).toBe(true);
        expect(during.filter((c) => c.answeredAt !== undefined && c.answeredAt - c.sentAt > 6000)).toEqual([]);
      });
    } finally {
      await locker.end();
    }
  }, 120_000);
});
