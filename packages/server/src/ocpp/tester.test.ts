import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES, P, readPrivilege, requestTypeId, storedText } from '@ev/core';
import { hashPassword } from '../crypto/passwords.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';
import { CHARGER_ACTIONS } from './handlers.ts';
import { schemaProblem } from './protocol.ts';
import { SIMULATOR_MESSAGES, TESTER_MESSAGES, simulatorTemplates, testerTemplates } from './tester.ts';

/** The charger message tester /test/cp_request (spec part 1 §2). */
describe('OCPP message tester', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let onlineId: number;
  let offlineId: number;
  let locId: number;
  const received: [string, any][] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    onlineId = await addCharger(s.db, 'CP-T1', { locId });
    offlineId = await addCharger(s.db, 'CP-T2', { locId });
    const handlers: Record<string, (params: any) => unknown> = {};
    for (const action of ['ChangeAvailability', 'SetChargingProfile', 'TriggerMessage']) {
      handlers[action] = (params) => {
        received.push([action, params]);
        return { status: 'Accepted' };
      };
    }
    cp = await connectCharger(s.wsUrl, 'CP-T1', { handlers });
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  const send = (body: unknown, token = admin) => s.api('POST', '/api/test/cp_request', { token, body });
  const connector = async (cpId: number, connectorId: number) =>
    (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status ?? null;
  const user = async (name: string, privileges: string[], sites: number[]) => {
    const [role] = await s.db.query(`INSERT INTO roles (role, name_chi, level) VALUES ($1, $1, 5) RETURNING id`, [name]);
    await s.db.query(
      `INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, id FROM privileges WHERE name = ANY($2::text[])`,
      [role.id, privileges],
    );
    const [u] = await s.db.query(
      `INSERT INTO users (name, role_id, username, password_hash, cp_loc_flag) VALUES ($1, $2, $1, $3, 0) RETURNING id`,
      [name, role.id, await hashPassword(`${name}-password`)],
    );
    for (const site of sites) await s.db.query(`INSERT INTO user_sites (user_id, loc_id) VALUES ($1, $2)`, [u.id, site]);
    return s.login(name, `${name}-password`);
  };
  const request = async (id: number) => (await s.db.query(`SELECT * FROM cp_requests WHERE req_id = $1`, [id]))[0];

  it('offers a schema-valid template for each of the 11 whitelisted messages', async () => {
    const res = await s.api('GET', '/api/test/cp_request/templates', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: any) => m.action).sort()).toEqual([
      'Authorize', 'BootNotification', 'ChangeAvailability', 'DataTransfer', 'Heartbeat', 'MeterValues', 'SetChargingProfile',
      'StartTransaction', 'StatusNotification', 'StopTransaction', 'TriggerMessage',
    ]);
    for (const m of res.body.messages) expect(schemaProblem(m.action, 'req', m.template), m.action).toBeNull();
    expect(Object.keys(testerTemplates()).sort()).toEqual(TESTER_MESSAGES.map((m) => m.action).sort());
  });

  it('injects a StatusNotification as a connected charger: stored and applied like the charger\'s own', async () => {
    const res = await send({ cpId: onlineId, action: 'StatusNotification', payload: { connectorId: 1, errorCode: 'NoError', status: 'Preparing' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', data: { response: {} } });
    expect(await connector(onlineId, 1)).toBe('Preparing');
    const row = await request(res.body.data.request_id);
    expect(row).toMatchObject({ cp_id: onlineId, request_type: 2, connector_id: 1, connector_status: 'Preparing', request_data: { status: 'Preparing' } });
    expect(res.body.data.request).toMatchObject({ req_id: row.req_id, request_type: 2, cp_no: 'CP-T1', connector_status: 'Preparing' });
    // The charger's own next report still applies on top.
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    expect(await connector(onlineId, 1)).toBe('Available');
  });

  it('injects messages for a charger that is not connected', async () => {
    const res = await send({ cpId: offlineId, action: 'StatusNotification', payload: { connectorId: 2, errorCode: 'NoError', status: 'Faulted' } });
    expect(res.body).toMatchObject({ status: 'success', data: { response: {} } });
    expect(await connector(offlineId, 2)).toBe('Faulted');
    expect(await request(res.body.data.request_id)).toMatchObject({ cp_id: offlineId, request_type: 2, connector_status: 'Faulted' });
    const [cps] = await s.db.query(`SELECT connectorb_status, online_flag FROM cps WHERE cp_id = $1`, [offlineId]);
    expect(cps).toMatchObject({ connectorb_status: 'Faulted', online_flag: 0 });

    const hb = await send({ cpId: offlineId, action: 'Heartbeat', payload: {} });
    expect(hb.body).toMatchObject({ status: 'success', data: { response: { currentTime: expect.any(String) } } });
    expect((await request(hb.body.data.request_id)).request_type).toBe(6);
  });

  it('refuses a payload that breaks the OCPP schema (400) and changes nothing', async () => {
    const before = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`);
    const res = await send({ cpId: offlineId, action: 'StatusNotification', payload: { connectorId: 2, errorCode: 'NoError', status: 'Sleeping' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/status/);
    expect((await send({ cpId: offlineId, action: 'Reset', payload: { type: 'Hard' } })).status).toBe(400);
    expect((await send({ cpId: offlineId, action: 'StatusNotification', payload: 'x' })).status).toBe(400);
    expect(await connector(offlineId, 2)).toBe('Faulted');
    expect(await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`)).toEqual(before);
  });

  it('words a schema problem as a message key with its parameters, for the reader\'s language', async () => {
    const bad = (payload: unknown) => send({ cpId: offlineId, action: 'StatusNotification', payload });
    expect((await bad({ connectorId: 2, errorCode: 'NoError', status: 'Sleeping' })).body).toEqual({
      errors: [storedText('msg.log.schema.enum', { path: '/status', values: 'Available, Preparing, Charging, SuspendedEVSE, SuspendedEV, Finishing, Reserved, Unavailable, Faulted' })],
      fields: { payload: 'format_error' },
    });
    expect((await bad({ connectorId: 2, errorCode: 'NoError' })).body.errors).toEqual([storedText('msg.log.schema.required', { path: 'payload', name: 'status' })]);
  });

  it('stores a MeterValues at the time it was sent, not at the meter\'s timestamp', async () => {
    const payload = { connectorId: 1, meterValue: [{ timestamp: '2020-01-01T00:00:00.000Z', sampledValue: [{ value: '1000' }] }] };
    const res = await send({ cpId: offlineId, action: 'MeterValues', payload });
    expect(res.body.status).toBe('success');
    const row = await request(res.body.data.request_id);
    expect(Math.abs(Date.now() - new Date(row.cre_dttm).getTime())).toBeLessThan(60_000);
  });

  it('sends central-system messages to the connected charger, 10030 when it is offline', async () => {
    const res = await send({ cpId: onlineId, action: 'TriggerMessage', payload: { requestedMessage: 'Heartbeat' } });
    expect(res.body).toMatchObject({ status: 'success', data: { response: { status: 'Accepted' } } });
    expect(received.at(-1)).toEqual(['TriggerMessage', { requestedMessage: 'Heartbeat' }]);
    expect(await request(res.body.data.request_id)).toMatchObject({ cp_id: onlineId, request_type: 19, response_data: { status: 'Accepted' } });

    const change = await send({ cpId: onlineId, action: 'ChangeAvailability', payload: { connectorId: 0, type: 'Operative' } });
    expect(change.body.status).toBe('success');
    expect(received.at(-1)).toEqual(['ChangeAvailability', { connectorId: 0, type: 'Operative' }]);

    const offline = await send({ cpId: offlineId, action: 'TriggerMessage', payload: { requestedMessage: 'Heartbeat' } });
    expect(offline.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_OFFLINE, data: { request_id: null } });
  });

  it('needs its privilege or cstDebug (403) and keeps site-restricted users to their sites', async () => {
    const other = await addSite(s.db);
    const status = { cpId: offlineId, action: 'StatusNotification', payload: { connectorId: 1, errorCode: 'NoError', status: 'Available' } };

    const none = await user('plain', [P.REMOTE_RESET_CHARGER], [locId]);
    expect((await send(status, none)).status).toBe(403);
    expect((await s.api('GET', '/api/test/cp_request/templates', { token: none })).status).toBe(403);

    const elsewhere = await user('tester', [readPrivilege('test/cp_request')], [other]);
    expect((await send(status, elsewhere)).body).toEqual({ status: 'error', errorCode: ERROR_CODES.CP_NOT_FOUND, data: { response: null, request_id: null } });
    expect(await connector(offlineId, 1)).toBeNull();

    const debug = await user('debugger', [P.CST_DEBUG], [locId]);
    expect((await send(status, debug)).body.status).toBe('success');
    expect(await connector(offlineId, 1)).toBe('Available');
  });

  describe('charger simulator /lms/cp_simulator (the same route code, the LMS set)', () => {
    const simulate = (body: unknown, token = admin) => s.api('POST', '/api/lms/cp_simulator', { token, body });

    it('offers every charger-initiated action the central system handles, with schema-valid LMS templates', async () => {
      const res = await s.api('GET', '/api/lms/cp_simulator/templates', { token: admin });
      expect(res.status).toBe(200);
      expect([...new Set(res.body.messages.map((m: any) => m.action))].sort()).toEqual([...CHARGER_ACTIONS].sort());
      expect(res.body.messages.every((m: any) => m.direction === 'in')).toBe(true);
      for (const m of res.body.messages) expect(schemaProblem(m.action, 'req', m.template), m.name).toBeNull();
      for (const m of SIMULATOR_MESSAGES) expect(simulatorTemplates()[m.name], m.name).toBeDefined();
      const meter = res.body.messages.find((m: any) => m.name === 'MeterValues').template;
      const sampled = meter.meterValue[0].sampledValue;
      expect(sampled.filter((v: any) => v.measurand === 'Current.Import').map((v: any) => v.phase)).toEqual(['L1', 'L2', 'L3']);
      expect(sampled.filter((v: any) => v.measurand === 'Power.Active.Import').map((v: any) => v.phase)).toEqual(['L1', 'L2', 'L3']);
      expect(res.body.messages.filter((m: any) => m.action === 'StatusNotification').map((m: any) => m.template.status)).toEqual(['Charging', 'SuspendedEVSE']);
    });

    it('injects a MeterValues with per-phase current as the charger: stored with its highest phase', async () => {
      const timestamp = new Date().toISOString();
      const phase = (phase: string, value: string, measurand = 'Current.Import', unit = 'A') => ({ value, measurand, phase, unit });
      const payload = {
        connectorId: 1,
        meterValue: [{
          timestamp,
          sampledValue: [
            { value: '2500', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
            phase('L1', '15.5'), phase('L2', '16.2'), phase('L3', '14.8'),
            phase('L1', '3565', 'Power.Active.Import', 'W'),
            phase('L1-N', '229', 'Voltage', 'V'), phase('L2-N', '231', 'Voltage', 'V'),
          ],
        }],
      };
      const res = await simulate({ cpId: onlineId, action: 'MeterValues', payload });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'success', data: { response: {}, request: { request_type: requestTypeId('MeterValues', 'in'), cp_no: 'CP-T1' } } });
      const row = await request(res.body.data.request_id);
      expect(row).toMatchObject({ cp_id: onlineId, request_type: requestTypeId('MeterValues', 'in'), connector_id: 1, request_data: payload });
      expect(Number(row.ampere)).toBeCloseTo(16.2);
      expect(Number(row.voltage)).toBeCloseTo(230);
      expect(Number(row.energy)).toBe(2500);
    });

    it('injects the simulator-only notifications and refuses a type outside its set (400), storing nothing', async () => {
      const fw = await simulate({ cpId: offlineId, action: 'FirmwareStatusNotification', payload: { status: 'Installed' } });
      expect(fw.body).toMatchObject({ status: 'success', data: { response: {} } });
      // Not in the tester's set.
      expect((await send({ cpId: offlineId, action: 'FirmwareStatusNotification', payload: { status: 'Installed' } })).status).toBe(400);

      const before = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`);
      const sent = received.length;
      for (const action of ['TriggerMessage', 'SetChargingProfile', 'Reset']) {
        const res = await simulate({ cpId: onlineId, action, payload: testerTemplates()[action] ?? { type: 'Hard' } });
        expect(res.status, action).toBe(400);
      }
      expect(received.length).toBe(sent);
      expect(await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`)).toEqual(before);
    });

    it('needs READ_LMS_CP_SIMULATOR or cstDebug (403); the tester\'s privilege is not enough', async () => {
      const status = { cpId: offlineId, action: 'StatusNotification', payload: { connectorId: 2, errorCode: 'NoError', status: 'SuspendedEVSE' } };
      const tester = await user('tester-only', [readPrivilege('test/cp_request')], [locId]);
      expect((await simulate(status, tester)).status).toBe(403);
      expect((await s.api('GET', '/api/lms/cp_simulator/templates', { token: tester })).status).toBe(403);

      const lms = await user('lms-sim', [readPrivilege('lms/cp_simulator')], [locId]);
      expect(readPrivilege('lms/cp_simulator')).toBe('READ_LMS_CP_SIMULATOR');
      expect((await simulate(status, lms)).body.status).toBe('success');
      expect(await connector(offlineId, 2)).toBe('SuspendedEVSE');
      expect((await send(status, lms)).status).toBe(403);

      const debug = await user('sim-debugger', [P.CST_DEBUG], [locId]);
      expect((await s.api('GET', '/api/lms/cp_simulator/templates', { token: debug })).status).toBe(200);
    });
  });
});
