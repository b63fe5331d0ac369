import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { addVouchers, ratedCharger } from './test-fixtures.ts';
import { RsrLifecycle } from './lifecycle.ts';

/** An RSR from the remote start to its payment, with a charger over a real WebSocket. */
describe('RSR lifecycle', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let rated: Awaited<ReturnType<typeof ratedCharger>>;
  let startAnswer = 'Accepted';
  const stops: number[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    // §9: 6.00 a 15-minute unit, 10 points a unit; grace 5 min; penalty 2.00 per started 15 min.
    rated = await ratedCharger(s.db, 'RSR-1', { fee: 600, point: 10, gracing_period: 5, penaltyUnit: 15, penaltyFee: 200 });
    await s.db.query(`INSERT INTO bay ("bayId", "bayName", "cpId", "connectorId", "cpLocId", "mallId") VALUES ('B-1', 'Bay 1', $1, 1, 'CARPARK-9', 'MALL-3')`, [rated.cpId]);
    cp = await connectCharger(s.wsUrl, 'RSR-1', {
      handlers: {
        RemoteStartTransaction: () => ({ status: startAnswer }),
        RemoteStopTransaction: (p) => {
          stops.push(p.transactionId);
          return { status: 'Accepted' };
        },
      },
    });
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  const start = (body: object, cpId = rated.cpId) => s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body });
  const rsr = async (id: number) => (await s.db.query(`SELECT * FROM cp_rsr WHERE rsr_id = $1`, [id]))[0];
  const vouchers = async (id: number) => s.db.query(`SELECT status, "rsrId", "redeemDttm" FROM voucher WHERE "rsrId" = $1 OR id = $1 ORDER BY id`, [id]);
  const ms = (v: unknown) => new Date(v as string).getTime();

  it('a charger without a rate keeps the plain remote start: no RSR', async () => {
    const plain = await addCharger(s.db, 'RSR-PLAIN');
    const c = await connectCharger(s.wsUrl, 'RSR-PLAIN', { handlers: { RemoteStartTransaction: () => ({ status: 'Accepted' }) } });
    const res = await start({ connectorId: 1, time: '30' }, plain);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(await s.db.query(`SELECT 1 FROM cp_rsr WHERE cp_id = $1`, [plain])).toEqual([]);
    await c.close();
  });

  it('refuses a rated start without a duration (10003) and writes nothing', async () => {
    expect((await start({ connectorId: 1, time: '0' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.INVALID_DURATION });
    expect((await start({ connectorId: 1 })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.INVALID_DURATION });
    expect(await s.db.query(`SELECT 1 FROM cp_rsr`)).toEqual([]);
  });

  it('refuses a bay that is not the connector\'s (40006) and a bad entry time (30001)', async () => {
    expect((await start({ connectorId: 1, time: '30', bayId: 'B-OTHER' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.BAY_OCCUPIED });
    expect((await start({ connectorId: 2, time: '30', bayId: 'B-1' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.BAY_OCCUPIED });
    expect((await start({ connectorId: 1, time: '30', entryTime: 'yesterday-ish' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.ENTRY_TIME });
    expect(await s.db.query(`SELECT 1 FROM cp_rsr`)).toEqual([]);
  });

  it('RemoteStarted → Charging → UnderPenalty → Unsettled with vouchers, penalty and payment to the cent', async () => {
    const [v1, v2] = await addVouchers(s.db, 'M-1', 2);
    await s.db.query(`UPDATE voucher SET "voucherExpireDate" = '2000-01-01' WHERE id = $1`, [v2]); // expired: not used
    const entry = '2026-01-02T03:04:05.000Z';
    const res = await start({ connectorId: 1, time: '40', memberId: 'M-1', lp: 'AB1234', entryTime: entry, bayId: 'B-1', remark: 'by phone' });
    expect(res.body.status).toBe('success');
    const id = res.body.data.rsrId as number;
    let r: any = await rsr(id);
    // 40 min at 15-min units: 3 units, the first paid by the voucher: 2 × 6.00 = 12.00, 2 × 10 points.
    expect(r).toMatchObject({
      status: 'RemoteStarted', max_charging_unit: 3, duration: 45, unit_in_minutes: 15, charging_fee: 1200, point: 20, redeem_voucher_sessions: 1,
      external_account_id: 'M-1', lp: 'AB1234', carpark_id: 'CARPARK-9', mall_id: 'MALL-3', remarks: 'by phone', is_free: 'N', charging_rate_id: rated.rateId,
    });
    expect(ms(r.in_time)).toBe(ms(entry));
    const [bay] = await s.db.query(`SELECT id FROM bay WHERE "bayId" = 'B-1'`);
    expect(r.bay_id).toBe(bay.id);
    expect(await vouchers(v1)).toEqual([expect.objectContaining({ status: 'Redeemed', rsrId: id, redeemDttm: expect.anything() })]);
    expect((await s.db.query(`SELECT status FROM voucher WHERE id = $1`, [v2]))[0].status).toBe('Valid');
    const [exchange] = await s.db.query(`SELECT cp_no, request_data, response_data FROM cp_rsr_request WHERE rsr_id = $1`, [id]);
    expect(exchange).toMatchObject({ cp_no: 'RSR-1', request_data: { action: 'RemoteStartTransaction', connectorId: 1, idTag: 'M-1' }, response_data: { status: 'success' } });

    // Charging began 70 minutes ago (a queued start): due at 45 min, grace until 50 min → under penalty at once.
    const began = new Date(Date.now() - 70 * 60_000);
    const tx: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'M-1', meterStart: 0, timestamp: began.toISOString() });
    r = await eventually(async () => ((await rsr(id)).status === 'UnderPenalty' ? rsr(id) : null));
    expect(r).toMatchObject({ status: 'UnderPenalty', tran_id: tx.transactionId, session_id: tx.transactionId });
    expect(ms(r.start_time)).toBe(began.getTime());
    expect(ms(r.end_time)).toBe(began.getTime() + 45 * 60_000);
    expect(ms(r.gracing_period_end_dttm)).toBe(began.getTime() + 50 * 60_000);

    // Its booked end has passed: the planned stop is sent, once, and kept with the RSR's exchanges.
    await s.app.ocpp.plannedStops.tick();
    await eventually(async () => (await s.db.query(`SELECT 1 FROM cp_rsr_request WHERE rsr_id = $1 AND request_data->>'action' = 'RemoteStopTransaction'`, [id])).length === 1);
    expect(stops).toContain(tx.transactionId);

    // Stopped 20 minutes past the grace: 2 penalty units of 2.00; owed 12.00 + 4.00.
    const stopAt = new Date(began.getTime() + 70 * 60_000);
    await cp.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 5000, timestamp: stopAt.toISOString(), reason: 'EVDisconnected' });
    r = await eventually(async () => ((await rsr(id)).status === 'Unsettled' ? rsr(id) : null));
    expect(r).toMatchObject({ status: 'Unsettled', payment_status: 'Unsettled', charging_fee: 1200, penalty_fee: 400, stop_type: 'EVDisconnected' });
    expect(ms(r.actual_finished_time)).toBe(stopAt.getTime());
    expect(ms(r.actual_end_time)).toBe(stopAt.getTime());
    expect(ms(r.ev_disconnect_time)).toBe(stopAt.getTime());
    const [payment] = await s.db.query(`SELECT id, status, amount FROM payment_result WHERE rsr_id = $1`, [id]);
    expect(payment).toMatchObject({ status: 'Unsettled', amount: 1600 });
    expect(r.payment_result_id).toBe(payment.id);
    // Every exchange with the charger about it: the start sent, the charger's start and stop.
    const exchanges = await s.db.query(`SELECT request_data->>'action' AS action, response_data FROM cp_rsr_request WHERE rsr_id = $1 ORDER BY rsr_req_id`, [id]);
    expect(exchanges.map((e) => e.action)).toEqual(['RemoteStartTransaction', 'StartTransaction', 'RemoteStopTransaction', 'StopTransaction']);
    expect(exchanges[1].response_data).toMatchObject({ transactionId: tx.transactionId, idTagInfo: { status: 'Accepted' } });

    // Shown in dollars, with its place.
    const view = await s.api('GET', `/api/cp_rsr/${id}`, { token: admin });
    expect(view.body).toMatchObject({ charging_fee: 12, penalty_fee: 4, cp_no: 'RSR-1', bay_name: 'Bay 1', carpark_id: 'CARPARK-9', payment_status_name: 'Unsettled' });
  });

  it('a free RSR stopped within its time is Settled at once with nothing owed', async () => {
    const res = await start({ connectorId: 2, time: '15', isFree: 'Y' });
    const id = res.body.data.rsrId as number;
    expect(await rsr(id)).toMatchObject({ status: 'RemoteStarted', is_free: 'Y', charging_fee: 0 });
    const tx: any = await cp.call('StartTransaction', { connectorId: 2, idTag: 'PORTAL', meterStart: 0, timestamp: new Date().toISOString() });
    await eventually(async () => (await rsr(id)).status === 'Charging');
    await cp.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 10, timestamp: new Date().toISOString(), reason: 'Local' });
    const r: any = await eventually(async () => ((await rsr(id)).status === 'Settled' ? rsr(id) : null));
    expect(r).toMatchObject({ status: 'Settled', payment_status: 'Settled', charging_fee: 0, penalty_fee: 0 });
    expect(r.settled_time).not.toBeNull();
    expect((await s.db.query(`SELECT status, amount FROM payment_result WHERE rsr_id = $1`, [id]))[0]).toEqual({ status: 'Settled', amount: 0 });
  });

  it('a charger that refuses the start: Failed, its vouchers given back', async () => {
    const [v] = await addVouchers(s.db, 'M-2', 1);
    startAnswer = 'Rejected';
    const res = await start({ connectorId: 1, time: '15', memberId: 'M-2' });
    startAnswer = 'Accepted';
    expect(res.body.status).toBe('error');
    const id = res.body.data.rsrId as number;
    expect((await rsr(id)).status).toBe('Failed');
    expect((await s.db.query(`SELECT status, "rsrId" FROM voucher WHERE id = $1`, [v]))[0]).toEqual({ status: 'Valid', rsrId: null });
    expect((await s.db.query(`SELECT response_data FROM cp_rsr_request WHERE rsr_id = $1`, [id]))[0].response_data).toMatchObject({ status: 'error' });
  });

  it('an offline charger: Failed', async () => {
    const off = await ratedCharger(s.db, 'RSR-OFF');
    const res = await start({ connectorId: 1, time: '15' }, off.cpId);
    expect(res.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_OFFLINE });
    expect((await rsr(res.body.data.rsrId)).status).toBe('Failed');
  });

  it('a start that never comes: Failed after a few minutes, vouchers back', async () => {
    const [v] = await addVouchers(s.db, 'M-3', 1);
    const id = (await start({ connectorId: 1, time: '15', memberId: 'M-3' })).body.data.rsrId as number;
    await s.app.rsr.sweep(new Date(Date.now() + 60_000));
    expect((await rsr(id)).status).toBe('RemoteStarted');
    await s.app.rsr.sweep(new Date(Date.now() + 6 * 60_000));
    expect((await rsr(id)).status).toBe('Failed');
    expect((await s.db.query(`SELECT status FROM voucher WHERE id = $1`, [v]))[0].status).toBe('Valid');
  });

  it('UnderPenalty survives a restart: the state is read from the database', async () => {
    const id = (await start({ connectorId: 1, time: '15' })).body.data.rsrId as number;
    const tx: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: new Date().toISOString() });
    await eventually(async () => (await rsr(id)).status === 'Charging');
    await s.app.rsr.stop(); // the server goes down
    const later = new RsrLifecycle(s.app); // … and a new one comes up, past the grace period (15 + 5 min)
    await later.sweep(new Date(Date.now() + 19 * 60_000));
    expect((await rsr(id)).status).toBe('Charging');
    await later.sweep(new Date(Date.now() + 21 * 60_000));
    expect((await rsr(id)).status).toBe('UnderPenalty');
    s.app.rsr.start(60_000);
    await cp.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 10, timestamp: new Date().toISOString(), reason: 'Local' });
    // Stopped in fact within its time: no penalty, 6.00 owed.
    const r: any = await eventually(async () => ((await rsr(id)).status === 'Unsettled' ? rsr(id) : null));
    expect(r).toMatchObject({ charging_fee: 600, penalty_fee: 0 });
  });
});
