import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger, eventually, callRecorder } from '../../testing/ocpp-support.ts';
import { tool201, type Tool201 } from './v201-tool.ts';

/**
 * OCTT 2.0.1 (CSMS) cases of blocks K (smart charging, as the portal and load management use it) and P
 * (DataTransfer), through the portal's routes; the tool plays the station with a strict 2.0.1 client.
 * The list of the F, G, K and P cases covered is in v201-remote-smart.test.ts.
 */
describe('OCTT 2.0.1 smart charging and data transfer (K, P)', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  let t: Tool201;
  const { received, last, record } = callRecorder();

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT201-K', { locId: await addSite(s.db) });
    await addCard(s.db, ['OCTT-TAG']);
    charger = await connectCharger(s.wsUrl, 'OCTT201-K', {
      protocol: 'ocpp2.0.1',
      handlers: {
        SetChargingProfile: record('SetChargingProfile', () => ({ status: 'Accepted' })),
        ClearChargingProfile: record('ClearChargingProfile', (p) => ({ status: p.chargingProfileId === 999 ? 'Unknown' : 'Accepted' })),
        RequestStartTransaction: record('RequestStartTransaction', () => ({ status: 'Accepted' })),
        GetCompositeSchedule: record('GetCompositeSchedule', (p) => (p.evseId > 1 ? { status: 'Rejected' } : {
          status: 'Accepted',
          schedule: {
            evseId: p.evseId, duration: p.duration, scheduleStart: '2026-01-01T10:00:00.000Z', chargingRateUnit: p.chargingRateUnit ?? 'A',
            chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }, { startPeriod: 300, limit: 6, numberPhases: 1 }],
          },
        })),
        SetVariables: record('SetVariables', (p) => ({
          setVariableResult: p.setVariableData.map((d: any) => ({ attributeStatus: 'Accepted', component: d.component, variable: d.variable })),
        })),
        DataTransfer: record('DataTransfer', (p) => ({ status: p.vendorId === 'OCTT' ? 'Accepted' : 'UnknownVendorId' })),
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
  const list = async () => (await api('GET', `/api/cps/${cpId}/chargingProfiles`)).body.profiles as any[];
  const profile = (over: object = {}) => ({ chargingProfileId: 11, stackLevel: 0, kind: 'Absolute', unit: 'A', periods: [{ startPeriod: 0, limit: 10 }], ...over });
  const tranId = async (txId: string) => (await s.db.query(`SELECT tran_id FROM cp_sessions WHERE ocpp_transaction_id = $1`, [txId]))[0].tran_id;

  it('TC_K_01_CSMS Set charging profile - TxDefaultProfile for the station (evseId 0) and for an EVSE', async () => {
    const res = await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 0, purpose: 'TxDefaultProfile', profile: profile({ periods: [{ startPeriod: 0, limit: 6 }] }) });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    // The 1.6 profile as a 2.0.1 ChargingProfileType: chargingSchedule is a list, each schedule with its id.
    expect(last('SetChargingProfile')).toEqual({
      evseId: 0,
      chargingProfile: {
        id: 11, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
        chargingSchedule: [{ id: 11, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 6 }] }],
      },
    });
    await api('POST', `/api/cps/${cpId}/chargingProfiles`, {
      connectorId: 2, purpose: 'TxDefaultProfile',
      profile: profile({ chargingProfileId: 14, stackLevel: 3, kind: 'Recurring', recurrency: 'Daily', startSchedule: '2026-01-01T00:00:00Z', duration: 3600, unit: 'W', periods: [{ startPeriod: 0, limit: 7400, numberPhases: 1 }] }),
    });
    expect(last('SetChargingProfile')).toEqual({
      evseId: 2,
      chargingProfile: {
        id: 14, stackLevel: 3, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Recurring', recurrencyKind: 'Daily',
        chargingSchedule: [{ id: 14, startSchedule: '2026-01-01T00:00:00Z', duration: 3600, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 7400, numberPhases: 1 }] }],
      },
    });
    expect((await list()).map((p) => [p.chargingProfileId, p.connectorId, p.purpose])).toEqual([[11, 0, 'TxDefaultProfile'], [14, 2, 'TxDefaultProfile']]);
  });

  it('TC_K_02_CSMS Set charging profile - ChargingStationMaxProfile (load management\'s ChargePointMaxProfile)', async () => {
    // No portal form sets a station maximum; the dispatcher is what load management and jobs call.
    const outcome = await s.app.ocpp.commands.send(cpId, 'SetChargingProfile', {
      connectorId: 0,
      csChargingProfiles: { chargingProfileId: 5, stackLevel: 0, chargingProfilePurpose: 'ChargePointMaxProfile', chargingProfileKind: 'Absolute', chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 32 }] } },
    });
    expect(outcome).toEqual({ status: 'success', result: { status: 'Accepted' } });
    expect(last('SetChargingProfile')).toEqual({
      evseId: 0,
      chargingProfile: { id: 5, stackLevel: 0, chargingProfilePurpose: 'ChargingStationMaxProfile', chargingProfileKind: 'Absolute', chargingSchedule: [{ id: 5, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 32 }] }] },
    });
    expect((await list()).find((p) => p.chargingProfileId === 5)).toMatchObject({ purpose: 'ChargePointMaxProfile', connectorId: 0 });
    // Cleared by its purpose, in 2.0.1 words.
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { purpose: 'ChargePointMaxProfile' })).body.status).toBe('success');
    expect(last('ClearChargingProfile')).toEqual({ chargingProfileCriteria: { chargingProfilePurpose: 'ChargingStationMaxProfile' } });
    expect((await list()).some((p) => p.chargingProfileId === 5)).toBe(false);
  });

  it('TC_K_03_CSMS Set charging profile - TxProfile names the station\'s transactionId', async () => {
    await t.status(1, 'Occupied');
    await t.started(1, 'tx-K03');
    const res = await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 1, purpose: 'TxProfile', profile: profile({ chargingProfileId: 12, stackLevel: 2, kind: 'Relative' }) });
    expect(res.body.status).toBe('success');
    expect(last('SetChargingProfile')).toMatchObject({ evseId: 1, chargingProfile: { id: 12, chargingProfilePurpose: 'TxProfile', chargingProfileKind: 'Relative', transactionId: 'tx-K03' } });
    // The portal lists it by its own transaction number.
    expect((await list()).find((p) => p.chargingProfileId === 12)).toMatchObject({ transactionId: await tranId('tx-K03') });
    await t.ended(1, 'tx-K03', 'Local');
    await t.status(1, 'Available');
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 12))).toBe(true);
  });

  it('TC_K_37_CSMS Remote start transaction with charging profile (K05)', async () => {
    const res = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, {
      connectorId: 1, time: '30', chargingProfile: profile({ chargingProfileId: 13, stackLevel: 2, kind: 'Relative', periods: [{ startPeriod: 0, limit: 8 }] }),
    });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    const start = last('RequestStartTransaction');
    // A TxProfile of a remote start has no transactionId yet (2.0.1 K05).
    expect(start.chargingProfile).toEqual({
      id: 13, stackLevel: 2, chargingProfilePurpose: 'TxProfile', chargingProfileKind: 'Relative',
      chargingSchedule: [{ id: 13, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 8 }] }],
    });
    await t.status(1, 'Occupied');
    await t.started(1, 'tx-K05', { idToken: start.idToken, remoteStartId: start.remoteStartId });
    const tran = await tranId('tx-K05');
    expect(await eventually(async () => (await list()).find((p) => p.chargingProfileId === 13 && p.transactionId === tran))).toBeTruthy();
    await t.ended(1, 'tx-K05', 'Local');
    await t.status(1, 'Available');
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 13))).toBe(true);
  });

  it('TC_K_08_CSMS Get composite schedule: the answer in the portal\'s (1.6) shape', async () => {
    const res = await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 600, chargingRateUnit: 'A' });
    expect(last('GetCompositeSchedule')).toEqual({ evseId: 1, duration: 600, chargingRateUnit: 'A' });
    expect(res.body).toEqual({
      status: 'success',
      data: {
        status: 'Accepted', connectorId: 1, scheduleStart: '2026-01-01T10:00:00.000Z',
        chargingSchedule: {
          duration: 600, startSchedule: '2026-01-01T10:00:00.000Z', chargingRateUnit: 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }, { startPeriod: 300, limit: 6, numberPhases: 1 }],
        },
      },
    });
    expect((await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 2, duration: 600 })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
  });

  it('TC_K_05_CSMS / TC_K_06_CSMS Clear charging profile by id and by criteria', async () => {
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { id: 11 })).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ClearChargingProfile')).toEqual({ chargingProfileId: 11 });
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { connectorId: 2, purpose: 'TxDefaultProfile', stackLevel: 3 })).body.status).toBe('success');
    expect(last('ClearChargingProfile')).toEqual({ chargingProfileCriteria: { evseId: 2, chargingProfilePurpose: 'TxDefaultProfile', stackLevel: 3 } });
    expect(await list()).toEqual([]);
    // Unknown is the station's answer when it had none: shown as it gave it.
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { id: 999 })).body).toMatchObject({ status: 'error', data: { status: 'Unknown' } });
  });

  it('TC_P_02_CSMS Data transfer to the CSMS: answered UnknownVendorId, any data type', async () => {
    expect(await charger.call('DataTransfer', { vendorId: 'com.example.octt', messageId: 'Probe', data: { any: ['json', 1] } })).toEqual({ status: 'UnknownVendorId' });
    expect(await charger.call('DataTransfer', { vendorId: 'com.example.octt' })).toEqual({ status: 'UnknownVendorId' });
    const rows = await eventually(async () => (await s.db.query(`SELECT request_data, response_data FROM cp_requests WHERE cp_id = $1 AND request_data->>'vendorId' = 'com.example.octt'`, [cpId])));
    expect(rows[0]).toMatchObject({ request_data: { messageId: 'Probe', data: { any: ['json', 1] } }, response_data: { status: 'UnknownVendorId' } });
  });

  it('TC_P_01_CSMS Data transfer to the charging station: a charger configuration\'s vendor settings', async () => {
    const created = await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', description: 'OCTT' });
    const res = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: created.body.data.cp_config_id, current: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const transfers = received.filter((r) => r.action === 'DataTransfer').map((r) => r.params);
    expect(transfers.length).toBeGreaterThan(0);
    // vendorId is the station's vendorName from its boot; data a JSON text, as 1.6 sends it.
    for (const d of transfers) expect(d).toEqual({ vendorId: 'OCTT', messageId: 'SetConfig', data: expect.stringMatching(/^\{"key":/) });
    // Settings with a 2.0.1 variable go as SetVariables.
    expect(received.filter((r) => r.action === 'SetVariables').map((r) => r.params.setVariableData[0].variable.name)).toEqual(
      expect.arrayContaining(['TxUpdatedInterval', 'StopTxOnEVSideDisconnect']),
    );
    expect(res.body.data.pending).toBe(0);
  });
});
