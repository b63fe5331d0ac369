import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger, eventually, callRecorder } from '../../testing/ocpp-support.ts';
import { tool201, type Tool201 } from './v201-tool.ts';

/**
 * OCTT 2.0.1 (CSMS) cases of blocks F (remote control) and G (availability), through the portal's routes:
 * the tool plays a 2.0.1 station (a strict ocpp-rpc client, which checks every message of the server
 * against the OCPP 2.0.1 schemas), answers as the case scripts, and the operator acts in the portal.
 * K and P are in v201-smart-charging.test.ts, the other fleet operations (H, D, L, N, C) in
 * v201-fleet-ops.test.ts; the station's side is v201-tool.ts.
 *
 * F, G, K, P covered (OCTT ids as well as known, the use case in brackets):
 *   F: TC_F_01_CSMS remote start, cable first (F01) · TC_F_02_CSMS remote start first (F02) · TC_F_03_CSMS
 *      remote stop by the station's transactionId (F03) · TC_F_05_CSMS unlock, and its other answers (F05) ·
 *      TC_F_11/12_CSMS trigger MeterValues per EVSE / all · TC_F_20_CSMS Heartbeat · TC_F_23_CSMS
 *      StatusNotification per EVSE · TC_F_27_CSMS BootNotification, and LogStatusNotification, NotImplemented (F06)
 *   G: TC_G_01_CSMS StatusNotification Unavailable / Faulted shown (G01) · TC_G_03_CSMS ChangeAvailability of
 *      an EVSE, Scheduled (G03) · TC_G_04_CSMS ChangeAvailability of the station (G04)
 *   K: TC_K_01_CSMS TxDefaultProfile, station and EVSE · TC_K_02_CSMS ChargingStationMaxProfile (K01) ·
 *      TC_K_03_CSMS TxProfile with the station's transactionId (K01) · TC_K_05/06_CSMS clear by id / criteria
 *      (K10) · TC_K_08_CSMS GetCompositeSchedule (K08) · TC_K_37_CSMS remote start with a TxProfile (K05)
 *   P: TC_P_01_CSMS DataTransfer to the station (P01) · TC_P_02_CSMS DataTransfer to the CSMS, UnknownVendorId (P02)
 * Not covered: F04 (ISO 15118 stop) · trigger of TransactionEvent, FirmwareStatusNotification Idle cases
 *   (the portal cannot ask for a TransactionEvent) · G02 Heartbeat (block B) · G05 lock failure ·
 *   K02-K04, K06-K07 (ISO 15118 / external limits: the portal sends none) · K09 GetChargingProfiles,
 *   K11-K17 (reporting, external constraints, ISO 15118 renegotiation: not used by the portal).
 */
