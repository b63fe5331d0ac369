import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { editPrivilege, ERROR_CODES, P, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, BOOT, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';
import { userWith } from '../testing/users.ts';
import { testRedis, testRedisUrl as redisUrl } from '../testing/redis.ts';

/**
 * Two nodes in one process, on one PostgreSQL database and one Redis (each node is a whole server:
 * its own pool, central system, dispatcher and load management). Needs both: TEST_DATABASE_URL and
 * TEST_REDIS_URL (CI sets them); the two-process test with SIGKILL is cluster/two-nodes.test.ts.
 */
const enabled = Boolean(redisUrl && process.env.TEST_DATABASE_URL);

describe.skipIf(!enabled)('two nodes on Redis', () => {
  const { prefix, cleanUp } = testRedis();
  let a: TestServer;
  let b: TestServer;
  let tokenA: string;
  let tokenB: string;
  const chargers: RPCClient[] = [];

  beforeAll(async () => {
    a = await startTestServer({ redisUrl, redisPrefix: prefix });
    b = await startTestServer({ redisUrl, redisPrefix: prefix }, undefined, a.databaseUrl);
    tokenA = await a.login();
    tokenB = await b.login();
  });

  afterAll(async () => {
    for (const c of chargers) await c.close({ force: true }).catch(() => undefined);
    await b?.close();
    await a?.close();
    await cleanUp();
  });

  const online = async (cpId: number) => (await a.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag;
  const connect = async (node: TestServer, cpNo: string, handlers: Record<string, (p: any) => unknown> = {}) => {
    const c = await connectCharger(node.wsUrl, cpNo, { handlers });
    chargers.push(c);
    await c.call('BootNotification', BOOT);
    return c;
  };

  it('sends a command through the node the charger is not connected to, with the same outcome codes', async () => {
    const cpId = await addCharger(a.db, 'CL-CMD');
    const resets: unknown[] = [];
    await connect(a, 'CL-CMD', { Reset: (p) => (resets.push(p), { status: 'Accepted' }) });
    await eventually(async () => (await online(cpId)) === 1);

    const viaB = await b.api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Soft`, { token: tokenB });
    expect(viaB.body.status).toBe('success');
    expect(resets).toEqual([{ type: 'Soft' }]);
    // Logged once, by the node that holds the charger.
    const [{ n }] = await a.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1 AND request_data->>'type' = 'Soft'`, [cpId]);
    expect(n).toBe(1);

    // A charger connected nowhere is offline through either node.
    const idle = await addCharger(a.db, 'CL-NOWHERE');
    expect((await b.api('GET', `/api/cps/rsrResetCharger/${idle}?type=Soft`, { token: tokenB })).body)
      .toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_OFFLINE });
  });

  it("runs the tester's message on the node holding the charger, on its live connection", async () => {
    const cpId = await addCharger(a.db, 'CL-TEST');
    const charger = await connect(a, 'CL-TEST');
    await eventually(async () => (await online(cpId)) === 1);

    const viaB = await b.api('POST', '/api/test/cp_request', {
      token: tokenB, body: { cpId, action: 'BootNotification', payload: { ...BOOT, chargeBoxSerialNumber: 'CL-SER-2' } },
    });
    expect(viaB.body).toMatchObject({ status: 'success', data: { response: { status: 'Accepted' }, request_id: expect.any(Number) } });
    // Node A's connection took the serial number: the charger's own next message is logged with it.
    await charger.call('Heartbeat', {});
    const [beat] = await a.db.query(
      `SELECT charge_box_serial_number FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id DESC LIMIT 1`,
      [cpId, requestTypeId('Heartbeat', 'in')],
    );
    expect(beat.charge_box_serial_number).toBe('CL-SER-2');
  });

  it('accepts the idTag of a remote start asked through the other node', async () => {
    const cpId = await addCharger(a.db, 'CL-START');
    let charger!: RPCClient;
    const started = new Promise<any>((resolve) => {
      void connect(a, 'CL-START', {
        RemoteStartTransaction: (p) => {
          setTimeout(() => resolve(charger.call('StartTransaction', { connectorId: 1, idTag: p.idTag, meterStart: 0, timestamp: new Date().toISOString() })), 10);
          return { status: 'Accepted' };
        },
      }).then((c) => (charger = c));
    });
    await eventually(async () => (await online(cpId)) === 1);
    const res = await b.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: tokenB, body: { connectorId: 1, time: 30 } });
    expect(res.body.status).toBe('success');
    expect((await started).idTagInfo.status).toBe('Accepted');
  });

  it('moves a charger that reconnects to the other node: the old socket is dropped and it stays online', async () => {
    const cpId = await addCharger(a.db, 'CL-MOVE');
    const first = await connect(a, 'CL-MOVE');
    await eventually(async () => (await online(cpId)) === 1);
    const firstClosed = new Promise<number>((resolve) => first.once('close', ({ code }: { code: number }) => resolve(code)));

    const second = await connect(b, 'CL-MOVE', { Reset: () => ({ status: 'Accepted' }) });
    expect(await firstClosed).toBe(1000);
    await eventually(async () => a.app.ocpp.central.connection(cpId) === undefined);
    expect(b.app.ocpp.central.connection(cpId)).toBeDefined();
    // Node A's close of the stale socket did not mark it offline.
    await new Promise((r) => setTimeout(r, 300));
    expect(await online(cpId)).toBe(1);
    // Commands through A now reach it on B.
    expect((await a.api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Hard`, { token: tokenA })).body.status).toBe('success');

    await second.close();
    expect(await eventually(async () => (await online(cpId)) === 0)).toBe(true);
  });

  it('applies a record change made through one node to the charger connected to the other', async () => {
    const cpId = await addCharger(a.db, 'CL-DISABLE');
    const c = await connect(b, 'CL-DISABLE');
    const closed = new Promise<number>((resolve) => c.once('close', ({ code }: { code: number }) => resolve(code)));
    const res = await a.api('PUT', `/api/cps/${cpId}`, { token: tokenA, body: { enable_flag: 0 } });
    expect(res.status).toBe(200);
    expect(await closed).toBe(1008);
  });

  it('allocates a load-managed site from one node only, whichever node the chargers are on', async () => {
    const site = await addLmsSite(a.db, { mode: 'QUEUEING', zoneA: 32, minA: 16, maxA: 16, chargers: ['CL-L1', 'CL-L2'] });
    // Both nodes see the new site (a record change reloads load management everywhere).
    await a.api('PUT', `/api/cp_locs/${site.locId}`, { token: tokenA, body: { enable_lms: 1 } });
    await eventually(async () => a.app.lms.sites.has(site.locId) && b.app.lms.sites.has(site.locId));
    const profiles: Record<string, number[]> = { 'CL-L1': [], 'CL-L2': [] };
    const handler = (cpNo: string) => ({
      SetChargingProfile: (p: any) => (profiles[cpNo].push(p.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit), { status: 'Accepted' }),
      ClearChargingProfile: () => ({ status: 'Accepted' }),
    });
    const l1 = await connect(a, 'CL-L1', handler('CL-L1'));
    await connect(b, 'CL-L2', handler('CL-L2'));
    const owner = await eventually(async () => [a, b].find((n) => n.app.lms.owns!(site.locId)), 10_000);
    expect(owner).toBeDefined();
    expect([a, b].filter((n) => n.app.lms.owns!(site.locId))).toHaveLength(1);
    // Each idle charger is held at 0 A, told once (not once per node).
    await eventually(async () => profiles['CL-L1'].length > 0 && profiles['CL-L2'].length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(profiles).toEqual({ 'CL-L1': [0], 'CL-L2': [0] });

    // A car on the charger at node A: the allocating node (either) raises it to 16 A.
    await l1.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' });
    await eventually(async () => profiles['CL-L1'].includes(16), 10_000);
    // Both nodes' dashboards show the allocation.
    for (const n of [a, b]) {
      await eventually(async () => n.app.lms.charger(site.cpIds[0])?.allocation?.state === 'charging', 5000);
    }
  });

  it('shows a mass update\'s progress through any node: the job runs on one, the portal polls another', async () => {
    const cpId = await addCharger(a.db, 'CL-MASS');
    const made = await a.api('PUT', `/api/cps/${cpId}/cpConfig`, { token: tokenA, body: { fw_ver: 'AC-1.0.0' } });
    await a.api('PUT', `/api/cps/${cpId}/cpConfig`, { token: tokenA, body: { cp_config_id: made.body.data.cp_config_id, current: 1 } });
    const changes: unknown[] = [];
    await connect(a, 'CL-MASS', { ChangeConfiguration: (p) => (changes.push(p), { status: 'Accepted' }) });
    await eventually(async () => (await online(cpId)) === 1);

    // The job runs on B (which forwards to A, where the charger is); the polls go to A.
    const started = await b.api('POST', '/api/cp_locs/cp_mass_update', {
      token: tokenB, body: { cpIds: [cpId], commonConfigJson: { 'End upon state A': 'Yes' } },
    });
    expect(started.body).toEqual({ status: 'success', jobId: expect.any(String) });
    const progress = await eventually(async () => {
      const p = await a.api('GET', `/api/cp_locs/cp_mass_update/${started.body.jobId}`, { token: tokenA });
      expect(p.status).toBe(200);
      return p.body.finished ? p.body : null;
    });
    expect(progress).toEqual({
      jobId: started.body.jobId, total: 1, done: 1, finished: true,
      results: [{ cpId, cpNo: 'CL-MASS', status: 'sent', keys: { 'End upon state A': 'Accepted' } }],
    });
    expect(changes).toEqual([{ key: 'StopTransactionOnEVSideDisconnect', value: 'true' }]);
    // Still nobody else's job, on either node.
    const other = await userWith(a, 'cl_mass_other', [P.CP_CONFIG, editPrivilege('cp_config')], 'all');
    expect((await a.api('GET', `/api/cp_locs/cp_mass_update/${started.body.jobId}`, { token: other })).status).toBe(404);
  });
});
