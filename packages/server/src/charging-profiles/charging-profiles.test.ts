import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, addSite, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** Issue 29: charging profiles set, listed, cleared and combined, against the simulator over a real WebSocket. */
describe('Charging profiles outside load management', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'SIM-PROF', { locId: await addSite(s.db), password: 'sim-prof-pass', doubleUse: 1 });
    await addCard(s.db, ['CARD-PROF']);
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-PROF', password: 'sim-prof-pass', connectors: 2, reconnect: false, meterIntervalSec: 60 });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const list = async () => (await api('GET', `/api/cps/${cpId}/chargingProfiles`)).body.profiles as any[];
  const profile = (over: object = {}) => ({ chargingProfileId: 7, stackLevel: 2, kind: 'Absolute', unit: 'A', periods: [{ startPeriod: 0, limit: 10 }], ...over });
  const set = (body: object, token = admin) => api('POST', `/api/cps/${cpId}/chargingProfiles`, body, token);
  const clear = (body: object, token = admin) => api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, body, token);
  // What load management sends (lms/charger-limits.ts profileParams): its stack level and ids.
  const lmsSet = (connectorId: number, limit: number) => s.app.ocpp.commands.send(cpId, 'SetChargingProfile', {
    connectorId,
    csChargingProfiles: {
      chargingProfileId: 1000, stackLevel: 1, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Relative',
      chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit }] },
    },
  });

  it('sets a TxDefaultProfile: the charger follows it, the profile is listed, logged and audited', async () => {
    const res = await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile() });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(sim.allowedCurrent(1)).toBe(10);
    expect(await list()).toEqual([expect.objectContaining({
      connectorId: 1, chargingProfileId: 7, purpose: 'TxDefaultProfile', stackLevel: 2, kind: 'Absolute', source: 'manual', setBy: 'admin',
      schedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
    })]);
    const [logged] = await s.db.query(`SELECT * FROM cp_requests WHERE request_type = 12 AND cp_id = $1 ORDER BY req_id DESC LIMIT 1`, [cpId]);
    expect(logged).toMatchObject({ connector_id: 1, response_data: { status: 'Accepted' } });
    const [audit] = await s.db.query(`SELECT * FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id DESC LIMIT 1`);
    expect(audit.new_data).toMatchObject({ command: 'SetChargingProfile' });
  });

  it('refuses load management\'s stack level and ids, bad schedules, and a TxProfile without a transaction', async () => {
    const lmsLevel = await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile({ stackLevel: 1 }) });
    expect(lmsLevel.status).toBe(400);
    expect(lmsLevel.body.fields).toEqual({ 'profile.stackLevel': 'load_management' });
    expect((await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile({ chargingProfileId: 1000 }) })).body.fields).toEqual({ 'profile.chargingProfileId': 'load_management' });
    expect((await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile({ kind: 'Recurring' }) })).status).toBe(400);
    expect((await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile({ periods: [{ startPeriod: 5, limit: 6 }] }) })).status).toBe(400);
    expect((await set({ connectorId: 1, purpose: 'TxProfile', profile: profile({ chargingProfileId: 8 }) })).body).toEqual({ status: 'error', errorCode: 30002 });
    expect((await api('POST', '/api/cps/999999/chargingProfiles', { connectorId: 1, purpose: 'TxDefaultProfile', profile: profile() })).body).toEqual({ status: 'error', errorCode: 10001 });
  });

  it('lists load management\'s profiles and never clears them by a manual clear unless asked', async () => {
    expect((await lmsSet(0, 16)).status).toBe('success');
    expect((await list()).find((p) => p.chargingProfileId === 1000)).toMatchObject({ source: 'lms', stackLevel: 1, connectorId: 0, setBy: null });
    // Criteria that would reach load management's profiles, or its id, are refused and nothing is sent.
    const before = (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 13`))[0].n;
    expect((await clear({})).body.fields).toEqual({ stackLevel: 'load_management' });
    expect((await clear({ connectorId: 0, purpose: 'TxDefaultProfile' })).status).toBe(400);
    expect((await clear({ id: 1000 })).body.fields).toEqual({ id: 'load_management' });
    expect((await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 13`))[0].n).toBe(before);
    // Narrowed to the manual stack level: the manual profile goes, load management's stays.
    expect((await clear({ purpose: 'TxDefaultProfile', stackLevel: 2 })).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect((await list()).map((p) => p.chargingProfileId)).toEqual([1000]);
    expect(sim.allowedCurrent(1)).toBe(16);
    // A clear that matched nothing on the charger is its Unknown, shown as it gave it.
    expect((await clear({ stackLevel: 5 })).body).toMatchObject({ status: 'error', data: { status: 'Unknown' } });
    expect((await clear({ id: 1000, includeLoadManagement: true })).body.status).toBe('success');
    expect(await list()).toEqual([]);
  });

  it('gets the composite schedule of the stacked profiles, in A or W, Rejected for a bad connector', async () => {
    await set({ connectorId: 0, purpose: 'TxDefaultProfile', profile: profile({ chargingProfileId: 20, stackLevel: 0, periods: [{ startPeriod: 0, limit: 16 }, { startPeriod: 600, limit: 8 }] }) });
    const res = await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 900 });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted', connectorId: 1, chargingSchedule: { chargingRateUnit: 'A', duration: 900 } } });
    expect(res.body.data.chargingSchedule.chargingSchedulePeriod).toEqual([{ startPeriod: 0, limit: 16 }, { startPeriod: 600, limit: 8 }]);
    const watts = await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 300, chargingRateUnit: 'W' });
    expect(watts.body.data.chargingSchedule.chargingSchedulePeriod).toEqual([{ startPeriod: 0, limit: 16 * 230 }]);
    expect((await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 9, duration: 60 })).body).toMatchObject({ status: 'error', data: { status: 'Rejected' } });
    expect((await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 0 })).status).toBe(400);
  });

  it('sets a TxProfile on a running transaction; it ends with the transaction', async () => {
    await sim.plugIn(2);
    const tranId = await sim.startTransaction(2, 'CARD-PROF');
    await eventually(async () => (await s.db.query(`SELECT 1 FROM cp_sessions WHERE tran_id = $1`, [tranId])).length > 0);
    const res = await set({ connectorId: 2, purpose: 'TxProfile', profile: profile({ chargingProfileId: 30, stackLevel: 3, kind: 'Relative', periods: [{ startPeriod: 0, limit: 6 }] }) });
    expect(res.body.status).toBe('success');
    expect(sim.allowedCurrent(2)).toBe(6);
    expect((await list()).find((p) => p.chargingProfileId === 30)).toMatchObject({ purpose: 'TxProfile', transactionId: tranId, connectorId: 2 });
    await sim.stopTransaction(2);
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 30))).toBe(true);
  });

  it('sends a remote start with a TxProfile, which the charger applies to the new transaction', async () => {
    await sim.unplug(2);
    const start = (body: object, token = admin) => api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 2, time: '30', memberId: 'CARD-PROF', ...body }, token);
    expect((await start({ chargingProfile: profile({ chargingProfileId: 40, stackLevel: 1 }) })).status).toBe(400);
    expect((await start({ chargingProfile: profile({ chargingProfileId: 40, stackLevel: 3, kind: 'Relative', periods: [{ startPeriod: 0, limit: 7 }] }) })).body.status).toBe('success');
    const [sent] = await s.db.query(`SELECT request_data FROM cp_requests WHERE request_type = 10 ORDER BY req_id DESC LIMIT 1`);
    expect(sent.request_data.chargingProfile).toMatchObject({ chargingProfileId: 40, chargingProfilePurpose: 'TxProfile', stackLevel: 3 });
    expect(await eventually(async () => sim.transactionId(2) !== undefined)).toBe(true);
    expect(sim.allowedCurrent(2)).toBe(7);
    const recorded = await eventually(async () => (await list()).find((p) => p.chargingProfileId === 40 && p.transactionId === sim.transactionId(2)));
    expect(recorded).toMatchObject({ purpose: 'TxProfile', connectorId: 2, setBy: null, source: 'manual' });
    await sim.stopTransaction(2);
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 40))).toBe(true);
  });

  it('needs the charging profile privilege for every route, and for a remote start with a profile', async () => {
    const starter = await userWith(s, 'starter', [P.REMOTE_START_CHARGER]);
    expect((await api('GET', `/api/cps/${cpId}/chargingProfiles`, undefined, starter)).status).toBe(403);
    expect((await set({ connectorId: 1, purpose: 'TxDefaultProfile', profile: profile() }, starter)).status).toBe(403);
    expect((await clear({ stackLevel: 2 }, starter)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 60 }, starter)).status).toBe(403);
    const withProfile = { connectorId: 1, time: '30', chargingProfile: profile({ stackLevel: 3 }) };
    expect((await api('POST', `/api/cps/rsrStartCharger/${cpId}`, withProfile, starter)).status).toBe(403);
    const profiler = await userWith(s, 'profiler', [P.CHARGING_PROFILE]);
    expect((await api('GET', `/api/cps/${cpId}/chargingProfiles`, undefined, profiler)).status).toBe(200);
  });
});
