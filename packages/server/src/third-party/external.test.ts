import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { storedText } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, eventually } from '../testing/ocpp-support.ts';
import { EXTERNAL_CALLS_PER_MINUTE } from './external.ts';

/** The external API of mall and parking apps, against a simulated charger over a real WebSocket. */
describe('external API for third-party apps', () => {
  let s: TestServer;
  let admin: string;
  let sim: SimulatedCharger;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    await addCharger(s.db, 'EXT-1', { password: 'ext-pass' });
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'EXT-1', password: 'ext-pass', connectors: 2, reconnect: false });
    await sim.start();
    for (const [appId, privilege_key] of [['mall', 'EXT_CHARGING'], ['parking', 'EXT_LICENCE_PLATE']]) {
      const res = await s.api('POST', '/api/third_party_conf', { token: admin, body: { key_name: appId, app_id: appId, privilege_key } });
      keys[appId] = res.body.data.api_key;
    }
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const ext = (method: string, path: string, appId: string, body?: unknown, key = keys[appId]) =>
    s.api(method, `/api/external/v1${path}`, { headers: { 'x-app-id': appId, 'x-api-key': key }, body });
  const lastLog = async () => (await s.db.query(`SELECT * FROM third_party_error_log ORDER BY id DESC LIMIT 1`))[0];
  const session = async (tx: number) => (await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tx]))[0];

  it('starts and stops a charge, audited with the app as the actor', async () => {
    const start = await ext('POST', '/chargers/EXT-1/start', 'mall', { connectorId: 1, minutes: 30, memberId: 'M-77', mallId: 'MALL-9' });
    expect(start.body).toMatchObject({ status: 'success' });
    await eventually(async () => sim.transactionId(1) !== undefined);
    const tx = sim.transactionId(1)!;
    await eventually(async () => (await session(tx)) !== undefined);
    expect((await session(tx)).id_tag).toBe('M-77');
    const stop = await ext('POST', '/chargers/EXT-1/stop', 'mall', { connectorId: 1, memberId: 'M-77' });
    expect(stop.body).toMatchObject({ status: 'success' });
    await eventually(async () => (await session(tx)).session_end_time !== null);
    expect((await session(tx)).stop_reason).toBe('Remote');
    const audit = await s.db.query(`SELECT cre_user, user_id, new_data FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id`);
    expect(audit.map((a) => [a.cre_user, a.user_id])).toEqual([['app:mall', null], ['app:mall', null]]);
  });

  it('refuses wrong credentials with 401 and logs them', async () => {
    const wrongKey = await ext('POST', '/chargers/EXT-1/start', 'mall', { connectorId: 1 }, 'not-the-key');
    expect(wrongKey.status).toBe(401);
    expect(await lastLog()).toMatchObject({ app_id: 'mall', action: 'remote_start', error_code: 'invalid_credentials', charger_id: 'EXT-1', connector_id: 1 });
    const unknownApp = await ext('POST', '/chargers/EXT-1/stop', 'nobody', { connectorId: 2 }, keys.mall);
    expect(unknownApp.status).toBe(401);
    expect(await lastLog()).toMatchObject({ app_id: 'nobody', error_code: 'invalid_credentials', connector_status: 'Available' });
    // No headers at all, and a portal token is no key.
    const noHeaders = await s.api('POST', '/api/external/v1/chargers/EXT-1/stop', { token: admin, body: { connectorId: 1 } });
    expect(noHeaders.status).toBe(401);
  });

  it('limits an app to its privilege (403, logged)', async () => {
    const res = await ext('POST', '/chargers/EXT-1/start', 'parking', { connectorId: 1, carparkId: 'CP-3', memberId: 'M-1' });
    expect(res.status).toBe(403);
    expect(await lastLog()).toMatchObject({ app_id: 'parking', action: 'remote_start', error_code: 'not_permitted', carpark_id: 'CP-3', member_id: 'M-1',
      reason: storedText('msg.log.external.notAllowed', { privilege: 'EXT_LICENCE_PLATE', action: 'remote_start' }) });
    expect((await ext('GET', '/chargers/EXT-1/lp?connectorId=1', 'mall')).status).toBe(403);
  });

  it('answers the licence plate in the spec shape (no bay at this connector; plates: parking/events.test.ts)', async () => {
    const res = await ext('GET', '/chargers/EXT-1/lp?connectorId=1', 'parking');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(JSON.parse(res.body.data)).toEqual({ ResCode: 1, LPN: '', EntryTime: '', ResMsg: 'No parking bay at this connector' });
  });

  it('logs unknown chargers and refusals of the charger', async () => {
    expect((await ext('POST', '/chargers/NOPE/start', 'mall', { connectorId: 1, minutes: 30 })).body).toMatchObject({ status: 'error', errorCode: 10001 });
    expect(await lastLog()).toMatchObject({ charger_id: 'NOPE', error_code: '10001', reason: storedText('msg.error.10001') });
    expect((await ext('POST', '/chargers/EXT-1/stop', 'mall', { connectorId: 2 })).body).toMatchObject({ status: 'error', errorCode: 30002 });
    sim.respondTo('RemoteStartTransaction', () => ({ status: 'Rejected' }));
    expect((await ext('POST', '/chargers/EXT-1/start', 'mall', { connectorId: 2, minutes: 30 })).body).toMatchObject({ status: 'error', errorCode: 10032 });
    expect(await lastLog()).toMatchObject({ action: 'remote_start', error_code: '10032', connector_id: 2 });
    sim.disconnect();
    await eventually(async () => (await s.db.query(`SELECT online_flag FROM cps WHERE cp_no = 'EXT-1'`))[0].online_flag === 0);
    expect((await ext('POST', '/chargers/EXT-1/start', 'mall', { connectorId: 2, minutes: 30 })).body).toMatchObject({ status: 'error', errorCode: 10030 });
    expect(await lastLog()).toMatchObject({ error_code: '10030' });
  });

  it('answers bad input with a 400, never a 500, and logs it', async () => {
    const bodies: unknown[] = [{}, { connectorId: 'x' }, { connectorId: 0 }, { connectorId: 1, minutes: -5 }, { connectorId: 1, extra: 1 }, { connectorId: 1, memberId: 'x'.repeat(500) }, [], 'text'];
    for (const body of bodies) {
      const res = await ext('POST', '/chargers/EXT-1/start', 'mall', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const raw = await s.api('POST', '/api/external/v1/chargers/EXT-1/stop', { headers: { 'x-app-id': 'mall', 'x-api-key': keys.mall, 'content-type': 'application/json' }, raw: '{bad' });
    expect(raw.status).toBe(400);
    expect((await ext('GET', '/chargers/EXT-1/lp?connectorId=abc', 'parking')).status).toBe(400);
    expect((await ext('GET', `/chargers/${'9'.repeat(300)}/lp?connectorId=1`, 'parking')).status).toBeLessThan(500);
    expect(await lastLog()).toMatchObject({ app_id: 'parking', action: 'get_lp' });
  });

  it('limits each app to its calls a minute (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < EXTERNAL_CALLS_PER_MINUTE + 1; i++) statuses.push((await ext('GET', '/chargers/EXT-1/lp?connectorId=1', 'spammer', undefined, 'k')).status);
    expect(statuses.slice(0, EXTERNAL_CALLS_PER_MINUTE).every((st) => st === 401)).toBe(true);
    const limited = await ext('GET', '/chargers/EXT-1/lp?connectorId=1', 'spammer', undefined, 'k');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    // Another app is not affected.
    expect((await ext('GET', '/chargers/EXT-1/lp?connectorId=1', 'parking')).status).toBe(200);
  });
});
