import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import type { SimulatedCharger } from '@ev/simulator';
import { P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';
import { DRIFT_CONFIG, setCurrentConfig, startConfiguredCharger } from '../testing/config-chargers.ts';
import { userWith } from '../testing/users.ts';

const BOOT = { chargePointVendor: 'Test', chargePointModel: 'Fleet' };
const FLEET = [P.GET_CONFIGURATION, readPrivilege('cp_locs')];

/**
 * Issue 29, the configuration fleet view: a site's chargers read all at once over real WebSockets (two
 * simulators, one charger answering GetConfiguration with an error, one offline), their drift from the
 * last reads, and who may see it.
 */
describe('The configuration fleet view of a site', () => {
  let s: TestServer;
  let admin: string;
  let locId: number;
  const cp: Record<string, number> = {};
  const sims: SimulatedCharger[] = [];
  let refusing: RPCClient;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    // FL-1 wants a 30 s sample interval (it has 60): drift. FL-2 wants the 60 it has: none.
    const drifting = await startConfiguredCharger(s, 'FL-1', { locId });
    const matching = await startConfiguredCharger(s, 'FL-2', {
      locId, config: { ...DRIFT_CONFIG, 'Meter Value Sample Interval (s)': { ...DRIFT_CONFIG['Meter Value Sample Interval (s)']!, Value: 60 } },
    });
    sims.push(drifting.sim, matching.sim);
    cp['FL-1'] = drifting.cpId;
    cp['FL-2'] = matching.cpId;
    // FL-3 is never connected; FL-4 is connected and refuses the read (slowly: the read is still running when asked again).
    cp['FL-3'] = await addCharger(s.db, 'FL-3', { locId });
    await setCurrentConfig(s.db, cp['FL-3']);
    cp['FL-4'] = await addCharger(s.db, 'FL-4', { locId });
    refusing = await connectCharger(s.wsUrl, 'FL-4', {
      handlers: {
        GetConfiguration: async () => {
          await new Promise((r) => setTimeout(r, 300));
          throw new Error('busy');
        },
      },
    });
    await refusing.call('BootNotification', BOOT);
    // Another site's charger is not listed.
    await addCharger(s.db, 'FL-OTHER', { locId: await addSite(s.db) });
  });
  afterAll(async () => {
    await refusing.close({ force: true });
    for (const sim of sims) await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, token = admin) => s.api(method, path, { token });
  const poll = async () => {
    for (let i = 0; i < 100; i++) {
      const res = await api('GET', `/api/cp_locs/${locId}/configDrift/read`);
      if (res.body.read && !res.body.read.running) return res.body.read;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the read did not finish');
  };

  it('lists the site\'s chargers, none read yet, the offline one offline', async () => {
    const res = await api('GET', `/api/cp_locs/${locId}/configDrift`);
    expect(res.status).toBe(200);
    expect(res.body.chargers.map((c: any) => c.cpNo)).toEqual(['FL-1', 'FL-2', 'FL-3', 'FL-4']);
    expect(res.body.summary).toEqual({ chargers: 4, read: 0, neverRead: 4, withDrift: 0, offline: 1 });
    expect(res.body.chargers[2]).toMatchObject({ cpNo: 'FL-3', online: false, readAt: null, hasConfig: true, drift: [] });
    expect(res.body.chargers[3]).toMatchObject({ cpNo: 'FL-4', online: true, hasConfig: false });
    expect((await api('GET', `/api/cp_locs/${locId}/configDrift/read`)).body).toEqual({ read: null });
  });

  it('reads every connected charger, a few at a time, with progress to the end', async () => {
    const before = (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 21`))[0].n;
    const started = await api('POST', `/api/cp_locs/${locId}/configDrift/read`);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ readId: expect.any(String), locId, total: 4, offline: 1, running: true });
    // The offline charger is not sent to: reported at once.
    expect(started.body.results.find((r: any) => r.cpNo === 'FL-3')).toEqual({ cpId: cp['FL-3'], cpNo: 'FL-3', status: 'offline', errorCode: 10030 });
    // Asked again while it runs: the same read, not a second one.
    expect((await api('POST', `/api/cp_locs/${locId}/configDrift/read`)).body.readId).toBe(started.body.readId);

    const done = await poll();
    expect(done).toMatchObject({ readId: started.body.readId, total: 4, done: 4, read: 2, failed: 1, offline: 1, running: false, finishedAt: expect.any(String) });
    const result = (cpNo: string) => done.results.find((r: any) => r.cpNo === cpNo);
    expect(result('FL-1')).toMatchObject({ status: 'read', drift: 1 });
    expect(result('FL-2')).toMatchObject({ status: 'read', drift: 0 });
    expect(result('FL-4')).toMatchObject({ status: 'failed', errorCode: 10032, message: expect.stringContaining('busy') });

    // Each read went through the charger's own path: in cp_requests and the action log.
    const requests = await s.db.query(`SELECT cp_id FROM cp_requests WHERE request_type = 21 ORDER BY req_id OFFSET $1`, [before]);
    expect(requests.map((r: any) => r.cp_id).sort()).toEqual([cp['FL-1'], cp['FL-2'], cp['FL-4']].sort());
    const audits = await s.db.query(`SELECT target, target_id, new_data FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id`);
    expect(audits.filter((a: any) => a.target === 'cps' && a.new_data.command === 'GetConfiguration')).toHaveLength(3);
    expect(audits.find((a: any) => a.target === 'cp_locs')).toMatchObject({
      target_id: String(locId), new_data: { command: 'GetConfiguration', readId: started.body.readId, offline: [cp['FL-3']] },
    });
  });

  it('shows which key differs on which charger after the read', async () => {
    const res = await api('GET', `/api/cp_locs/${locId}/configDrift`);
    expect(res.body.summary).toEqual({ chargers: 4, read: 2, neverRead: 2, withDrift: 1, offline: 1 });
    const byNo = new Map(res.body.chargers.map((c: any) => [c.cpNo, c]));
    expect(byNo.get('FL-1')).toMatchObject({
      online: true, readAt: expect.any(String),
      drift: [{ setting: 'Meter Value Sample Interval (s)', key: 'MeterValueSampleInterval', wanted: '30', actual: '60', reason: 'differs' }],
    });
    expect((byNo.get('FL-1') as any).keysRead).toBeGreaterThan(20);
    expect(byNo.get('FL-2')).toMatchObject({ readAt: expect.any(String), drift: [] });
    expect(byNo.get('FL-4')).toMatchObject({ readAt: null, drift: [] });
    // The per-charger read-back says the same.
    expect((await api('GET', `/api/cps/${cp['FL-1']}/getConfiguration`)).body.drift).toEqual((byNo.get('FL-1') as any).drift);
  });

  it('needs GET_CONFIGURATION and READ_CP_LOCS, and the site among the user\'s', async () => {
    for (const privileges of [[P.GET_CONFIGURATION], [readPrivilege('cp_locs')]]) {
      const token = await userWith(s, `fleet-${privileges[0]!.toLowerCase()}`, privileges);
      expect((await api('GET', `/api/cp_locs/${locId}/configDrift`, token)).status).toBe(403);
      expect((await api('POST', `/api/cp_locs/${locId}/configDrift/read`, token)).status).toBe(403);
      expect((await api('GET', `/api/cp_locs/${locId}/configDrift/read`, token)).status).toBe(403);
    }
    const elsewhere = await userWith(s, 'fleet-elsewhere', FLEET, [await addSite(s.db)]);
    expect((await api('GET', `/api/cp_locs/${locId}/configDrift`, elsewhere)).status).toBe(404);
    expect((await api('POST', `/api/cp_locs/${locId}/configDrift/read`, elsewhere)).status).toBe(404);
    const here = await userWith(s, 'fleet-here', FLEET, [locId]);
    expect((await api('GET', `/api/cp_locs/${locId}/configDrift`, here)).body.summary.chargers).toBe(4);
    expect((await api('GET', '/api/cp_locs/abc/configDrift')).status).toBe(400);
    expect((await api('GET', '/api/cp_locs/999999/configDrift')).status).toBe(404);
  });
});
