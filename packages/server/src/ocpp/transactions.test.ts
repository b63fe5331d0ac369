import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, connectCharger } from '../testing/ocpp-support.ts';

const sample = (timestamp: string, wh: number, extra: object[] = []) => ({
  timestamp,
  sampledValue: [
    { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
    { value: '230.5', measurand: 'Voltage', phase: 'L1-N', unit: 'V' },
    { value: '229.5', measurand: 'Voltage', phase: 'L2-N', unit: 'V' },
    { value: '15.5', measurand: 'Current.Import', phase: 'L1', unit: 'A' },
    { value: '16', measurand: 'Current.Import', phase: 'L2', unit: 'A' },
    ...extra,
  ],
});

describe('OCPP transactions', () => {
  let s: TestServer;
  let cp: RPCClient;
  let cpId: number;
  beforeAll(async () => {
    s = await startTestServer();
    cpId = await addCharger(s.db, 'CP-T1');
    await addCard(s.db, ['TAG1', 'DUP', 'LOST', 'NEXT', 'OFFLINE', 'SAME']);
    cp = await connectCharger(s.wsUrl, 'CP-T1');
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  it('runs a session: start, meter values, stop with transactionData', async () => {
    const start = new Date(Date.now() - 3600_000);
    const at = (min: number) => new Date(start.getTime() + min * 60_000).toISOString();
    const res: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'TAG1', meterStart: 1000, timestamp: start.toISOString() });
    expect(res.transactionId).toBeGreaterThan(0);
    expect(res.idTagInfo.status).toBe('Accepted');
    const tx = res.transactionId;
    await cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [sample(at(10), 4000, [{ value: '41', measurand: 'SoC', location: 'EV', unit: 'Percent' }])] });
    await cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [{ timestamp: at(20), sampledValue: [{ value: '7.5', unit: 'kWh' }] }] });
    let [session] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tx]);
    expect(session).toMatchObject({ cp_id: cpId, cp_no: 'CP-T1', connector_id: 1, id_tag: 'TAG1', start_meter: 1000, running_pw_consume: 6500, start_soc: 41, energy: 7500 });
    expect(session.session_end_time).toBeNull();
    expect(session.voltage).toBeCloseTo(230);
    expect(session.ampere).toBe(16);

    const stop: any = await cp.call('StopTransaction', {
      transactionId: tx, meterStop: 11000, timestamp: at(50), reason: 'EVDisconnected', idTag: 'TAG1',
      transactionData: [sample(at(45), 10500, [{ value: '80', measurand: 'SoC', location: 'EV' }])],
    });
    expect(stop).toEqual({ idTagInfo: { status: 'Accepted' } });
    [session] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tx]);
    expect(session).toMatchObject({ end_meter: 11000, total_pw_consume: 10000, running_pw_consume: 10000, total_charge_time: 3000, stop_reason: 'EVDisconnected', end_soc: 80 });
    expect(new Date(session.session_end_time).toISOString()).toBe(at(50));

    const meters = await s.db.query(`SELECT ts, energy, voltage, ampere, soc FROM cp_meter_values WHERE session_id = $1 ORDER BY ts`, [session.session_id]);
    expect(meters.map((m) => m.energy)).toEqual([4000, 7500, 10500]);
    expect(new Date(meters[0].ts).toISOString()).toBe(at(10));
    const reqs = await s.db.query(`SELECT request_type, session_id, tran_id, energy, voltage, ampere, cre_dttm FROM cp_requests WHERE tran_id = $1 ORDER BY req_id`, [tx]);
    expect(reqs.map((r) => r.request_type)).toEqual([4, 11, 11, 5]);
    expect(reqs.every((r) => r.session_id === session.session_id)).toBe(true);
    expect(reqs[1]).toMatchObject({ energy: 4000, ampere: 16 });
    expect(new Date(reqs[1].cre_dttm).toISOString()).toBe(at(10));
  });

  it('gives a repeated StartTransaction the same transactionId, and a new start a new one', async () => {
    const ts = new Date().toISOString();
    const a: any = await cp.call('StartTransaction', { connectorId: 2, idTag: 'DUP', meterStart: 0, timestamp: ts });
    const b: any = await cp.call('StartTransaction', { connectorId: 2, idTag: 'DUP', meterStart: 0, timestamp: ts });
    expect(b.transactionId).toBe(a.transactionId);
    const c: any = await cp.call('StartTransaction', { connectorId: 2, idTag: 'DUP', meterStart: 0, timestamp: new Date(Date.now() + 1000).toISOString() });
    expect(c.transactionId).not.toBe(a.transactionId);
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_sessions WHERE id_tag = 'DUP'`);
    expect(n).toBe(2);
  });

  it('closes a session whose StopTransaction never arrived when the connector starts the next one', async () => {
    const t = (minAgo: number) => new Date(Date.now() - minAgo * 60_000).toISOString();
    const first: any = await cp.call('StartTransaction', { connectorId: 3, idTag: 'LOST', meterStart: 500, timestamp: t(60) });
    await cp.call('MeterValues', { connectorId: 3, transactionId: first.transactionId, meterValue: [sample(t(50), 2500, [{ value: '55', measurand: 'SoC', location: 'EV' }])] });
    await cp.call('MeterValues', { connectorId: 3, transactionId: first.transactionId, meterValue: [sample(t(40), 4500)] });
    const nextStart = t(30);
    const second: any = await cp.call('StartTransaction', { connectorId: 3, idTag: 'NEXT', meterStart: 4600, timestamp: nextStart });
    expect(second.transactionId).not.toBe(first.transactionId);
    const [stale] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [first.transactionId]);
    expect(stale).toMatchObject({ end_meter: 4500, total_pw_consume: 4000, total_charge_time: 1800, stop_reason: 'Other', end_soc: 55 });
    expect(stale.stop_note).toMatch(/No StopTransaction/);
    expect(new Date(stale.session_end_time).toISOString()).toBe(nextStart);
    const running = await s.db.query(`SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = 3 AND session_end_time IS NULL`, [cpId]);
    expect(running).toEqual([{ tran_id: second.transactionId }]);
    // The same StartTransaction sent again finds its session and closes nothing.
    const again: any = await cp.call('StartTransaction', { connectorId: 3, idTag: 'NEXT', meterStart: 4600, timestamp: nextStart });
    expect(again.transactionId).toBe(second.transactionId);
    expect(await s.db.query(`SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = 3 AND session_end_time IS NULL`, [cpId])).toEqual(running);
  });

  it('records a start whose idTag is refused as closed at once, never as a running session', async () => {
    const started = new Date(Date.now() - 60_000).toISOString();
    const res: any = await cp.call('StartTransaction', { connectorId: 4, idTag: 'NO-SUCH-CARD', meterStart: 700, timestamp: started });
    expect(res.idTagInfo.status).toBe('Invalid');
    const [refused] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [res.transactionId]);
    expect(refused).toMatchObject({ id_tag_status: 'Invalid', stop_reason: 'DeAuthorized', end_meter: 700, total_pw_consume: 0, total_charge_time: 0 });
    expect(refused.stop_note).toMatch(/refused/);
    expect(new Date(refused.session_end_time).toISOString()).toBe(started);
    expect(await s.db.query(`SELECT 1 FROM cp_sessions WHERE cp_id = $1 AND connector_id = 4 AND session_end_time IS NULL`, [cpId])).toEqual([]);
    // The charger stops it (StopTransactionOnInvalidId): its reading is kept, the refusal stays the reason.
    const stopped = new Date().toISOString();
    await cp.call('StopTransaction', { transactionId: res.transactionId, meterStop: 760, timestamp: stopped, reason: 'DeAuthorized' });
    const [after] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [res.transactionId]);
    expect(after).toMatchObject({ id_tag_status: 'Invalid', stop_reason: 'DeAuthorized', end_meter: 760, total_pw_consume: 60 });
    expect(new Date(after.session_end_time).toISOString()).toBe(stopped);
    // A later accepted start on the connector finds nothing left open to close.
    const next: any = await cp.call('StartTransaction', { connectorId: 4, idTag: 'TAG1', meterStart: 800, timestamp: new Date().toISOString() });
    expect(next.idTagInfo.status).toBe('Accepted');
    const [again] = await s.db.query(`SELECT stop_note FROM cp_sessions WHERE tran_id = $1`, [res.transactionId]);
    expect(again.stop_note).toMatch(/refused/);
  });

  it('answers and records StopTransaction and MeterValues for an unknown transaction', async () => {
    expect(await cp.call('MeterValues', { connectorId: 1, transactionId: 987654, meterValue: [sample(new Date().toISOString(), 5)] })).toEqual({});
    expect(await cp.call('StopTransaction', { transactionId: 987654, meterStop: 10, timestamp: new Date().toISOString() })).toEqual({});
    const reqs = await s.db.query(`SELECT request_type, session_id FROM cp_requests WHERE tran_id = 987654 ORDER BY req_id`);
    expect(reqs).toEqual([{ request_type: 11, session_id: null }, { request_type: 5, session_id: null }]);
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values WHERE cp_id = $1 AND session_id IS NULL`, [cpId]);
    expect(n).toBeGreaterThanOrEqual(1);
  });

  it('stores a replayed offline queue with the timestamps the charger gives', async () => {
    const t = (minAgo: number) => new Date(Date.now() - minAgo * 60_000).toISOString();
    const start: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'OFFLINE', meterStart: 0, timestamp: t(120) });
    await cp.call('MeterValues', { connectorId: 1, transactionId: start.transactionId, meterValue: [sample(t(100), 2000)] });
    await cp.call('StopTransaction', { transactionId: start.transactionId, meterStop: 3000, timestamp: t(90) });
    const [session] = await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [start.transactionId]);
    expect(Math.round((Date.now() - new Date(session.session_start_time).getTime()) / 60_000)).toBe(120);
    expect(session.total_charge_time).toBe(1800);
    expect(session.stop_reason).toBe('Local');
    const reqs = await s.db.query(`SELECT cre_dttm FROM cp_requests WHERE tran_id = $1 ORDER BY req_id`, [start.transactionId]);
    const ages = reqs.map((r) => Math.round((Date.now() - new Date(r.cre_dttm).getTime()) / 60_000));
    expect(ages).toEqual([120, 100, 90]);
  });

  it('serves two chargers at the same instant without a CALLERROR', async () => {
    const cps = await Promise.all(['CP-C1', 'CP-C2', 'CP-C3'].map(async (no) => {
      await addCharger(s.db, no);
      return connectCharger(s.wsUrl, no);
    }));
    const ts = new Date().toISOString();
    const results = await Promise.all(cps.flatMap((c) => [
      c.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' }),
      c.call('StartTransaction', { connectorId: 1, idTag: 'SAME', meterStart: 0, timestamp: ts }),
      c.call('Heartbeat', {}),
    ]));
    const starts = results.filter((r: any) => r?.transactionId).map((r: any) => r.transactionId);
    expect(new Set(starts).size).toBe(3);
    const mv = await Promise.all(cps.flatMap((c, i) =>
      Array.from({ length: 20 }, (_, k) => c.call('MeterValues', { connectorId: 1, transactionId: starts[i], meterValue: [sample(new Date(Date.now() + k * 1000).toISOString(), k * 100)] })),
    ));
    expect(mv).toHaveLength(60);
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values WHERE session_id = ANY($1::int[])`, [starts]);
    expect(n).toBe(60);
    await Promise.all(cps.map((c) => c.close()));
  });
});
