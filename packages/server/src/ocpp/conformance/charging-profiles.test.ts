import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, addSite, connectCharger, eventually, callRecorder } from '../../testing/ocpp-support.ts';

/**
 * OCTT 1.6 (Central System) smart charging cases, through the portal's charging profile routes: the
 * tool plays the charger (a strict ocpp-rpc client, which checks every request of the server against
 * the OCPP 1.6 schemas), answers as the case scripts, and the operator acts in the portal.
 */
describe('OCTT 1.6 smart charging', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  /** What the charger received, in order. */
  const { last, record } = callRecorder();

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT-SC', { locId: await addSite(s.db) });
    charger = await connectCharger(s.wsUrl, 'OCTT-SC', {
      handlers: {
        SetChargingProfile: record('SetChargingProfile', () => ({ status: 'Accepted' })),
        ClearChargingProfile: record('ClearChargingProfile', (p) => ({ status: p.id === 999 ? 'Unknown' : 'Accepted' })),
        RemoteStartTransaction: record('RemoteStartTransaction', () => ({ status: 'Accepted' })),
        GetCompositeSchedule: record('GetCompositeSchedule', (p) => (p.connectorId > 1 ? { status: 'Rejected' } : {
          status: 'Accepted', connectorId: p.connectorId, scheduleStart: new Date().toISOString(),
          chargingSchedule: { duration: p.duration, chargingRateUnit: p.chargingRateUnit ?? 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }, { startPeriod: 300, limit: 6 }] },
        })),
      },
    });
    await charger.call('BootNotification', { chargePointVendor: 'OCTT', chargePointModel: 'Tool' });
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const list = async () => (await api('GET', `/api/cps/${cpId}/chargingProfiles`)).body.profiles as any[];
  const profile = (over: object = {}) => ({ chargingProfileId: 11, stackLevel: 0, kind: 'Absolute', unit: 'A', periods: [{ startPeriod: 0, limit: 10 }], ...over });

  /** Starts a transaction as the tool's charger does (after Preparing), answered by the server with its id. */
  async function startTransaction(idTag: string): Promise<number> {
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Preparing' });
    const answer = await charger.call('StartTransaction', { connectorId: 1, idTag, meterStart: 0, timestamp: new Date().toISOString() }) as { transactionId: number };
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' });
    return answer.transactionId;
  }
  async function stopTransaction(transactionId: number): Promise<void> {
    await charger.call('StopTransaction', { transactionId, meterStop: 100, timestamp: new Date().toISOString(), reason: 'Local' });
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
  }

  it('TC_056 Central Smart Charging - TxDefaultProfile', async () => {
    const res = await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 0, purpose: 'TxDefaultProfile', profile: profile({ periods: [{ startPeriod: 0, limit: 6 }] }) });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('SetChargingProfile')).toEqual({
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: 11, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
        chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 6 }] },
      },
    });
    expect(await list()).toEqual([expect.objectContaining({ chargingProfileId: 11, connectorId: 0, purpose: 'TxDefaultProfile' })]);
  });

  it('TC_057 Central Smart Charging - TxProfile', async () => {
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('octt', 'OCTT-TAG', 1)`);
    const tranId = await startTransaction('OCTT-TAG');
    await eventually(async () => (await s.db.query(`SELECT 1 FROM cp_sessions WHERE tran_id = $1`, [tranId])).length > 0);
    const res = await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 1, purpose: 'TxProfile', profile: profile({ chargingProfileId: 12, stackLevel: 2, kind: 'Relative' }) });
    expect(res.body.status).toBe('success');
    // The TxProfile names the running transaction (OCPP 1.6 §5.16.1).
    expect(last('SetChargingProfile').csChargingProfiles).toMatchObject({ chargingProfilePurpose: 'TxProfile', transactionId: tranId, chargingProfileKind: 'Relative' });
    expect((await list()).find((p) => p.chargingProfileId === 12)).toMatchObject({ transactionId: tranId });
    await stopTransaction(tranId);
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 12))).toBe(true);
  });

  it('TC_059 Remote Start Transaction with Charging Profile', async () => {
    const res = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, {
      connectorId: 1, time: '30', chargingProfile: profile({ chargingProfileId: 13, stackLevel: 2, kind: 'Relative', periods: [{ startPeriod: 0, limit: 8 }] }),
    });
    expect(res.body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    const start = last('RemoteStartTransaction');
    expect(start).toMatchObject({ connectorId: 1, chargingProfile: { chargingProfileId: 13, chargingProfilePurpose: 'TxProfile', stackLevel: 2 } });
    // A TxProfile of a remote start has no transactionId yet (OCPP 1.6 §5.11).
    expect(start.chargingProfile.transactionId).toBeUndefined();
    const tranId = await startTransaction(start.idTag);
    expect(await eventually(async () => (await list()).find((p) => p.chargingProfileId === 13 && p.transactionId === tranId))).toBeTruthy();
    await stopTransaction(tranId);
    expect(await eventually(async () => !(await list()).some((p) => p.chargingProfileId === 13))).toBe(true);
  });

  it('TC_066 Get Composite Schedule', async () => {
    const res = await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 1, duration: 600, chargingRateUnit: 'A' });
    expect(last('GetCompositeSchedule')).toEqual({ connectorId: 1, duration: 600, chargingRateUnit: 'A' });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted', connectorId: 1, chargingSchedule: { chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }, { startPeriod: 300, limit: 6 }] } } });
    expect((await api('POST', `/api/cps/${cpId}/compositeSchedule`, { connectorId: 2, duration: 600 })).body).toMatchObject({ status: 'error', data: { status: 'Rejected' } });
  });

  it('TC_067 Clear Charging Profile', async () => {
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { id: 11 })).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ClearChargingProfile')).toEqual({ id: 11 });
    expect(await list()).toEqual([]);
    // By criteria, as the tool's second step: Unknown when the charger had none is its answer, shown as it gave it.
    await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 1, purpose: 'TxDefaultProfile', profile: profile({ chargingProfileId: 14, stackLevel: 3 }) });
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { connectorId: 1, purpose: 'TxDefaultProfile', stackLevel: 3 })).body.status).toBe('success');
    expect(last('ClearChargingProfile')).toEqual({ connectorId: 1, chargingProfilePurpose: 'TxDefaultProfile', stackLevel: 3 });
    expect(await list()).toEqual([]);
    expect((await api('POST', `/api/cps/${cpId}/chargingProfiles/clear`, { id: 999 })).body).toMatchObject({ status: 'error', data: { status: 'Unknown' } });
  });
});
