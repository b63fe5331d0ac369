import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { P, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** Issue 29: the local authorization list, against the simulator over a real WebSocket. */
describe('local authorization list', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let cpId: number;
  let sim: SimulatedCharger;
  const cards: Record<string, number> = {};

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = await addSite(s.db);
    const siteB = await addSite(s.db);
    cpId = await addCharger(s.db, 'SIM-LL1', { locId: siteA });
    await addCharger(s.db, 'SIM-LL-OFF', { locId: siteA });
    // Cards through the resource API, as the portal writes them (its hook marks lists pending).
    const card = async (name: string, body: Record<string, unknown>) => {
      const res = await s.api('POST', '/api/auth_card', { token: admin, body: { name, active: 1, ...body } });
      expect(res.status).toBe(200);
      cards[name] = (await s.db.query(`SELECT id FROM auth_card WHERE name = $1`, [name]))[0].id;
    };
    await card('everywhere', { rfid_cards: 'TAG-G1,TAG-G2' });
    await card('site A', { rfid_cards: 'TAG-A', loc: siteA });
    await card('site B', { rfid_cards: 'TAG-B', loc: siteB });
    await card('blocked', { rfid_cards: 'TAG-X', active: 0 });
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-LL1', connectors: 1, reconnect: false });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const state = async () => (await api('GET', `/api/cps/${cpId}/localList`)).body;
  const status = (idTag: string) => sim.localList.lookup(idTag)?.status;

  it('is refused without P.LOCAL_LIST (403), for an unknown charger (10001) and for a bad update type (400)', async () => {
    const other = await userWith(s, 'nolist', [P.CLEAR_CACHE]);
    expect((await api('GET', `/api/cps/${cpId}/localList`, undefined, other)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' }, other)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/localList/version`, undefined, other)).status).toBe(403);
    expect((await api('POST', `/api/cp_locs/${siteA}/localList/send`, { updateType: 'Full' }, other)).status).toBe(403);
    const lister = await userWith(s, 'lister', [P.LOCAL_LIST]);
    expect((await api('GET', `/api/cps/${cpId}/localList`, undefined, lister)).status).toBe(200);
    expect((await api('POST', `/api/cps/999999/localList/send`, { updateType: 'Full' })).body).toEqual({ status: 'error', errorCode: 10001 });
    const bad = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Everything' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ updateType: 'invalid' });
  });

  it('sends the full list: the cards valid at the charger, blocked ones Blocked, audited and logged', async () => {
    expect(await state()).toMatchObject({ expectedVersion: 0, reportedVersion: null, entries: 4, pendingChanges: 4, lastAnswer: null });
    const res = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
    expect(res.body).toEqual({ updateType: 'Full', listVersion: 1, answer: 'Accepted', entries: 4 });
    expect(sim.localList.size).toBe(4);
    expect([status('TAG-G1'), status('tag-g2'), status('TAG-A'), status('TAG-X'), status('TAG-B')]).toEqual(['Accepted', 'Accepted', 'Accepted', 'Blocked', undefined]);
    const [logged] = await s.db.query(`SELECT * FROM cp_requests WHERE request_type = $1 ORDER BY req_id DESC LIMIT 1`, [requestTypeId('SendLocalList', 'out')]);
    expect(logged).toMatchObject({ cp_id: cpId, request_data: { listVersion: 1, updateType: 'Full' }, response_data: { status: 'Accepted' } });
    const [audit] = await s.db.query(`SELECT * FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id DESC LIMIT 1`);
    expect(audit.new_data).toMatchObject({ command: 'SendLocalList', outcome: { status: 'success' } });
    expect(await state()).toMatchObject({ expectedVersion: 1, pendingChanges: 0, pendingSince: null, lastUpdateType: 'Full', lastVersion: 1, lastAnswer: 'Accepted' });
  });

  it('asks the charger its version (GetLocalListVersion) and shows it with the time', async () => {
    const res = await api('POST', `/api/cps/${cpId}/localList/version`);
    expect(res.body).toEqual({ listVersion: 1, reportedAt: expect.any(String) });
    expect(await state()).toMatchObject({ expectedVersion: 1, reportedVersion: 1, reportedAt: res.body.reportedAt });
  });

  it('sends a card blocked, added or deleted to the connected charger as a Differential', async () => {
    expect((await api('PUT', `/api/auth_card/${cards['site A']}`, { active: 0 })).status).toBe(200);
    await eventually(async () => status('TAG-A') === 'Blocked');
    expect(sim.localList.version).toBe(2);
    // The answer is stored after the charger applied the list.
    await eventually(async () => (await state()).expectedVersion === 2);
    const [logged] = await s.db.query(`SELECT * FROM cp_requests WHERE request_type = $1 ORDER BY req_id DESC LIMIT 1`, [requestTypeId('SendLocalList', 'out')]);
    expect(logged.request_data).toEqual({ listVersion: 2, updateType: 'Differential', localAuthorizationList: [{ idTag: 'TAG-A', idTagInfo: { status: 'Blocked' } }] });
    expect((await api('POST', '/api/auth_card', { name: 'new', rfid_cards: 'TAG-N', active: 1 })).status).toBe(200);
    cards.new = (await s.db.query(`SELECT id FROM auth_card WHERE name = 'new'`))[0].id;
    await eventually(async () => status('TAG-N') === 'Accepted');
    expect((await api('DELETE', `/api/auth_card/${cards.everywhere}`)).status).toBeLessThan(300);
    await eventually(async () => status('TAG-G1') === undefined);
    expect(status('TAG-G2')).toBeUndefined();
    await eventually(async () => (await state()).expectedVersion === 4);
    expect(await state()).toMatchObject({ expectedVersion: 4, pendingSince: null, pendingChanges: 0, lastUpdateType: 'Differential', lastAnswer: 'Accepted' });
  });

  it('keeps a card blocked while the charger is offline pending, sends it when it reconnects, and the charger authorizes offline from its list', async () => {
    sim.disconnect();
    await eventually(async () => !s.app.ocpp.central.connection(cpId));
    expect(await sim.authorize('TAG-N')).toEqual({ status: 'Accepted' });
    expect((await api('PUT', `/api/auth_card/${cards.new}`, { active: 0 })).status).toBe(200);
    const offline = await state();
    expect(offline).toMatchObject({ expectedVersion: 4, pendingChanges: 1, pendingSince: expect.any(String) });
    expect(status('TAG-N')).toBe('Accepted');
    await sim.reconnect();
    await eventually(async () => status('TAG-N') === 'Blocked');
    expect(await eventually(async () => (await state()).pendingSince === null)).toBe(true);
    sim.disconnect();
    expect(await sim.authorize('TAG-N')).toEqual({ status: 'Blocked' });
    await sim.reconnect();
  });

  it('answers a VersionMismatch to a Differential with a Full list', async () => {
    sim.localList.version = 50;
    const res = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Differential' });
    expect(res.body).toEqual({ updateType: 'Full', listVersion: 6, answer: 'Accepted', entries: 3, fallbackFrom: 'Differential' });
    expect(sim.localList.version).toBe(6);
  });

  it('stores and shows Failed and NotSupported, the expected version unchanged', async () => {
    sim.localList.failWith = 'Failed';
    expect((await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' })).body).toMatchObject({ answer: 'Failed', listVersion: 7 });
    expect(await state()).toMatchObject({ expectedVersion: 6, lastAnswer: 'Failed', lastVersion: 7 });
    sim.localList.failWith = undefined;
    sim.config.change('LocalAuthListEnabled', 'false');
    expect((await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Differential' })).body).toMatchObject({ answer: 'NotSupported' });
    expect((await api('POST', `/api/cps/${cpId}/localList/version`)).body).toMatchObject({ listVersion: -1 });
    expect(await state()).toMatchObject({ expectedVersion: 6, reportedVersion: -1, lastAnswer: 'NotSupported' });
    sim.config.change('LocalAuthListEnabled', 'true');
  });

  it('sends a whole site, each charger with its outcome (the offline one its error code)', async () => {
    const res = await api('POST', `/api/cp_locs/${siteA}/localList/send`, { updateType: 'Full' });
    expect(res.body.chargers).toEqual([
      { cpId: expect.any(Number), cpNo: 'SIM-LL-OFF', outcome: expect.objectContaining({ status: 'error', errorCode: 10030 }) },
      { cpId, cpNo: 'SIM-LL1', outcome: { updateType: 'Full', listVersion: 7, answer: 'Accepted', entries: 3 } },
    ]);
  });
});
