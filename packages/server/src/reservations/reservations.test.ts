import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { createPrivilege, editPrivilege, readPrivilege, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, addSite, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';
import { addDemoReservations } from './demo.ts';
import { expireReservations } from './service.ts';

/** Issue 29: reservations through the portal's API, against the simulator over a real WebSocket. */
describe('reservations', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let offlineId: number;
  let sim: SimulatedCharger;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'SIM-RESV', { locId, password: 'sim-resv-pass' });
    offlineId = await addCharger(s.db, 'SIM-RESV-OFF', { locId });
    await addCard(s.db, ['RESV-A', 'RESV-B']);
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-RESV', password: 'sim-resv-pass', connectors: 2, reconnect: false });
    await sim.start();
    await eventually(async () => (await s.db.query(`SELECT 1 FROM cp_connectors WHERE cp_id = $1 AND connector_id = 2`, [cpId])).length);
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
  const reserve = (body: Record<string, unknown>, token = admin) =>
    api('POST', '/api/reservations', { cp_id: cpId, connector_id: 1, id_tag: 'RESV-A', expiry_dttm: inMinutes(30), ...body }, token);
  const row = async (id: unknown) => (await s.db.query(`SELECT * FROM reservations WHERE reservation_id = $1`, [id]))[0];
  const connector = async (id: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, id]))[0]?.status;

  it('refuses a reservation without CREATE_RESERVATIONS and a cancel without EDIT_RESERVATIONS (403)', async () => {
    const reader = await userWith(s, 'resv-reader', [readPrivilege('reservations'), readPrivilege('cps')]);
    expect((await reserve({}, reader)).status).toBe(403);
    expect((await api('POST', '/api/reservations/1/cancel', undefined, reader)).status).toBe(403);
    expect((await api('GET', '/api/reservations', undefined, reader)).status).toBe(200);
    expect(await s.db.query(`SELECT 1 FROM reservations`)).toHaveLength(0);
  });

  it('refuses bad input with 400 before anything is sent', async () => {
    const sent = async () => Number((await s.db.query(`SELECT count(*) AS n FROM cp_requests WHERE request_type = 26`))[0].n);
    const before = await sent();
    expect(await reserve({ expiry_dttm: inMinutes(-1) })).toMatchObject({ status: 400, body: { fields: { expiry_dttm: 'expired' } } });
    expect(await reserve({ id_tag: 'NOT-A-CARD' })).toMatchObject({ status: 400, body: { fields: { id_tag: 'invalid' } } });
    expect(await reserve({ connector_id: 7 })).toMatchObject({ status: 400, body: { fields: { connector_id: 'invalid' } } });
    expect((await reserve({ expiry_dttm: 'soon' })).status).toBe(400);
    expect((await reserve({ other: 1 })).status).toBe(400);
    expect(await sent()).toBe(before);
  });

  it('refuses an offline charger (10030) without storing a reservation, and an unknown charger (10001)', async () => {
    expect((await reserve({ cp_id: offlineId })).body).toEqual({ status: 'error', errorCode: 10030 });
    expect((await reserve({ cp_id: 999_999 })).body).toEqual({ status: 'error', errorCode: 10001 });
    expect(await s.db.query(`SELECT 1 FROM reservations WHERE cp_id = $1`, [offlineId])).toHaveLength(0);
  });

  it('reserves a connector: ReserveNow with the row id, stored Accepted, logged, audited, the connector Reserved', async () => {
    const res = await reserve({ connector_id: 1, expiry_dttm: '2099-01-01 10:00:00' });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted', connector_id: 1, id_tag: 'RESV-A', created_by: 'admin' } });
    const id = res.body.data.reservation_id;
    // A date without an offset is in the portal's time zone, as lists show it.
    expect(res.body.data.expiry_dttm).toBe('2099-01-01 10:00:00');
    expect(await row(id)).toMatchObject({ status: 'Accepted', answer: 'Accepted', ended_dttm: null });
    const [logged] = await s.db.query(`SELECT * FROM cp_requests WHERE request_type = 26 ORDER BY req_id DESC LIMIT 1`);
    expect(logged).toMatchObject({ cp_id: cpId, request_data: { reservationId: id, connectorId: 1, idTag: 'RESV-A' }, response_data: { status: 'Accepted' } });
    const audit = await s.db.query(`SELECT action, target FROM portal_action_log WHERE (target = 'reservations' AND target_id = $1) OR (action = 'COMMAND' AND new_data->>'command' = 'ReserveNow')`, [String(id)]);
    expect(audit.map((a: any) => a.action).sort()).toEqual(['COMMAND', 'CREATE']);
    expect(await eventually(async () => (await connector(1)) === 'Reserved')).toBe(true);
    expect(sim.reservations.list()).toEqual([expect.objectContaining({ reservationId: id, connectorId: 1 })]);
  });

  it('stores the charger\'s refusal (Occupied) as an error with the answer, not as Accepted', async () => {
    const res = await reserve({ connector_id: 1, id_tag: 'RESV-B' });
    expect(res.body).toMatchObject({ status: 'error', errorCode: 10032, data: { status: 'Occupied', answer: 'Occupied' } });
    expect(await row(res.body.data.reservation_id)).toMatchObject({ status: 'Occupied', ended_dttm: expect.any(Date) });
  });

  it('cancels with CancelReservation: Cancelled, the connector Available; a second cancel is 400', async () => {
    const [open] = await s.db.query(`SELECT reservation_id FROM reservations WHERE status = 'Accepted' AND cp_id = $1`, [cpId]);
    const editor = await userWith(s, 'resv-editor', [editPrivilege('reservations')]);
    expect((await api('POST', `/api/reservations/${open.reservation_id}/cancel`, undefined, editor)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(await row(open.reservation_id)).toMatchObject({ status: 'Cancelled' });
    expect(await eventually(async () => (await connector(1)) === 'Available')).toBe(true);
    expect((await s.db.query(`SELECT request_data FROM cp_requests WHERE request_type = 27 ORDER BY req_id DESC LIMIT 1`))[0].request_data).toEqual({ reservationId: open.reservation_id });
    expect(await api('POST', `/api/reservations/${open.reservation_id}/cancel`, undefined, editor)).toMatchObject({ status: 400, body: { fields: { status: 'not_editable' } } });
    expect((await api('POST', '/api/reservations/999999/cancel')).body).toEqual({ status: 'error', errorCode: 10001 });
  });

  it('ends a reservation when its card starts (Used, with the session) and expires the ones past their time', async () => {
    const creator = await userWith(s, 'resv-creator', [createPrivilege('reservations')]);
    const used = await reserve({ connector_id: 2 }, creator);
    expect(used.body.data).toMatchObject({ status: 'Accepted', created_by: 'resv-creator' });
    const tranId = await sim.startTransaction(2, 'RESV-A');
    const [start] = await s.db.query(`SELECT request_data FROM cp_requests WHERE request_type = $1 ORDER BY req_id DESC LIMIT 1`, [requestTypeId('StartTransaction', 'in')]);
    expect(start.request_data.reservationId).toBe(used.body.data.reservation_id);
    const after = await eventually(async () => ((await row(used.body.data.reservation_id)).status === 'Used' ? row(used.body.data.reservation_id) : null));
    const [session] = await s.db.query(`SELECT session_id FROM cp_sessions WHERE tran_id = $1`, [tranId]);
    expect(after).toMatchObject({ status: 'Used', session_id: session.session_id });
    await sim.stopTransaction(2);

    const soon = await reserve({ connector_id: 0, expiry_dttm: new Date(Date.now() + 1500).toISOString() });
    expect(soon.body.data.status).toBe('Accepted');
    expect(await expireReservations(s.db)).toBe(0);
    expect(await expireReservations(s.db, new Date(Date.now() + 2000))).toBe(1);
    expect(await row(soon.body.data.reservation_id)).toMatchObject({ status: 'Expired' });
  });

  it('adds the demo\'s past reservations once, listed with the charger (npm run demo)', async () => {
    const cpId = await addCharger(s.db, 'RESV-DEMO-1', { locId: await addSite(s.db) });
    await addDemoReservations(s.db, cpId, 'DEMO0001');
    await addDemoReservations(s.db, cpId, 'DEMO0001');
    const list = (await api('GET', `/api/reservations?cp_id=${cpId}&sort_by=reservation_id&order=asc`)).body.dataset.content;
    expect(list.map((r: any) => r.status)).toEqual(['Used', 'Expired']);
  });
});
