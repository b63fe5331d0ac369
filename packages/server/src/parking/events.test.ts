import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/**
 * The parking system's events through the external API (car in / out), the bay log they write,
 * and the licence plate the portal's start form and the apps read back (getLp).
 */
describe('parking events and licence plates', () => {
  let s: TestServer;
  let admin: string;
  let site: number;
  let cpId: number;
  const keys: Record<string, string> = {};
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const ext = (method: string, path: string, body?: unknown, appId = 'lprs') =>
    s.api(method, `/api/external/v1${path}`, { headers: { 'x-app-id': appId, 'x-api-key': keys[appId] }, body });
  const event = (body: Record<string, unknown>) => ext('POST', '/parking/events', body);
  const bayRow = async (bayId: string) => (await s.db.query(`SELECT * FROM bay WHERE "bayId" = $1 AND deleted_at IS NULL`, [bayId]))[0];
  const lastLog = async () => (await s.db.query(`SELECT * FROM bay_log ORDER BY id DESC LIMIT 1`))[0];
  const logCount = async () => (await s.db.query(`SELECT count(*)::int AS n FROM bay_log`))[0].n as number;
  const lp = async (connectorId: number, id = cpId, token = admin) => {
    const res = await api('GET', `/api/cps/getLp/${id}?connectorId=${connectorId}`, undefined, token);
    return res.body.status === 'success' ? JSON.parse(res.body.data) : res.body;
  };
  const bay = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/bay', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };

  beforeAll(async () => {
    // Entry times are answered in the sites' local time.
    s = await startTestServer({ timeZone: 'Asia/Hong_Kong' });
    admin = await s.login();
    site = await addSite(s.db);
    cpId = await addCharger(s.db, 'LP-1', { locId: site });
    for (const [appId, privilege_key] of [['lprs', 'EXT_LICENCE_PLATE'], ['mall', 'EXT_CHARGING'], ['all', 'EXT_ALL']]) {
      keys[appId] = (await api('POST', '/api/third_party_conf', { key_name: appId, app_id: appId, privilege_key })).body.data.api_key;
    }
    await bay({ bayId: 'L-1', bayName: 'Bay L1', cpId, connectorId: 1, mallId: 'MALL-1' });
  });
  afterAll(() => s.close());

  it('occupies the bay on a car in, logs it, and answers the plate to the portal and the apps alike', async () => {
    expect(await lp(1)).toEqual({ ResCode: 2, LPN: '', EntryTime: '', ResMsg: 'The bay of this connector is vacant' });
    const res = await event({ event: 'in', bayId: 'L-1', sessionId: 'S-1', licensePlate: 'AB1234', brand: 'BYD', image: 'https://lprs.example/img/1.jpg', time: '2026-11-23T02:05:06Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Occupied' } });
    expect(await bayRow('L-1')).toMatchObject({ status: 'Occupied', licensePlate: 'AB1234', brand: 'BYD', image: 'https://lprs.example/img/1.jpg', outTime: null });
    expect(await lastLog()).toMatchObject({
      sessionId: 'S-1', status: 'In', requestStatus: 'Accepted', bayUpdateStatus: 'Occupied', errorCode: null, relatedRsr: null,
      licensePlate: 'AB1234', imageLocalPath: 'https://lprs.example/img/1.jpg', locId: site, mallId: 'MALL-1',
    });
    expect(JSON.parse((await lastLog()).response)).toEqual(res.body);
    const [audit] = await s.db.query(`SELECT cre_user, target, action FROM portal_action_log ORDER BY id DESC LIMIT 1`);
    expect(audit).toEqual({ cre_user: 'app:lprs', target: 'bay', action: 'UPDATE' });

    // 10:05:06 in Hong Kong; the same answer through the portal and the external API.
    expect(await lp(1)).toEqual({ ResCode: 0, LPN: 'AB1234', EntryTime: '2026-11-23 10:05:06', ResMsg: 'OK' });
    const external = await ext('GET', '/chargers/LP-1/lp?connectorId=1');
    expect(external.body).toEqual((await api('GET', `/api/cps/getLp/${cpId}?connectorId=1`)).body);
  });

  it('answers a repeated event as the first time and changes nothing', async () => {
    const before = [await bayRow('L-1'), await logCount()];
    const again = await event({ event: 'in', bayId: 'L-1', sessionId: 'S-1', licensePlate: 'XX9999', time: '2026-11-23T03:00:00Z' });
    expect(again.body).toMatchObject({ status: 'success', data: { status: 'Occupied', repeated: true } });
    expect([await bayRow('L-1'), await logCount()]).toEqual(before);
  });

  it('refuses an out without its in, logs it, and changes nothing', async () => {
    const before = await bayRow('L-1');
    const res = await event({ event: 'out', bayId: 'L-1', sessionId: 'S-other', time: '2026-11-23T04:00:00Z' });
    expect(res.body).toMatchObject({ status: 'error', errorCode: 'car_not_in' });
    expect(await bayRow('L-1')).toEqual(before);
    expect(await lastLog()).toMatchObject({ sessionId: 'S-other', status: 'Out', requestStatus: 'Refused', errorCode: 'car_not_in', bayUpdateStatus: 'Unchanged' });
    const [err] = await s.db.query(`SELECT * FROM third_party_error_log ORDER BY id DESC LIMIT 1`);
    expect(err).toMatchObject({ app_id: 'lprs', action: 'parking_event', error_code: 'car_not_in' });
    expect(JSON.parse(err.reason)).toMatchObject({ key: 'msg.log.external.car_not_in', params: { sessionId: 'S-other', bayId: 'L-1' } });
  });

  it('vacates the bay on the car\'s out (once), and then has no plate to answer', async () => {
    const res = await event({ event: 'out', bayId: 'L-1', sessionId: 'S-1', licensePlate: 'AB1234', time: '2026-11-23T05:00:00Z' });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Vacant' } });
    const row = await bayRow('L-1');
    expect(row.status).toBe('Vacant');
    expect(new Date(row.outTime).toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(await lastLog()).toMatchObject({ status: 'Out', requestStatus: 'Accepted', bayUpdateStatus: 'Vacant' });
    expect(await lp(1)).toMatchObject({ ResCode: 2, LPN: '' });
    // The same out again: the first answer; another session's out at a vacant bay: refused.
    const count = await logCount();
    expect((await event({ event: 'out', bayId: 'L-1', sessionId: 'S-1', time: '2026-11-23T05:00:00Z' })).body).toMatchObject({ status: 'success', data: { repeated: true } });
    expect(await logCount()).toBe(count);
    expect((await event({ event: 'out', bayId: 'L-1', sessionId: 'S-2', time: '2026-11-23T05:01:00Z' })).body).toMatchObject({ errorCode: 'car_not_in' });
  });

  it('refuses an unknown bay and bad input, logged, nothing changed', async () => {
    const before = await s.db.query(`SELECT * FROM bay ORDER BY id`);
    const unknown = await event({ event: 'in', bayId: 'NOPE', sessionId: 'S-9', licensePlate: 'ZZ1', time: '2026-11-23T05:00:00Z' });
    expect(unknown.body).toMatchObject({ status: 'error', errorCode: 'unknown_bay' });
    expect(await lastLog()).toMatchObject({ sessionId: 'S-9', requestStatus: 'Refused', errorCode: 'unknown_bay', bayId: null });
    const bad: unknown[] = [
      {}, { event: 'parked', bayId: 'L-1', sessionId: 'S', time: '2026-11-23T05:00:00Z' }, { event: 'in', bayId: 'L-1', sessionId: 'S', time: 'yesterday' },
      { event: 'in', bayId: 'L-1', sessionId: 'S', time: '2026-11-23T05:00:00Z', extra: 1 }, { event: 'in', bayId: 'L-1', sessionId: 'x'.repeat(500), time: '2026-11-23T05:00:00Z' },
      [], 'text',
    ];
    for (const body of bad) {
      const count = await logCount();
      const res = await event(body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await logCount()).toBe(count + 1);
      expect(await lastLog()).toMatchObject({ requestStatus: 'Refused', errorCode: 'bad_input' });
    }
    expect(await s.db.query(`SELECT * FROM bay ORDER BY id`)).toEqual(before);
  });

  it('refuses a car in with 40006 when the connector is held by an RSR of another bay', async () => {
    // Bay M-1 on connector 2 starts an RSR; then it is moved to connector 3 and M-2 takes connector 2.
    const first = await bay({ bayId: 'M-1', bayName: 'Bay M1', cpId, connectorId: 2 });
    const [rsr] = await s.db.query(
      `INSERT INTO cp_rsr (cp_id, connector_id, bay_id, status, max_charging_unit, duration, unit_in_minutes) VALUES ($1, 2, $2, 'Charging', 1, 30, 30) RETURNING rsr_id`,
      [cpId, first],
    );
    expect((await api('PUT', `/api/bay/${first}`, { connectorId: 3 })).status).toBe(200);
    await bay({ bayId: 'M-2', bayName: 'Bay M2', cpId, connectorId: 2 });
    const res = await event({ event: 'in', bayId: 'M-2', sessionId: 'S-M2', licensePlate: 'CD5678', time: '2026-11-23T06:00:00Z' });
    expect(res.body).toMatchObject({ status: 'error', errorCode: 40006 });
    expect((await bayRow('M-2')).status).toBe('Vacant');
    expect(await lastLog()).toMatchObject({ requestStatus: 'Refused', errorCode: '40006', relatedRsr: rsr.rsr_id });
    // Once the RSR is over, the car is let in, and the bay log names no RSR.
    await s.db.query(`UPDATE cp_rsr SET status = 'Settled' WHERE rsr_id = $1`, [rsr.rsr_id]);
    expect((await event({ event: 'in', bayId: 'M-2', sessionId: 'S-M2', licensePlate: 'CD5678', time: '2026-11-23T06:00:00Z' })).body).toMatchObject({ status: 'success' });
    expect(await lp(2)).toMatchObject({ ResCode: 0, LPN: 'CD5678' });
  });

  it('names the RSR charging at the bay in its log', async () => {
    const id = await bay({ bayId: 'R-1', bayName: 'Bay R1', cpId, connectorId: 4 });
    const [rsr] = await s.db.query(
      `INSERT INTO cp_rsr (cp_id, connector_id, bay_id, status, max_charging_unit, duration, unit_in_minutes) VALUES ($1, 4, $2, 'RemoteStarted', 1, 30, 30) RETURNING rsr_id`,
      [cpId, id],
    );
    expect((await event({ event: 'in', bayId: 'R-1', sessionId: 'S-R1', licensePlate: 'EF1', time: '2026-11-23T07:00:00Z' })).body.status).toBe('success');
    expect(await lastLog()).toMatchObject({ requestStatus: 'Accepted', relatedRsr: rsr.rsr_id });
  });

  it('limits parking events to apps allowed them', async () => {
    const mall = await ext('POST', '/parking/events', { event: 'in', bayId: 'L-1', sessionId: 'S-5', time: '2026-11-23T05:00:00Z' }, 'mall');
    expect(mall.status).toBe(403);
    const all = await ext('POST', '/parking/events', { event: 'in', bayId: 'L-1', sessionId: 'S-5', licensePlate: 'GH2', time: '2026-11-23T05:00:00Z' }, 'all');
    expect(all.body.status).toBe('success');
    expect((await ext('GET', '/chargers/LP-1/lp?connectorId=1', undefined, 'mall')).status).toBe(403);
  });

  it('answers getLp only for a charger the user may start, with the spec\'s codes otherwise', async () => {
    expect(await lp(9)).toEqual({ ResCode: 1, LPN: '', EntryTime: '', ResMsg: 'No parking bay at this connector' });
    expect(await lp(1, 999_999)).toEqual({ status: 'error', errorCode: 10001 });
    expect((await ext('GET', '/chargers/NOPE/lp?connectorId=1')).body).toMatchObject({ status: 'error', errorCode: 10001 });
    const otherSite = await userWith(s, 'lp-elsewhere', [P.REMOTE_START_CHARGER], [await addSite(s.db)]);
    expect(await lp(1, cpId, otherSite)).toEqual({ status: 'error', errorCode: 10001 });
    const ownSite = await userWith(s, 'lp-here', [P.REMOTE_START_CHARGER], [site]);
    expect(await lp(1, cpId, ownSite)).toMatchObject({ ResCode: 0 });
    const noPrivilege = await userWith(s, 'lp-reader', ['READ_CPS']);
    expect((await api('GET', `/api/cps/getLp/${cpId}?connectorId=1`, undefined, noPrivilege)).status).toBe(403);
    expect((await api('GET', `/api/cps/getLp/${cpId}`)).status).toBe(400);
    expect((await api('GET', `/api/cps/getLp/${cpId}?connectorId=x`)).status).toBe(400);
    // Not a resource whose screens start a charge: refused by the params schema (400).
    expect((await api('GET', `/api/bay/getLp/${cpId}?connectorId=1`)).status).toBe(400);
  });
});
