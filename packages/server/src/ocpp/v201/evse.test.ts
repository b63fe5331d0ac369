import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger201 } from '@ev/simulator';
import { ERROR_CODES, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, eventually } from '../../testing/ocpp-support.ts';

/**
 * One EVSE's reset, one connector's availability within an EVSE and the station's StatusNotification per EVSE,
 * from the portal's routes to the 2.0.1 simulator (its own strict schemas, over a real socket): what the station
 * does with them, as the portal then shows it. The frames themselves: conformance/v201-evse.test.ts.
 */
describe('OCPP 2.0.1 station: EVSE reset, connector availability, status per EVSE', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger201;
  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    cpId = await addCharger(s.db, 'CS-201-EVSE');
    await addCard(s.db, ['CARD-EVSE']);
    sim = new SimulatedCharger201({ url: `${s.wsUrl}/ocpp`, cpNo: 'CS-201-EVSE', connectors: 2, reconnect: false, rebootDelayMs: 20 });
    await sim.start();
    await eventually(async () => (await shown(2)) === 'Available');
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (path: string) => s.api('GET', path, { token: admin });
  const shown = async (connectorId: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status;
  const statusReports = async () =>
    (await s.db.query(`SELECT connector_id FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id`, [cpId, requestTypeId('StatusNotification', 'in', 'ocpp2.0.1')])).map((r) => r.connector_id);

  it('resets one EVSE: Immediate ends its transaction (a hard reset), the other EVSE and the connection carry on', async () => {
    await sim.plugIn(1);
    await sim.plugIn(2);
    const tx1 = await sim.startTransaction(1, 'CARD-EVSE');
    const tx2 = await sim.startTransaction(2, 'CARD-EVSE');
    const res = await api(`/api/cps/rsrResetCharger/${cpId}?type=Hard&evseId=1`);
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    const ended = (txId: string) => s.db.query(`SELECT stop_reason, session_end_time FROM cp_sessions WHERE ocpp_transaction_id = $1`, [txId]).then((r) => r[0]);
    expect(await eventually(async () => (await ended(tx1)).session_end_time)).toBeTruthy();
    expect((await ended(tx1)).stop_reason).toBe('HardReset');
    expect(sim.hasTransaction(2)).toBe(true);
    expect((await ended(tx2)).session_end_time).toBeNull();
    expect((await s.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag).toBe(1);

    // OnIdle on the EVSE still charging: Scheduled, nothing ends now.
    expect((await api(`/api/cps/rsrResetCharger/${cpId}?type=Soft&evseId=2`)).body).toEqual({ status: 'success', data: { status: 'Scheduled' } });
    expect(sim.hasTransaction(2)).toBe(true);
    await sim.stopTransaction(2);
    for (const n of [1, 2]) await sim.unplug(n);
    expect(await eventually(async () => (await shown(1)) === 'Available' && (await shown(2)) === 'Available')).toBe(true);
  });

  it('an idle EVSE reset comes back with its status; an EVSE the station does not have is refused', async () => {
    const before = (await statusReports()).length;
    expect((await api(`/api/cps/rsrResetCharger/${cpId}?type=Hard&evseId=2`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(await eventually(async () => (await statusReports()).slice(before).includes(2))).toBe(true);
    expect((await api(`/api/cps/rsrResetCharger/${cpId}?type=Hard&evseId=5`)).body).toEqual({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_ERROR });
  });

  it('changes the availability of the connector within an EVSE; a connector the EVSE does not have is Rejected', async () => {
    const change = (evse: number, type: string, evseConnectorId: number) => api(`/api/cps/change_availability/${cpId}/${evse}?availabilityType=${type}&evseConnectorId=${evseConnectorId}`);
    expect((await change(2, 'Unavailable', 1)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(await eventually(async () => (await shown(2)) === 'Unavailable')).toBe(true);
    expect(await shown(1)).toBe('Available');
    // The simulator's EVSEs have one connector each.
    expect((await change(2, 'Available', 2)).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
    expect(await shown(2)).toBe('Unavailable');
    expect((await change(2, 'Available', 1)).body.status).toBe('success');
    expect(await eventually(async () => (await shown(2)) === 'Available')).toBe(true);
  });

  it('asks the whole station\'s StatusNotification EVSE by EVSE: each EVSE reports', async () => {
    const before = (await statusReports()).length;
    const res = await api(`/api/cps/triggerMessage/${cpId}?requestedMessage=StatusNotification`);
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted', evses: [{ evseId: 1, status: 'Accepted' }, { evseId: 2, status: 'Accepted' }] } });
    expect(await eventually(async () => (await statusReports()).length - before >= 2)).toBe(true);
    expect((await statusReports()).slice(before)).toEqual(expect.arrayContaining([1, 2]));
  });
});
