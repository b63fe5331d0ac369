import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedCharger } from '@ev/simulator';
import { editPrivilege, P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addSite } from '../testing/ocpp-support.ts';
import { startConfiguredCharger } from '../testing/config-chargers.ts';
import { userWith } from '../testing/users.ts';
import { compare } from './config-readback.ts';

/** Issue 29: ClearCache, and a charger's configuration read back, against the simulator over a real WebSocket. */
describe('ClearCache and the configuration read back', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    // Its current configuration (DRIFT_CONFIG) wants a 30 s sample interval (the charger has 60), the session
    // ended on unplug (the charger does so), and a vendor setting that goes as DataTransfer.
    ({ cpId, sim } = await startConfiguredCharger(s, 'SIM-CFG', { locId: await addSite(s.db), password: 'sim-cfg-pass' }));
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const lastAudit = async () => (await s.db.query(`SELECT * FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id DESC LIMIT 1`))[0];
  const lastRequest = async (type: number) => (await s.db.query(`SELECT * FROM cp_requests WHERE request_type = $1 ORDER BY req_id DESC LIMIT 1`, [type]))[0];

  it('clears the charger\'s authorization cache: 403 without the privilege, Accepted with it, audited and logged', async () => {
    const none = await userWith(s, 'nocache', [P.REMOTE_RESET_CHARGER]);
    expect((await api('GET', `/api/cps/clearCache/${cpId}`, undefined, none)).status).toBe(403);
    const clearer = await userWith(s, 'clearer', [P.CLEAR_CACHE]);
    const res = await api('GET', `/api/cps/clearCache/${cpId}`, undefined, clearer);
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(await lastAudit()).toMatchObject({ target: 'cps', target_id: String(cpId), cre_user: 'clearer', new_data: { command: 'ClearCache' } });
    expect(await lastRequest(24)).toMatchObject({ cp_id: cpId, response_data: { status: 'Accepted' } });
    expect((await api('GET', `/api/cps/clearCache/999999`)).body).toEqual({ status: 'error', errorCode: 10001 });
  });

  it('reads every key, marks drift against the configuration and labels vendor settings as DataTransfer', async () => {
    expect((await api('GET', `/api/cps/${cpId}/getConfiguration`)).body).toMatchObject({ configurationKey: [], unknownKey: [], readAt: null });
    const res = await api('POST', `/api/cps/${cpId}/getConfiguration`);
    expect(res.status).toBe(200);
    const keys = new Map(res.body.configurationKey.map((k: any) => [k.key, k]));
    expect(keys.size).toBeGreaterThan(20);
    expect(keys.get('NumberOfConnectors')).toMatchObject({ readonly: true, value: '2', wanted: null, drift: false });
    expect(keys.get('MeterValueSampleInterval')).toMatchObject({
      readonly: false, value: '60', wanted: { setting: 'Meter Value Sample Interval (s)', value: '30' }, drift: true,
    });
    expect(keys.get('StopTransactionOnEVSideDisconnect')).toMatchObject({ value: 'true', wanted: { value: 'true' }, drift: false });
    expect(res.body.drift).toEqual([{ setting: 'Meter Value Sample Interval (s)', key: 'MeterValueSampleInterval', wanted: '30', actual: '60', reason: 'differs' }]);
    expect(res.body.vendorSettings).toContainEqual(expect.objectContaining({ setting: 'Network Timeout (ms)', wanted: '5000', via: 'DataTransfer', lastAnswer: 'Accepted' }));
    expect(res.body.readAt).toEqual(expect.any(String));
    expect(await lastRequest(21)).toMatchObject({ cp_id: cpId, request_data: {} });
    expect((await lastAudit()).new_data).toMatchObject({ command: 'GetConfiguration', outcome: { status: 'success' } });
    // The read is stored: GET answers it.
    const stored = await api('GET', `/api/cps/${cpId}/getConfiguration`);
    expect(stored.body.configurationKey).toHaveLength(keys.size);
    expect(stored.body.drift).toEqual(res.body.drift);
  });

  it('reads named keys, an unknown one in unknownKey, and keeps the other keys of the last read', async () => {
    const res = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval', 'NoSuchKey'] });
    expect(res.body.configurationKey.map((k: any) => k.key)).toEqual(['HeartbeatInterval']);
    expect(res.body.unknownKey).toEqual(['NoSuchKey']);
    expect(await lastRequest(21)).toMatchObject({ request_data: { key: ['HeartbeatInterval', 'NoSuchKey'] }, response_data: { unknownKey: ['NoSuchKey'] } });
    const stored = await api('GET', `/api/cps/${cpId}/getConfiguration`);
    expect(stored.body.unknownKey).toEqual(['NoSuchKey']);
    expect(stored.body.configurationKey.length).toBeGreaterThan(20);
    expect((await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['x'], other: 1 })).status).toBe(400);
  });

  it('marks a key the configuration wants and the charger does not know', () => {
    const template = { keys: new Map([['StopTransactionOnEVSideDisconnect', { setting: 'End upon state A', value: 'true' }]]), vendor: [] };
    const out = compare([{ key: 'StopTransactionOnEVSideDisconnect', known: false, readonly: null, value: null, read_at: new Date() }], template);
    expect(out.unknownKey).toEqual(['StopTransactionOnEVSideDisconnect']);
    expect(out.drift).toEqual([{ setting: 'End upon state A', key: 'StopTransactionOnEVSideDisconnect', wanted: 'true', actual: null, reason: 'unknown' }]);
  });

  it('sets one key and answers the charger\'s status as given; a read-only key is refused without being sent', async () => {
    const set = (key: string, value: string, token = admin) => api('POST', `/api/cps/${cpId}/changeConfiguration`, { key, value }, token);
    expect((await set('MeterValueSampleInterval', '30')).body).toEqual({ key: 'MeterValueSampleInterval', answer: 'Accepted' });
    expect(sim.config.value('MeterValueSampleInterval')).toBe('30');
    expect(await lastRequest(20)).toMatchObject({ cp_id: cpId, request_data: { key: 'MeterValueSampleInterval', value: '30' }, response_data: { status: 'Accepted' } });
    expect((await lastAudit()).new_data).toMatchObject({ command: 'ChangeConfiguration', params: { key: 'MeterValueSampleInterval', value: '30' } });
    // After a read of that key, no drift is left.
    const again = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['MeterValueSampleInterval'] });
    expect(again.body.drift).toEqual([]);
    expect((await api('GET', `/api/cps/${cpId}/getConfiguration`)).body.drift).toEqual([]);

    // The charger's own answers: a bad value Rejected, an unknown key NotSupported.
    expect((await set('HeartbeatInterval', 'soon')).body).toEqual({ key: 'HeartbeatInterval', answer: 'Rejected' });
    expect((await set('NoSuchKey', '1')).body).toEqual({ key: 'NoSuchKey', answer: 'NotSupported' });

    // Read-only in the last read: refused before sending.
    const before = (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 20`))[0].n;
    const ro = await set('NumberOfConnectors', '4');
    expect(ro.status).toBe(400);
    expect(ro.body.fields).toEqual({ key: 'not_editable' });
    // The password only through its own action, which keeps the stored hash in step (any spelling of the key).
    const password = await set('authorizationKey', '30313233343536373839303132333435');
    expect(password.status).toBe(400);
    expect(password.body.fields).toEqual({ key: 'not_editable' });
    expect((await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 20`))[0].n).toBe(before);
  });

  it('needs its privileges: reading GET_CONFIGURATION, setting also EDIT_CP_CONFIG', async () => {
    const nobody = await userWith(s, 'nocfg', [P.CP_CONFIG, editPrivilege('cp_config')]);
    expect((await api('GET', `/api/cps/${cpId}/getConfiguration`, undefined, nobody)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/getConfiguration`, {}, nobody)).status).toBe(403);
    expect((await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'HeartbeatInterval', value: '30' }, nobody)).status).toBe(403);
    const reader = await userWith(s, 'reader', [P.GET_CONFIGURATION]);
    expect((await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval'] }, reader)).status).toBe(200);
    expect((await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'HeartbeatInterval', value: '30' }, reader)).status).toBe(403);
    const setter = await userWith(s, 'setter', [P.GET_CONFIGURATION, editPrivilege('cp_config')]);
    expect((await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'HeartbeatInterval', value: '45' }, setter)).body.answer).toBe('Accepted');
    // Kept to other sites: the charger does not exist for the user.
    const elsewhere = await userWith(s, 'elsewhere', [P.GET_CONFIGURATION], [await addSite(s.db)]);
    expect((await api('POST', `/api/cps/${cpId}/getConfiguration`, {}, elsewhere)).body).toEqual({ status: 'error', errorCode: 10001 });
  });
});
