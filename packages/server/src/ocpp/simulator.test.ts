import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, eventually } from '../testing/ocpp-support.ts';

/** The central system against the simulator package: the charger the demo and benchmarks use. */
describe('OCPP central system with the simulated charger', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let now = Date.now() - 24 * 3600_000;
  let sim: SimulatedCharger;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'SIM-1', { password: 'sim-pass' });
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards) VALUES ('fleet', 'CARD-1')`);
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-1', password: 'sim-pass', connectors: 2, reconnect: false, clock: () => now });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const session = async (tx: number) => (await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tx]))[0];

  it('boots, reports both connectors, charges a session and records its energy', async () => {
    const [cp] = await s.db.query(`SELECT online_flag, charge_point_vendor, connectora_status, connectorb_status FROM cps WHERE cp_id = $1`, [cpId]);
    expect(cp).toMatchObject({ online_flag: 1, charge_point_vendor: 'EVSim', connectora_status: 'Available', connectorb_status: 'Available' });
    await sim.plugIn(1);
    expect((await sim.authorize('CARD-1')).status).toBe('Accepted');
    const tx = await sim.startTransaction(1, 'CARD-1');
    now += 10 * 60_000;
    await sim.sendMeterValues(1);
    now += 10 * 60_000;
    await sim.stopTransaction(1);
    const row = await session(tx);
    expect(row.total_charge_time).toBe(1200);
    expect(row.total_pw_consume).toBe(sim.energyWh(1) - row.start_meter);
    expect(row.total_pw_consume).toBeGreaterThan(0);
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values WHERE session_id = $1`, [row.session_id]);
    expect(n).toBeGreaterThanOrEqual(1);
  });

  it('records a session charged offline with the times the charger kept', async () => {
    await sim.unplug(1);
    await sim.plugIn(2);
    sim.disconnect();
    await eventually(async () => (await s.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag === 0);
    const startedAt = now;
    const started = sim.startTransaction(2, 'CARD-1');
    now += 30 * 60_000;
    const metered = sim.sendMeterValues(2);
    now += 30 * 60_000;
    const stopped = sim.stopTransaction(2);
    now += 5 * 60_000;
    await sim.reconnect();
    const tx = await started;
    await Promise.all([metered, stopped]);
    const row = await session(tx);
    expect(new Date(row.session_start_time).getTime()).toBe(startedAt);
    expect(row.total_charge_time).toBe(3600);
    const reqs = await s.db.query(`SELECT request_type, cre_dttm FROM cp_requests WHERE tran_id = $1 ORDER BY req_id`, [tx]);
    expect(reqs.map((r) => r.request_type)).toEqual([4, 11, 5]);
    expect(new Date(reqs[1].cre_dttm).getTime() - new Date(reqs[0].cre_dttm).getTime()).toBe(30 * 60_000);
  });

  it('starts and stops a charge from the portal', async () => {
    await sim.unplug(2);
    const res = await s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body: { connectorId: 1, time: 60, memberId: 'MEMBER-9' } });
    expect(res.body).toMatchObject({ status: 'success' });
    await eventually(async () => sim.transactionId(1) !== undefined);
    const tx = sim.transactionId(1)!;
    expect((await session(tx)).id_tag).toBe('MEMBER-9');
    const stop = await s.api('POST', `/api/cps/rsrStopCharger/${cpId}`, { token: admin, body: { connectorId: 1 } });
    expect(stop.body).toMatchObject({ status: 'success' });
    await eventually(async () => (await session(tx)).session_end_time !== null);
    expect((await session(tx)).stop_reason).toBe('Remote');
  });

  it('reports a refused command as CP_REJECTED', async () => {
    sim.respondTo('Reset', () => ({ status: 'Rejected' }));
    const res = await s.api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Soft`, { token: admin });
    expect(res.body).toMatchObject({ status: 'error', errorCode: 10032 });
  });
});
