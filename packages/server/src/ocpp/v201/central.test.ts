import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger201 } from '@ev/simulator';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, eventually } from '../../testing/ocpp-support.ts';

/** A 2.0.1 station (the simulator, strict schemas) on the same endpoint as the 1.6 chargers. */
describe('OCPP 2.0.1 charging station', () => {
  let s: TestServer;
  let cpId: number;
  let now = Date.now() - 24 * 3600_000;
  let sim: SimulatedCharger201;
  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    cpId = await addCharger(s.db, 'CS-201', { password: 'cs-pass' });
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards) VALUES ('fleet', 'CARD-1')`);
    sim = new SimulatedCharger201({ url: `${s.wsUrl}/ocpp`, cpNo: 'CS-201', password: 'cs-pass', connectors: 2, reconnect: false, clock: () => now });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  it('connects with ocpp2.0.1, boots and reports its EVSEs as the portal\'s connectors', async () => {
    await eventually(async () => (await s.db.query(`SELECT connectorb_status FROM cps WHERE cp_id = $1`, [cpId]))[0].connectorb_status === 'Available');
    const [cp] = await s.db.query(`SELECT online_flag, ocpp_protocol, charge_point_vendor, connectora_status FROM cps WHERE cp_id = $1`, [cpId]);
    expect(cp).toMatchObject({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1', connectora_status: 'Available' });
    expect(cp.charge_point_vendor).toBeTruthy();
    const [boot] = await s.db.query(`SELECT request_type, response_data FROM cp_requests WHERE cp_id = $1 AND request_type = 101`, [cpId]);
    expect(boot.response_data.status).toBe('Accepted');
  });

  it('records a TransactionEvent session: started, metered, charging state, ended', async () => {
    await sim.plugIn(1);
    expect((await sim.authorize('CARD-1')).status).toBe('Accepted');
    const txId = await sim.startTransaction(1, 'CARD-1');
    const [session] = await s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [cpId, txId]);
    expect(session).toMatchObject({ connector_id: 1, id_tag: 'CARD-1', id_tag_status: 'Accepted', session_end_time: null });
    await eventually(async () => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = 1`, [cpId]))[0].status === 'Charging');
    now += 10 * 60_000;
    await sim.sendMeterValues(1);
    now += 10 * 60_000;
    await sim.stopTransaction(1);
    const [ended] = await s.db.query(`SELECT * FROM cp_sessions WHERE session_id = $1`, [session.session_id]);
    expect(ended.total_charge_time).toBe(1200);
    expect(ended.total_pw_consume).toBe(sim.energyWh(1) - ended.start_meter);
    expect(ended.total_pw_consume).toBeGreaterThan(0);
    expect(ended.stop_reason).toBe('Local');
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values WHERE session_id = $1`, [session.session_id]);
    expect(n).toBeGreaterThanOrEqual(1);
  });

  it('is started and stopped from the portal\'s buttons: the server sends RequestStart/StopTransaction', async () => {
    const admin = await s.login();
    const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
    await sim.plugIn(2);
    await eventually(async () => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = 2`, [cpId]))[0].status === 'Preparing');
    const started = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 2, time: '30' });
    expect(started.body.status, JSON.stringify(started.body)).toBe('success');
    // The station holds its transaction as soon as it sends TransactionEvent Started; the session row follows.
    const openSession = async () => (await s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND connector_id = 2 AND session_end_time IS NULL`, [cpId]))[0];
    await eventually(async () => sim.hasTransaction(2) && (await openSession()) !== undefined);
    const session = await openSession();
    expect(session.ocpp_transaction_id).toBe(sim.transactionId(2));
    expect(session.planned_end_dttm).not.toBeNull();
    const [sent] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_type = 121`, [cpId]);
    expect(sent.request_data).toMatchObject({ evseId: 2, idToken: { type: 'Central' } });

    expect((await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 2 })).body).toMatchObject({ status: 'success' });
    await eventually(async () => (await s.db.query(`SELECT stop_reason FROM cp_sessions WHERE session_id = $1`, [session.session_id]))[0].stop_reason === 'Remote');
    const [stop] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_type = 122`, [cpId]);
    expect(stop.request_data).toEqual({ transactionId: session.ocpp_transaction_id });
  });

  it('unlocks a connector during a transaction as a 1.6 charger does: the transaction is stopped first', async () => {
    const admin = await s.login();
    await sim.plugIn(1);
    const txId = await sim.startTransaction(1, 'CARD-1');
    const res = await s.api('POST', `/api/cps/unlockCharger/${cpId}`, { token: admin, body: { connectorId: 1 } });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Unlocked' } });
    const [session] = await s.db.query(`SELECT stop_reason, session_end_time FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [cpId, txId]);
    expect(session.session_end_time).not.toBeNull();
    expect(session.stop_reason).toBe('Remote');
    expect(sim.hasTransaction(1)).toBe(false);
  });

  it('the message tester\'s commands reach a 2.0.1 station and show the message it got', async () => {
    const admin = await s.login();
    const res = await s.api('POST', '/api/test/cp_request', { token: admin, body: { cpId, action: 'TriggerMessage', payload: { requestedMessage: 'Heartbeat' } } });
    expect(res.body.status).toBe('success');
    expect(res.body.data.request_id).toEqual(expect.any(Number));
    const [row] = await s.db.query(`SELECT request_type, request_data FROM cp_requests WHERE req_id = $1`, [res.body.data.request_id]);
    expect(row).toEqual({ request_type: 126, request_data: { requestedMessage: 'Heartbeat' } });
  });
});
