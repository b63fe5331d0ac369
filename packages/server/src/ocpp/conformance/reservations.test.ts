import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger, eventually } from '../../testing/ocpp-support.ts';
import { expireReservations } from '../../reservations/service.ts';

/**
 * OCTT 1.6 (Central System) reservation cases, through the portal's reservation routes: the tool plays the
 * charger (a strict ocpp-rpc client, which checks every request of the server against the OCPP 1.6 schemas),
 * answers ReserveNow and CancelReservation as each case scripts, and the operator acts in the portal.
 */
describe('OCTT 1.6 reservations', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  let reserveAnswer = 'Accepted';
  let cancelAnswer = 'Accepted';
  const received: { action: string; params: any }[] = [];
  const last = (action: string) => received.filter((r) => r.action === action).at(-1)?.params;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT-RESV', { locId: await addSite(s.db) });
    // One holder's two cards: the second may use a reservation of the first by its parentIdTag (TC_053).
    await addCard(s.db, ['OCTT-TAG', 'OCTT-MATE']);
    await addCard(s.db, ['OCTT-OTHER']);
    charger = await connectCharger(s.wsUrl, 'OCTT-RESV', {
      handlers: {
        ReserveNow: (p) => (received.push({ action: 'ReserveNow', params: p }), { status: reserveAnswer }),
        CancelReservation: (p) => (received.push({ action: 'CancelReservation', params: p }), { status: cancelAnswer }),
      },
    });
    await charger.call('BootNotification', { chargePointVendor: 'OCTT', chargePointModel: 'Tool' });
    for (const connectorId of [1, 2]) await status(connectorId, 'Available');
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const status = (connectorId: number, st: string) => charger.call('StatusNotification', { connectorId, errorCode: 'NoError', status: st, timestamp: new Date().toISOString() });
  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const reserve = (connectorId: number, over: object = {}) =>
    api('POST', '/api/reservations', { cp_id: cpId, connector_id: connectorId, id_tag: 'OCTT-TAG', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString(), ...over });
  const stored = async (id: number) => (await s.db.query(`SELECT * FROM reservations WHERE reservation_id = $1`, [id]))[0];
  const shown = async (connectorId: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status;
  const usedBy = (id: number) => eventually(async () => ((await stored(id)).status === 'Used' ? stored(id) : null));

  /** The tool starts a transaction with the reservation, as a charger does, and stops it. */
  async function chargeWith(idTag: string, connectorId: number, reservationId: number): Promise<number> {
    await status(connectorId, 'Preparing');
    const started = await charger.call('StartTransaction', { connectorId, idTag, meterStart: 0, timestamp: new Date().toISOString(), reservationId }) as any;
    expect(started.idTagInfo.status).toBe('Accepted');
    await status(connectorId, 'Charging');
    await charger.call('StopTransaction', { transactionId: started.transactionId, meterStop: 10, timestamp: new Date().toISOString(), reason: 'Local' });
    await status(connectorId, 'Available');
    return started.transactionId;
  }

  it('TC_046 Reservation of a connector - local start transaction', async () => {
    const res = await reserve(1);
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted' } });
    const id = res.body.data.reservation_id;
    expect(last('ReserveNow')).toEqual({ connectorId: 1, expiryDate: expect.any(String), idTag: 'OCTT-TAG', reservationId: id });
    await status(1, 'Reserved');
    expect(await shown(1)).toBe('Reserved');
    expect(await charger.call('Authorize', { idTag: 'OCTT-TAG' })).toEqual({ idTagInfo: { status: 'Accepted' } });
    const tranId = await chargeWith('OCTT-TAG', 1, id);
    const [session] = await s.db.query(`SELECT session_id FROM cp_sessions WHERE tran_id = $1`, [tranId]);
    expect(await usedBy(id)).toMatchObject({ status: 'Used', session_id: session.session_id });
  });

  it('TC_047 Reservation of a connector - expire', async () => {
    const expiry = new Date(Date.now() + 1000);
    const res = await reserve(1, { expiry_dttm: expiry.toISOString() });
    const id = res.body.data.reservation_id;
    expect(new Date(last('ReserveNow').expiryDate).getTime()).toBe(expiry.getTime());
    await status(1, 'Reserved');
    // The charger frees the connector at expiryDate; the central system ends the reservation at the same time.
    await status(1, 'Available');
    expect(await expireReservations(s.db, new Date(expiry.getTime() + 1))).toBeGreaterThanOrEqual(1);
    expect(await stored(id)).toMatchObject({ status: 'Expired' });
    expect(await shown(1)).toBe('Available');
  });

  for (const [n, answer] of [[1, 'Faulted'], [2, 'Occupied'], [3, 'Unavailable'], [4, 'Rejected']] as const) {
    it(`TC_048_${n} Reservation of a connector - ${answer}`, async () => {
      reserveAnswer = answer;
      try {
        const res = await reserve(2);
        expect(res.body).toMatchObject({ status: 'error', errorCode: 10032, data: { status: answer, answer } });
        expect(await stored(res.body.data.reservation_id)).toMatchObject({ status: answer });
        expect(await s.db.query(`SELECT 1 FROM reservations WHERE reservation_id = $1 AND status = 'Accepted'`, [res.body.data.reservation_id])).toHaveLength(0);
      } finally {
        reserveAnswer = 'Accepted';
      }
    });
  }

  it('TC_049 Reservation of a charge point - transaction', async () => {
    const res = await reserve(0);
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted', connector_id: 0 } });
    expect(last('ReserveNow')).toMatchObject({ connectorId: 0, reservationId: res.body.data.reservation_id });
    await chargeWith('OCTT-TAG', 2, res.body.data.reservation_id);
    expect(await usedBy(res.body.data.reservation_id)).toMatchObject({ status: 'Used' });
  });

  it('TC_051 Cancel reservation of a connector', async () => {
    const id = (await reserve(1)).body.data.reservation_id;
    await status(1, 'Reserved');
    expect((await api('POST', `/api/reservations/${id}/cancel`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('CancelReservation')).toEqual({ reservationId: id });
    await status(1, 'Available');
    expect(await stored(id)).toMatchObject({ status: 'Cancelled' });
    expect(await shown(1)).toBe('Available');
  });

  it('TC_052 Cancel reservation - rejected', async () => {
    const id = (await reserve(1)).body.data.reservation_id;
    cancelAnswer = 'Rejected';
    try {
      expect((await api('POST', `/api/reservations/${id}/cancel`)).body).toMatchObject({ status: 'error', errorCode: 10032, data: { status: 'Rejected' } });
      expect(await stored(id)).toMatchObject({ status: 'Accepted' });
    } finally {
      cancelAnswer = 'Accepted';
    }
    await api('POST', `/api/reservations/${id}/cancel`);
  });

  it('TC_053 Use a reserved connector with parentIdTag', async () => {
    const id = (await reserve(1, { parent_id_tag: 'OCTT-PARENT' })).body.data.reservation_id;
    expect(last('ReserveNow')).toMatchObject({ idTag: 'OCTT-TAG', parentIdTag: 'OCTT-PARENT', reservationId: id });
    await status(1, 'Reserved');
    // Another card of the same holder learns the parent; a card of another holder does not.
    expect(await charger.call('Authorize', { idTag: 'OCTT-MATE' })).toEqual({ idTagInfo: { status: 'Accepted', parentIdTag: 'OCTT-PARENT' } });
    expect(await charger.call('Authorize', { idTag: 'OCTT-OTHER' })).toEqual({ idTagInfo: { status: 'Accepted' } });
    await chargeWith('OCTT-MATE', 1, id);
    expect(await usedBy(id)).toMatchObject({ status: 'Used' });
  });
});
