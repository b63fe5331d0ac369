import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { TcpProxy } from '../testing/tcp-proxy.ts';
import { checkDurability, startChargingLoad, type ChargingLoad } from '../testing/charging-load.ts';
import { addCard, eventually } from '../testing/ocpp-support.ts';
import { testRedis, testRedisUrl as redisUrl } from '../testing/redis.ts';

/**
 * Faults with two nodes (one PostgreSQL database, one Redis; skipped without TEST_DATABASE_URL and
 * TEST_REDIS_URL). Each node reaches Redis, and node A its database, through a TCP relay that can
 * cut every connection, as a restart does, without touching the servers other tests share.
 */
const base = process.env.TEST_DATABASE_URL;
const enabled = Boolean(redisUrl && base);
const CHARGERS_PER_NODE = 10;

describe.skipIf(!enabled)('two nodes under faults', () => {
  const { prefix, cleanUp, client } = testRedis();
  let redisProxy: TcpProxy;
  let dbProxy: TcpProxy;
  let a: TestServer;
  let b: TestServer;
  let tokenA: string;
  let tokenB: string;
  const cpNos = (node: string) => Array.from({ length: CHARGERS_PER_NODE }, (_, i) => `FLT-${node}${i}`);
  const cpIds = new Map<string, number>();

  beforeAll(async () => {
    const r = new URL(redisUrl!);
    redisProxy = await new TcpProxy(r.hostname, Number(r.port || 6379)).listen();
    const p = new URL(base!);
    dbProxy = await new TcpProxy(p.hostname, Number(p.port || 5432)).listen();
    const viaRedis = redisProxy.via(redisUrl!);
    a = await startTestServer(
      { redisUrl: viaRedis, redisPrefix: prefix, database: { poolSize: 10, statementTimeoutMs: 3000, lockTimeoutMs: 1000, connectTimeoutMs: 1500 } },
      (url) => dbProxy.via(url),
    );
    b = await startTestServer({ redisUrl: viaRedis, redisPrefix: prefix }, undefined, a.databaseUrl);
    const [site] = await b.db.query(`INSERT INTO cp_locs (address) VALUES ('cluster fault site') RETURNING loc_id`);
    const rows = await b.db.query<{ cp_id: number; cp_no: string }>(
      `INSERT INTO cps (cp_no, name, loc_id) SELECT x, x, $2 FROM unnest($1::text[]) x RETURNING cp_id, cp_no`,
      [[...cpNos('A'), ...cpNos('B')], site.loc_id],
    );
    for (const row of rows) cpIds.set(row.cp_no, row.cp_id);
    await addCard(b.db, ['FLTTAG']);
    tokenA = await a.login();
    tokenB = await b.login();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cleanUp();
    await redisProxy?.close();
    await dbProxy?.close();
  });

  /** Chargers charging on both nodes while fault() runs; then charging goes on and every acknowledgement holds. */
  async function chargeThrough(fault: (loads: ChargingLoad[]) => Promise<void>) {
    const loads = [startChargingLoad({ wsUrl: a.wsUrl, cpNos: cpNos('A'), idTag: 'FLTTAG' }), startChargingLoad({ wsUrl: b.wsUrl, cpNos: cpNos('B'), idTag: 'FLTTAG' })];
    try {
      for (const load of loads) expect(await load.progressed(2, 30_000)).toBe(true);
      await fault(loads);
      for (const load of loads) expect(await load.progressed(2, 30_000)).toBe(true);
    } finally {
      for (const load of loads) await load.stop();
    }
    const report = await checkDurability(b.db, loads.flatMap((l) => l.calls()));
    expect(report.unanswered).toEqual([]);
    expect(report.missingRequests).toEqual([]);
  }

  /**
   * A command through the other node reaches every charger of this node. The load's chargers answer
   * TriggerMessage with NotImplemented: that answer (CP_REJECTED) came from the charger itself.
   */
  async function allReachable(via: TestServer, token: string, node: string): Promise<boolean> {
    for (const cpNo of cpNos(node)) {
      const res = await via.api('GET', `/api/cps/triggerMessage/${cpIds.get(cpNo)}?requestedMessage=Heartbeat`, { token });
      if (res.status !== 200 || res.body.errorCode !== ERROR_CODES.CP_REJECTED) return false;
    }
    return true;
  }

  it('Redis restarted empty under load: chargers keep charging, presence and commands come back', async () => {
    await chargeThrough(async () => {
      expect(await eventually(() => allReachable(b, tokenB, 'A'), 10_000)).toBe(true);
      // Redis goes away for 3 s and comes back with nothing (this machine's Redis keeps nothing on disk).
      redisProxy.outage(3000);
      const keys = await client().keys(`${prefix}cp:*`);
      if (keys.length) await client().del(...keys);
      // Meanwhile a command to a charger on the other node gets a clear answer, not a hang or a 500.
      const during = await b.api('GET', `/api/cps/triggerMessage/${cpIds.get('FLT-A0')}?requestedMessage=Heartbeat`, { token: tokenB });
      expect(during.status).toBe(200);
      expect([ERROR_CODES.CP_REJECTED, ERROR_CODES.CP_OFFLINE, ERROR_CODES.CP_TIMEOUT, ERROR_CODES.CP_NODE_UNREACHABLE]).toContain(during.body.errorCode);
      await new Promise((r) => setTimeout(r, 3000));
      // Every charger is reachable again through the other node, in both directions.
      expect(await eventually(() => allReachable(b, tokenB, 'A'), 20_000)).toBe(true);
      expect(await eventually(() => allReachable(a, tokenA, 'B'), 20_000)).toBe(true);
      // And none of them was marked offline meanwhile.
      expect(await b.db.query(`SELECT cp_no FROM cps WHERE cp_no LIKE 'FLT-%' AND online_flag = 0`)).toEqual([]);
    });
  }, 120_000);

  it('one node loses its database: the other keeps serving, and the first recovers by itself', async () => {
    await chargeThrough(async (loads) => {
      const before = loads[1].chargers.map((c) => c.acks);
      dbProxy.outage(4000);
      // Node B goes on: its API answers and its chargers' messages are acknowledged meanwhile.
      expect((await b.api('GET', '/api/cps', { token: tokenB })).status).toBe(200);
      expect(await loads[1].progressed(2, 3500)).toBe(true);
      expect(loads[1].chargers.every((c, i) => c.acks > before[i])).toBe(true);
      // Node A answers its API with 503 (not a 500, not a hang), then serves again once the database is back.
      const during = await a.api('GET', '/api/cps', { token: tokenA });
      expect([200, 503]).toContain(during.status);
      await new Promise((r) => setTimeout(r, 4000));
      expect(await eventually(async () => (await a.api('GET', '/api/cps', { token: tokenA })).status === 200, 20_000)).toBe(true);
    });
  }, 120_000);
});