describe('OCTT 2.0.1 remote control and availability (F, G)', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  let t: Tool201;
  let unlockAnswer = 'Unlocked';
  let triggerAnswer = 'Accepted';
  const { received, last, record } = callRecorder();

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT201-F', { locId: await addSite(s.db) });
    await addCard(s.db, ['OCTT-TAG']);
    charger = await connectCharger(s.wsUrl, 'OCTT201-F', {
      protocol: 'ocpp2.0.1',
      handlers: {
        RequestStartTransaction: record('RequestStartTransaction', () => ({ status: 'Accepted' })),
        RequestStopTransaction: record('RequestStopTransaction', (p) => ({ status: p.transactionId.startsWith('tx-') ? 'Accepted' : 'Rejected' })),
        UnlockConnector: record('UnlockConnector', () => ({ status: unlockAnswer })),
        TriggerMessage: record('TriggerMessage', () => ({ status: triggerAnswer })),
        ChangeAvailability: record('ChangeAvailability', (p) => ({ status: p.evse?.id === 2 ? 'Scheduled' : 'Accepted' })),
      },
    });
    t = tool201(charger);
    await t.boot();
    for (const evseId of [1, 2]) await t.status(evseId, 'Available');
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const shown = async (connectorId: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status;
  const session = (txId: string) => s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [cpId, txId]).then((r) => r[0]);

  it('TC_F_01_CSMS Remote start transaction - cable plugin first', async () => {
    await t.status(1, 'Occupied');
    expect(await shown(1)).toBe('Preparing');
    const res = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: '30' });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    const start = last('RequestStartTransaction');
    expect(start).toEqual({ remoteStartId: expect.any(Number), idToken: { idToken: 'PORTAL', type: 'Central' }, evseId: 1 });
    // The station starts, naming the remoteStartId: the session keeps the station's transactionId.
    await t.started(1, 'tx-F01', { idToken: start.idToken, remoteStartId: start.remoteStartId });
    expect(await session('tx-F01')).toMatchObject({ connector_id: 1, id_tag: 'PORTAL', session_end_time: null });
    expect(await shown(1)).toBe('Charging');
  });

  it('TC_F_03_CSMS Remote stop transaction - the station\'s own transactionId', async () => {
    const res = await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 1 });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('RequestStopTransaction')).toEqual({ transactionId: 'tx-F01' });
    await t.ended(1, 'tx-F01', 'Remote');
    await t.status(1, 'Available');
    expect(await session('tx-F01')).toMatchObject({ stop_reason: 'Remote', session_end_time: expect.any(Date) });
    // No transaction left on the connector: refused in the portal, nothing sent.
    const before = received.length;
    expect((await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 1 })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.NO_TRANSACTION });
    expect(received.length).toBe(before);
  });

  it('TC_F_02_CSMS Remote start transaction - remote start first', async () => {
    const res = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 2, time: '30', memberId: 'OCTT-TAG' });
    expect(res.body.status).toBe('success');
    const start = last('RequestStartTransaction');
    expect(start).toMatchObject({ evseId: 2, idToken: { idToken: 'OCTT-TAG', type: 'Central' } });
    // The cable comes after the start: EVConnected, then Charging.
    await t.status(2, 'Occupied');
    await t.started(2, 'tx-F02', { idToken: start.idToken, remoteStartId: start.remoteStartId });
    expect(await session('tx-F02')).toMatchObject({ connector_id: 2, id_tag: 'OCTT-TAG' });
    expect((await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 2 })).body.status).toBe('success');
    expect(last('RequestStopTransaction')).toEqual({ transactionId: 'tx-F02' });
    await t.ended(2, 'tx-F02', 'Remote');
    await t.status(2, 'Available');
  });

  it('TC_F_05_CSMS Remotely unlock connector: evseId and connectorId 1, each answer shown', async () => {
    const unlock = () => api('POST', `/api/cps/unlockCharger/${cpId}`, { connectorId: 1 });
    expect((await unlock()).body).toEqual({ status: 'success', data: { status: 'Unlocked' } });
    expect(last('UnlockConnector')).toEqual({ evseId: 1, connectorId: 1 });
    const answered = async (answer: string) => {
      unlockAnswer = answer;
      try {
        return (await unlock()).body;
      } finally {
        unlockAnswer = 'Unlocked';
      }
    };
    expect(await answered('UnlockFailed')).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_ERROR_2, data: { status: 'UnlockFailed' } });
    // 2.0.1's own answers: read in 1.6 words for the portal's logic, the station's word kept beside.
    expect(await answered('OngoingAuthorizedTransaction')).toMatchObject({
      status: 'error', errorCode: ERROR_CODES.CONNECTOR_ERROR_2, data: { status: 'UnlockFailed', chargerStatus: 'OngoingAuthorizedTransaction' },
    });
    expect(await answered('UnknownConnector')).toMatchObject({
      status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'NotSupported', chargerStatus: 'UnknownConnector' },
    });
    // The 2.0.1 message as sent and answered is what cp_requests keeps.
    const [row] = await s.db.query(`SELECT request_data, response_data FROM cp_requests WHERE cp_id = $1 AND request_data ? 'evseId' AND response_data->>'status' = 'UnknownConnector'`, [cpId]);
    expect(row.request_data).toEqual({ evseId: 1, connectorId: 1 });
  });

  it('TC_F_11_CSMS / TC_F_12_CSMS / TC_F_20_CSMS / TC_F_23_CSMS / TC_F_27_CSMS Trigger message, per EVSE and for the station', async () => {
    const trigger = (requestedMessage: string, connectorId?: number) =>
      api('GET', `/api/cps/triggerMessage/${cpId}?requestedMessage=${requestedMessage}${connectorId !== undefined ? `&connectorId=${connectorId}` : ''}`);
    expect((await trigger('MeterValues', 1)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'MeterValues', evse: { id: 1 } });
    await trigger('MeterValues');
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'MeterValues' });
    await trigger('Heartbeat');
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'Heartbeat' });
    // A connector's status is asked of its EVSE's (only) connector.
    await trigger('StatusNotification', 2);
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'StatusNotification', evse: { id: 2, connectorId: 1 } });
    await trigger('BootNotification', 0);
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'BootNotification' });
    await trigger('DiagnosticsStatusNotification');
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'LogStatusNotification' });
    // The station sends what was asked: the server takes the triggered messages as any other.
    expect(await charger.call('BootNotification', { reason: 'Triggered', chargingStation: { model: 'Tool', vendorName: 'OCTT' } })).toMatchObject({ status: 'Accepted' });
    expect(await charger.call('MeterValues', { evseId: 1, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: 1200, context: 'Trigger', measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } }] }] })).toEqual({});
    triggerAnswer = 'NotImplemented';
    try {
      expect((await trigger('FirmwareStatusNotification')).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'NotImplemented' } });
    } finally {
      triggerAnswer = 'Accepted';
    }
  });

  it('TC_G_03_CSMS Change availability of an EVSE; TC_G_01_CSMS its StatusNotification shown', async () => {
    const res = await api('GET', `/api/cps/change_availability/${cpId}/1?availabilityType=Unavailable`);
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Inoperative', evse: { id: 1 } });
    await t.status(1, 'Unavailable');
    expect(await shown(1)).toBe('Unavailable');
    // An EVSE busy with a transaction changes after it: Scheduled is a success.
    expect((await api('GET', `/api/cps/change_availability/${cpId}/2?availabilityType=Unavailable`)).body).toEqual({ status: 'success', data: { status: 'Scheduled' } });
    await api('GET', `/api/cps/change_availability/${cpId}/1?availabilityType=Available`);
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Operative', evse: { id: 1 } });
    await t.status(1, 'Available');
    // A fault of the connector shows as Faulted, its end as Available.
    await t.status(1, 'Faulted');
    expect(await shown(1)).toBe('Faulted');
    await t.status(1, 'Available');
    expect(await shown(1)).toBe('Available');
  });

  it('TC_G_04_CSMS Change availability of the charging station: no evse', async () => {
    const res = await api('GET', `/api/cps/change_availability/${cpId}/0?availabilityType=Unavailable`);
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Inoperative' });
    for (const evseId of [1, 2]) await t.status(evseId, 'Unavailable');
    expect([await shown(1), await shown(2)]).toEqual(['Unavailable', 'Unavailable']);
    expect((await s.db.query(`SELECT change_availability FROM cps WHERE cp_id = $1`, [cpId]))[0].change_availability).toBe('Inoperative');
    await api('GET', `/api/cps/change_availability/${cpId}/0?availabilityType=Available`);
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Operative' });
    for (const evseId of [1, 2]) await t.status(evseId, 'Available');
    expect(await eventually(async () => (await shown(2)) === 'Available')).toBe(true);
  });
});
