import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger, SimulatedCharger201 } from '@ev/simulator';
import { editPrivilege, P, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** Issue 31: an OCPP 2.0.1 charger's device model read (GetBaseReport → NotifyReport) and set, against the simulator. */
describe('device model of a 2.0.1 charger', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger201;
  let cp16: number;
  let sim16: SimulatedCharger;

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'DM-201', { locId, password: 'dm-201-pass' });
    sim = new SimulatedCharger201({ url: `${s.wsUrl}/ocpp`, cpNo: 'DM-201', password: 'dm-201-pass', connectors: 2, reconnect: false });
    await sim.start();
    cp16 = await addCharger(s.db, 'DM-16', { locId, password: 'dm-16-pass' });
    sim16 = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'DM-16', password: 'dm-16-pass', connectors: 1, reconnect: false });
    await sim16.start();
  });
  afterAll(async () => {
    await sim.stop();
    await sim16.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const model = async () => (await api('GET', `/api/cps/${cpId}/deviceModel`)).body;
  const variable = (m: any, component: string, name: string, evseId: number | null = null) =>
    m.variables.find((v: any) => v.component === component && v.variable === name && v.evseId === evseId);
  const lastAudit = async () => (await s.db.query(`SELECT * FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id DESC LIMIT 1`))[0];

  it('lists and filters chargers by the OCPP version they last connected with (never connected: none)', async () => {
    const never = await addCharger(s.db, 'DM-NEVER');
    const listed = async (filter: string) =>
      (await api('GET', `/api/cps?size=100&page=0&${filter}`)).body.dataset.content.map((r: any) => [r.cp_id, r.ocpp_protocol]);
    expect(await listed('ocpp_protocol=ocpp2.0.1')).toEqual([[cpId, 'ocpp2.0.1']]);
    expect(await listed('ocpp_protocol=ocpp1.6')).toEqual([[cp16, 'ocpp1.6']]);
    expect(await listed('ocpp_protocol=none')).toContainEqual([never, 'none']);
    expect((await api('GET', `/api/cps/${cpId}`)).body.ocpp_protocol).toBe('ocpp2.0.1');
    await s.db.query(`DELETE FROM cps WHERE cp_id = $1`, [never]);
  });

  it('reads the device model: Accepted, audited, the NotifyReport parts stored and the report completed', async () => {
    expect(await model()).toEqual({ report: null, variables: [] });
    const res = await api('POST', `/api/cps/${cpId}/deviceModel/read`, {});
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect((await lastAudit()).new_data).toMatchObject({ command: 'GetBaseReport', params: { requestId: 1, reportBase: 'FullInventory' }, outcome: { status: 'success' } });
    await eventually(async () => (await model()).report?.completedAt != null);
    const m = await model();
    // 26 station variables + 4 per EVSE, 10 per part.
    expect(m.report).toMatchObject({ requestId: 1, reportBase: 'FullInventory', parts: 4 });
    expect(m.variables).toHaveLength(34);
    expect(variable(m, 'OCPPCommCtrlr', 'HeartbeatInterval')).toMatchObject({
      value: sim.config.value('HeartbeatInterval'), mutability: 'ReadWrite', dataType: 'integer', unit: 's', attributeType: 'Actual', evseId: null,
    });
    expect(variable(m, 'EVSE', 'Power', 2)).toMatchObject({ mutability: 'ReadOnly', unit: 'W', connectorId: null });
    expect(variable(m, 'Connector', 'ConnectorType', 1)).toMatchObject({ connectorId: 1, value: 'cType2' });
    // A write-only variable is listed without a value.
    expect(variable(m, 'SecurityCtrlr', 'BasicAuthPassword')).toMatchObject({ mutability: 'WriteOnly', value: null });
    expect(m.variables.find((v: any) => v.variableInstance === 'GetReport')).toMatchObject({ variable: 'ItemsPerMessage', value: '10' });
  });

  it('a second read replaces the stored variables; a base the charger does not support leaves the last report as it was', async () => {
    const res = await api('POST', `/api/cps/${cpId}/deviceModel/read`, { reportBase: 'ConfigurationInventory' });
    expect(res.body.status).toBe('success');
    await eventually(async () => (await model()).report?.completedAt != null);
    const m = await model();
    expect(m.report).toMatchObject({ requestId: 2, reportBase: 'ConfigurationInventory' });
    expect(m.variables.every((v: any) => v.mutability !== 'ReadOnly')).toBe(true);

    const refused = await api('POST', `/api/cps/${cpId}/deviceModel/read`, { reportBase: 'SummaryInventory' });
    expect(refused.body).toMatchObject({ status: 'error', errorCode: 10032, data: { status: 'NotSupported' } });
    expect((await model()).report).toEqual(m.report);
    expect((await api('POST', `/api/cps/${cpId}/deviceModel/read`, { reportBase: 'Everything' })).status).toBe(400);
  });

  it('sets a ReadWrite variable: Accepted, the charger changed and the stored value updated', async () => {
    await api('POST', `/api/cps/${cpId}/deviceModel/read`, {});
    await eventually(async () => (await model()).report?.completedAt != null);
    const res = await api('POST', `/api/cps/${cpId}/deviceModel/set`, { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '120' });
    expect(res.body).toEqual({ component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', answer: 'Accepted' });
    expect(sim.config.value('HeartbeatInterval')).toBe('120');
    expect(variable(await model(), 'OCPPCommCtrlr', 'HeartbeatInterval').value).toBe('120');
    expect((await lastAudit()).new_data).toMatchObject({ command: 'SetVariables', outcome: { status: 'success' } });
    const [sent] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id DESC LIMIT 1`, [cpId, requestTypeId('SetVariables', 'out', 'ocpp2.0.1')]);
    expect(sent.request_data).toEqual({ setVariableData: [{ attributeValue: '120', component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }] });
  });

  it('answers the charger\'s attributeStatus: a value it refuses, an unknown component or variable', async () => {
    const set = (body: object) => api('POST', `/api/cps/${cpId}/deviceModel/set`, body);
    expect((await set({ component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: 'often' })).body.answer).toBe('Rejected');
    expect(variable(await model(), 'OCPPCommCtrlr', 'HeartbeatInterval').value).toBe('120');
    expect((await set({ component: 'NoSuchCtrlr', variable: 'X', value: '1' })).body.answer).toBe('UnknownComponent');
    expect((await set({ component: 'TxCtrlr', variable: 'NoSuchVariable', value: '1' })).body.answer).toBe('UnknownVariable');
    expect((await set({ component: 'EVSE', evseId: 1, variable: 'AvailabilityState', value: 'x', extra: 1 })).status).toBe(400);
    expect((await set({ component: 'Connector', connectorId: 1, variable: 'ConnectorType', value: 'x' })).body.fields).toEqual({ connectorId: 'invalid' });
  });

  it('refuses, without sending, a variable the stored model marks ReadOnly and the charger\'s password', async () => {
    const [{ n: before }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1`, [cpId]);
    const ro = await api('POST', `/api/cps/${cpId}/deviceModel/set`, { component: 'EVSE', evseId: 1, variable: 'Power', value: '1' });
    expect(ro.status).toBe(400);
    expect(ro.body.fields).toEqual({ variable: 'not_editable' });
    const pw = await api('POST', `/api/cps/${cpId}/deviceModel/set`, { component: 'SecurityCtrlr', variable: 'BasicAuthPassword', value: 'a-new-password-1234' });
    expect(pw.status).toBe(400);
    expect(pw.body.errors[0]).toContain('/password');
    const [{ n: after }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1`, [cpId]);
    expect(after).toBe(before);
  });

  it('refuses a 1.6 charger clearly, before anything is recorded or sent', async () => {
    const read = await api('POST', `/api/cps/${cp16}/deviceModel/read`, {});
    expect(read.status).toBe(400);
    expect(read.body).toMatchObject({ fields: { protocol: 'not_ocpp201' } });
    expect(read.body.errors[0]).toContain('OCPP 1.6');
    const set = await api('POST', `/api/cps/${cp16}/deviceModel/set`, { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' });
    expect(set.status).toBe(400);
    expect((await api('GET', `/api/cps/${cp16}/deviceModel`)).body).toEqual({ report: null, variables: [] });
  });

  it('needs the configuration privileges: 403 without, a charger outside the user\'s sites is not found', async () => {
    const none = await userWith(s, 'dm-none', [P.REMOTE_RESET_CHARGER]);
    expect((await api('GET', `/api/cps/${cpId}/deviceModel`, undefined, none)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/deviceModel/read`, {}, none)).status).toBe(403);
    const reader = await userWith(s, 'dm-reader', [P.GET_CONFIGURATION]);
    expect((await api('GET', `/api/cps/${cpId}/deviceModel`, undefined, reader)).body.variables.length).toBeGreaterThan(0);
    const body = { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '90' };
    expect((await api('POST', `/api/cps/${cpId}/deviceModel/set`, body, reader)).status).toBe(403);
    const setter = await userWith(s, 'dm-setter', [P.GET_CONFIGURATION, editPrivilege('cp_config')]);
    expect((await api('POST', `/api/cps/${cpId}/deviceModel/set`, body, setter)).body.answer).toBe('Accepted');
    const elsewhere = await userWith(s, 'dm-elsewhere', [P.GET_CONFIGURATION], [await addSite(s.db)]);
    expect((await api('GET', `/api/cps/${cpId}/deviceModel`, undefined, elsewhere)).body).toEqual({ status: 'error', errorCode: 10001 });
  });

  it('follows a report part by part; keeps no write-only value and one row per attribute said twice', async () => {
    const rawId = await addCharger(s.db, 'DM-RAW', { password: 'dm-raw-pass' });
    let asked: { requestId: number } | undefined;
    const raw = await connectCharger(s.wsUrl, 'DM-RAW', {
      password: 'dm-raw-pass', protocol: 'ocpp2.0.1',
      handlers: { GetBaseReport: (p) => { asked = p; return { status: 'Accepted' }; } },
    });
    try {
      await raw.call('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'M', vendorName: 'V' } });
      expect((await api('POST', `/api/cps/${rawId}/deviceModel/read`, {})).body.status).toBe('success');
      const at = (value: string, mutability: string) => ({ type: 'Actual', value, mutability });
      const part = (seqNo: number, tbc: boolean, reportData: object[]) =>
        raw.call('NotifyReport', { requestId: asked!.requestId, generatedAt: new Date().toISOString(), seqNo, tbc, reportData });
      const characteristics = { dataType: 'string', supportsMonitoring: false };
      await part(0, true, [
        { component: { name: 'SecurityCtrlr' }, variable: { name: 'BasicAuthPassword' }, variableAttribute: [at('secret-in-clear', 'WriteOnly')], variableCharacteristics: characteristics },
        { component: { name: 'TxCtrlr' }, variable: { name: 'TxStartPoint' }, variableAttribute: [at('Authorized', 'ReadOnly')] },
        { component: { name: 'TxCtrlr' }, variable: { name: 'TxStartPoint' }, variableAttribute: [at('PowerPathClosed', 'ReadOnly')] },
      ]);
      const midway = (await api('GET', `/api/cps/${rawId}/deviceModel`)).body;
      expect(midway.report).toMatchObject({ parts: 1, completedAt: null });
      await part(1, false, [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, variableAttribute: [at('60', 'ReadWrite')] }]);
      const done = (await api('GET', `/api/cps/${rawId}/deviceModel`)).body;
      expect(done.report).toMatchObject({ parts: 2, completedAt: expect.any(String) });
      expect(done.variables.map((v: any) => [v.variable, v.value])).toEqual([['HeartbeatInterval', '60'], ['BasicAuthPassword', null], ['TxStartPoint', 'PowerPathClosed']]);
    } finally {
      await raw.close();
    }
  });

  it('a charger that is not connected: 10030, audited, the last report kept', async () => {
    const kept = (await model()).report;
    await sim.stop();
    await eventually(async () => (await s.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag === 0);
    expect((await api('POST', `/api/cps/${cpId}/deviceModel/read`, {})).body).toMatchObject({ status: 'error', errorCode: 10030 });
    expect((await lastAudit()).new_data).toMatchObject({ command: 'GetBaseReport', outcome: { errorCode: 10030 } });
    expect((await model()).report).toEqual(kept);
  });
});

