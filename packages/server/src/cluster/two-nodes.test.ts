import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { openDatabase, type Database } from '../db/client.ts';
import { freshDatabaseUrl } from '../testing/database.ts';
import { addLmsSite } from '../testing/lms.ts';
import { addCard, BOOT, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { freePort, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { testRedis, testRedisUrl as redisUrl } from '../testing/redis.ts';

/**
 * Two server processes on one PostgreSQL database and one Redis (CI has both; skipped without
 * TEST_DATABASE_URL and TEST_REDIS_URL). A charger on node A; remote start, a load-management
 * change and remote stop through node B's API; node A killed with SIGKILL mid-session; the
 * charger reconnects to B and its session goes on: nothing acknowledged is lost.
 */
const enabled = Boolean(redisUrl && process.env.TEST_DATABASE_URL);
const PASSWORD = 'two-nodes-admin-password';

describe.skipIf(!enabled)('two server processes, one killed', () => {
  const { prefix, cleanUp } = testRedis();
  let fresh: { url: string; drop: () => Promise<void> };
  let db: Database;
  const nodes: { port: number; proc?: ServerProcess }[] = [];
  const chargers: RPCClient[] = [];

  const start = async (i: number) => {
    nodes[i].proc = await startServerProcess({
      databaseUrl: fresh.url, port: nodes[i].port, adminPassword: PASSWORD, env: { REDIS_URL: redisUrl!, REDIS_PREFIX: prefix },
    });
  };

  beforeAll(async () => {
    fresh = await freshDatabaseUrl();
    db = await openDatabase(fresh.url);
    for (let i = 0; i < 2; i++) nodes.push({ port: await freePort() });
    await Promise.all([start(0), start(1)]);
  }, 120_000);

  afterAll(async () => {
    for (const c of chargers) await c.close({ force: true }).catch(() => undefined);
    for (const n of nodes) await n.proc?.kill('SIGTERM');
    await db?.close();
    await fresh?.drop();
    await cleanUp();
  });

  it('keeps a session going across the SIGKILL of the node its charger was on', async () => {
    const [nodeA, nodeB] = nodes;
    const site = await addLmsSite(db, { mode: 'QUEUEING', zoneA: 32, minA: 16, maxA: 16, chargers: ['TWO-1', 'TWO-GONE'] });
    const [cpId, goneId] = site.cpIds;
    await addCard(db, ['CARD-TWO']);
    const apiB = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${nodeB.port}${path}`, {
        method, headers: { authorization: `Bearer ${tokenB}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { http: res.status, ...((await res.json()) as any) };
    };
    const login = await fetch(`http://127.0.0.1:${nodeB.port}/api/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const tokenB = ((await login.json()) as { token: string }).token;
    // Both nodes read the new load-managed site.
    expect((await apiB('PUT', `/api/cp_locs/${site.locId}`, { enable_lms: 1 })).http).toBe(200);

    /** What the charger was told (limits) and what it had acknowledged, across its two connections. */
    const limits: number[] = [];
    const acked: { action: string; params: any; result: any }[] = [];
    let charger!: RPCClient;
    let transactionId: number | undefined;
    const call = async (action: string, params: any) => {
      const result = await charger.call(action, params);
      acked.push({ action, params, result });
      return result as any;
    };
    const handlers = {
      SetChargingProfile: (p: any) => (limits.push(p.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit), { status: 'Accepted' }),
      ClearChargingProfile: () => ({ status: 'Accepted' }),
      RemoteStartTransaction: (p: any) => {
        setTimeout(() => void call('StartTransaction', { connectorId: 1, idTag: p.idTag, meterStart: 1000, timestamp: new Date().toISOString() })
          .then((r) => (transactionId = r.transactionId)), 10);
        return { status: 'Accepted' };
      },
      RemoteStopTransaction: (p: any) => {
        setTimeout(() => void call('StopTransaction', { transactionId: p.transactionId, meterStop: 9000, timestamp: new Date().toISOString(), reason: 'Remote' }), 10);
        return { status: 'Accepted' };
      },
    };
    const meter = (energy: number) => call('MeterValues', {
      connectorId: 1, transactionId,
      meterValue: [{ timestamp: new Date(Date.now() + energy).toISOString(), sampledValue: [{ value: String(energy), measurand: 'Energy.Active.Import.Register', unit: 'Wh' }] }],
    });

    // On node A: booted, plugged in; load management (whichever node allocates) gives it 16 A.
    charger = await connectCharger(`ws://127.0.0.1:${nodeA.port}`, 'TWO-1', { handlers });
    chargers.push(charger);
    await call('BootNotification', BOOT);
    await call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' });
    await eventually(async () => limits.includes(16), 20_000);

    // Remote start through node B reaches the charger on A, and A accepts the idTag B allowed.
    expect((await apiB('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: 30 })).status).toBe('success');
    await eventually(async () => transactionId !== undefined, 10_000);
    await call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' });

    // A load-management change through B: the zone's chargers now get 10 A.
    const zones = [{ zone_id: site.zoneId, zone_max_available_current: 32, max_charging_current: 10, min_charging_current: 10 }];
    expect((await apiB('PUT', '/api/zone_lms_profiles', { lms_profile_id: site.profileId, zones })).status).toBe('success');
    await eventually(async () => limits.at(-1) === 10, 20_000);
    for (let e = 2000; e <= 4000; e += 500) await meter(e);

    // A second charger on node A that will not come back after A dies.
    const gone = await connectCharger(`ws://127.0.0.1:${nodeA.port}`, 'TWO-GONE', { handlers: { SetChargingProfile: () => ({ status: 'Accepted' }) } });
    chargers.push(gone);
    await gone.call('BootNotification', BOOT);
    await eventually(async () => (await db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [goneId]))[0].online_flag === 1);

    // Node A dies at once: no shutdown hook, the kernel closes the charger's socket.
    const closed = new Promise((resolve) => charger.once('close', resolve));
    await nodeA.proc!.kill('SIGKILL');
    await closed;

    // The charger (behind a load balancer) reconnects to B and goes on with the same transaction.
    const limitsBefore = limits.length;
    charger = await connectCharger(`ws://127.0.0.1:${nodeB.port}`, 'TWO-1', { handlers });
    chargers.push(charger);
    await call('BootNotification', BOOT);
    await call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' });
    for (let e = 4500; e <= 6500; e += 500) await meter(e);
    // Its limit is sent again on the new connection (by B, after taking A's lease if A held the site).
    await eventually(async () => limits.length > limitsBefore && limits.at(-1) === 10, 30_000);

    // Remote stop through B, to the charger now on B.
    expect((await apiB('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 1 })).status).toBe('success');
    await eventually(async () => acked.some((c) => c.action === 'StopTransaction'), 10_000);

    // Nothing acknowledged is lost: one session, closed by the StopTransaction, with every acknowledged reading.
    const sessions = await db.query(`SELECT session_id, session_end_time, stop_note FROM cp_sessions WHERE tran_id = $1`, [transactionId]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].session_end_time).not.toBeNull();
    const stored = (await db.query<{ energy: number }>(
      `SELECT energy::float8 AS energy FROM cp_meter_values WHERE session_id = $1 ORDER BY ts`, [sessions[0].session_id],
    )).map((r) => r.energy);
    const sent = acked.filter((c) => c.action === 'MeterValues').map((c) => Number(c.params.meterValue[0].sampledValue[0].value));
    expect(sent).toHaveLength(10);
    for (const energy of sent) expect(stored).toContain(energy);

    // The charger that stayed away is marked offline once A's claim on it expired (by the node holding the sweep lease).
    const offline = async () => (await db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [goneId]))[0].online_flag === 0;
    expect(await eventually(offline, 90_000)).toBe(true);

    // Node A comes back: it does not mark B's charger offline (no reset of other nodes' flags).
    await start(0);
    await new Promise((r) => setTimeout(r, 1000));
    const [{ online_flag }] = await db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]);
    expect(online_flag).toBe(1);
  }, 240_000);
});
