/**
 * OCTT 2.0.1 (CSMS) block B, the boot answers other than Accepted (issue 31; v201-b-c.test.ts has the rest of B):
 * TC_B_02_CSMS Cold Boot - Pending (provision policy: Pending, the device model read with GetBaseReport, then
 * TriggerMessage BootNotification and Accepted), TC_B_30_CSMS Pending then Accepted, TC_B_31_CSMS GetVariables
 * while Pending, TC_B_03_CSMS Cold Boot - Rejected (SecurityError for other messages, no commands sent). The
 * station is the tool's: a strict 2.0.1 client scripted here (the simulator's station cannot send NotifyReport while
 * Pending, which B02 needs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { PROVISIONING } from '../../device-model/provision.ts';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, addSite, callRecorder, connectCharger, eventually } from '../../testing/ocpp-support.ts';

const STATION = { model: 'OCTT-201', vendorName: 'OCTT', serialNumber: 'SN-BOOT', firmwareVersion: '2.0.1-fw' };
const REPORT = (requestId: number, seqNo: number, tbc: boolean, variable: string) => ({
  requestId, seqNo, tbc, generatedAt: new Date().toISOString(),
  reportData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: variable }, variableAttribute: [{ value: '60', mutability: 'ReadWrite' }] }],
});

describe('OCTT 2.0.1 CSMS: B boot Pending and Rejected', () => {
  let s: TestServer;
  let admin: string;
  let locId: number;
  const open: RPCClient[] = [];

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    locId = await addSite(s.db);
  });
  afterAll(async () => {
    for (const c of open) await c.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const boot = (station: RPCClient, reason = 'PowerUp') => station.call('BootNotification', { reason, chargingStation: STATION }) as Promise<any>;
  const refusal = (p: Promise<unknown>) => p.then(() => 'answered', (err) => err.rpcErrorCode);
  const shown = async (cpId: number) => (await api('GET', `/api/cps/${cpId}`)).body;

  /** A station under the provision policy whose NotifyReport goes when `report()` is called; boots the trigger asks for. */
  async function pendingStation(cpNo: string) {
    const cpId = await addCharger(s.db, cpNo, { locId, heartbeatInterval: 120 });
    await s.db.query(`UPDATE cps SET boot_policy = 'provision' WHERE cp_id = $1`, [cpId]);
    const rec = callRecorder();
    const triggeredBoots: any[] = [];
    let station!: RPCClient;
    station = await connectCharger(s.wsUrl, cpNo, {
      protocol: 'ocpp2.0.1',
      handlers: {
        GetBaseReport: rec.record('GetBaseReport', () => ({ status: 'Accepted' })),
        GetVariables: rec.record('GetVariables', (p) => ({
          getVariableResult: p.getVariableData.map((d: any) => ({ component: d.component, variable: d.variable, attributeStatus: 'Accepted', attributeValue: '60' })),
        })),
        TriggerMessage: rec.record('TriggerMessage', () => {
          setTimeout(() => void boot(station, 'Triggered').then((b) => triggeredBoots.push(b)), 10);
          return { status: 'Accepted' };
        }),
      },
    });
    open.push(station);
    const report = async () => {
      const { requestId } = rec.last('GetBaseReport');
      await station.call('NotifyReport', REPORT(requestId, 0, true, 'HeartbeatInterval'));
      await station.call('NotifyReport', REPORT(requestId, 1, false, 'MessageTimeout'));
    };
    return { cpId, station, rec, triggeredBoots, report };
  }

  it('TC_B_02_CSMS / TC_B_30_CSMS Cold Boot - Pending: read (GetBaseReport), TriggerMessage BootNotification, then Accepted', async () => {
    const { cpId, station, rec, triggeredBoots, report } = await pendingStation('BOOT-PEND');
    // B02: Pending with a short interval, not the heartbeat interval.
    expect(await boot(station)).toMatchObject({ status: 'Pending', interval: 15 });
    expect((await shown(cpId)).charging_status).toBe('BootPending');
    // Pending: only the boot and what was asked for; a heartbeat or a status is refused and changes nothing.
    expect(await refusal(station.call('Heartbeat', {}))).toBe('SecurityError');
    expect(await refusal(station.call('StatusNotification', { timestamp: new Date().toISOString(), connectorStatus: 'Available', evseId: 1, connectorId: 1 }))).toBe('SecurityError');
    expect((await s.db.query(`SELECT 1 FROM cp_connectors WHERE cp_id = $1`, [cpId])).length).toBe(0);
    await eventually(async () => rec.last('GetBaseReport'));
    expect(rec.last('GetBaseReport')).toMatchObject({ reportBase: 'FullInventory' });
    expect(rec.last('TriggerMessage')).toBeUndefined();
    await report();
    await eventually(async () => triggeredBoots.length > 0);
    expect(rec.last('TriggerMessage')).toEqual({ requestedMessage: 'BootNotification' });
    expect(triggeredBoots[0]).toMatchObject({ status: 'Accepted', interval: 120 });
    // Accepted: the device model read is stored (the Configuration tab shows it), messages are answered again.
    const model = (await api('GET', `/api/cps/${cpId}/deviceModel`)).body;
    expect(model.report.completedAt).not.toBeNull();
    expect(model.variables.map((v: any) => v.variable).sort()).toEqual(['HeartbeatInterval', 'MessageTimeout']);
    await station.call('Heartbeat', {});
    expect((await shown(cpId)).charging_status).toBe('N/A');
    // Read once: the next cold boot is accepted at once, nothing asked again.
    const asked = rec.received.length;
    expect(await boot(station)).toMatchObject({ status: 'Accepted' });
    expect(rec.received.length).toBe(asked);
  });

  it('TC_B_31_CSMS GetVariables while Pending (the portal reads a key); no remote start yet', async () => {
    const { cpId, station, rec, triggeredBoots, report } = await pendingStation('BOOT-PEND-GV');
    expect(await boot(station)).toMatchObject({ status: 'Pending' });
    await eventually(async () => rec.last('GetBaseReport'));
    const read = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval'] });
    expect(rec.last('GetVariables')).toEqual({ getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }] });
    expect(read.body.configurationKey).toEqual([expect.objectContaining({ key: 'HeartbeatInterval', value: '60' })]);
    const start = await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: '30' });
    expect(start.body).toMatchObject({ status: 'error', errorCode: 10034 });
    expect(rec.received.some((r) => r.action === 'RequestStartTransaction')).toBe(false);
    await report();
    await eventually(async () => triggeredBoots.length > 0);
    expect(triggeredBoots[0].status).toBe('Accepted');
  });

  it('TC_B_02_CSMS a station that does not give its report (NotSupported) is still triggered and accepted', async () => {
    const cpId = await addCharger(s.db, 'BOOT-NOREPORT', { locId });
    await s.db.query(`UPDATE cps SET boot_policy = 'provision' WHERE cp_id = $1`, [cpId]);
    const boots: any[] = [];
    let station!: RPCClient;
    station = await connectCharger(s.wsUrl, 'BOOT-NOREPORT', {
      protocol: 'ocpp2.0.1',
      handlers: {
        GetBaseReport: () => ({ status: 'NotSupported' }),
        TriggerMessage: () => (setTimeout(() => void boot(station, 'Triggered').then((b) => boots.push(b)), 10), { status: 'Accepted' }),
      },
    });
    open.push(station);
    expect(await boot(station)).toMatchObject({ status: 'Pending' });
    await eventually(async () => boots.length > 0);
    expect(boots[0].status).toBe('Accepted');
    expect((await api('GET', `/api/cps/${cpId}/deviceModel`)).body.report).toBeNull();
  });

  it('TC_B_03_CSMS Cold Boot - Rejected: interval, SecurityError for other messages, no command sent; accepted once the policy allows', async () => {
    const cpId = await addCharger(s.db, 'BOOT-REJ', { locId, heartbeatInterval: 120 });
    expect((await api('PUT', `/api/cps/${cpId}`, { boot_policy: 'sometimes' })).status).toBe(400);
    expect((await api('PUT', `/api/cps/${cpId}`, { boot_policy: 'reject' })).body.status).toBe('success');
    const rec = callRecorder();
    const station = await connectCharger(s.wsUrl, 'BOOT-REJ', { protocol: 'ocpp2.0.1', handlers: { Reset: rec.record('Reset', () => ({ status: 'Accepted' })) } });
    open.push(station);
    // Before any boot on the connection the policy already holds.
    expect(await refusal(station.call('Heartbeat', {}))).toBe('SecurityError');
    expect(await boot(station)).toMatchObject({ status: 'Rejected', interval: 300 });
    for (const [action, params] of [
      ['Heartbeat', {}],
      ['StatusNotification', { timestamp: new Date().toISOString(), connectorStatus: 'Available', evseId: 1, connectorId: 1 }],
      ['NotifyReport', REPORT(1, 0, false, 'HeartbeatInterval')],
      ['Authorize', { idToken: { idToken: 'X', type: 'ISO14443' } }],
    ] as const) {
      expect(await refusal(station.call(action, params)), action).toBe('SecurityError');
    }
    expect((await s.db.query(`SELECT 1 FROM cp_connectors WHERE cp_id = $1`, [cpId])).length).toBe(0);
    // The socket stays open; the portal says so, and sends it nothing.
    expect(await shown(cpId)).toMatchObject({ online_flag: 1, charging_status: 'BootRejected', boot_policy: 'reject' });
    expect((await api('GET', `/api/cps?size=100&page=0&charging_status=BootRejected`)).body.dataset.content.map((r: any) => r.cp_id)).toEqual([cpId]);
    const reset = await api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Soft`);
    expect(reset.body).toMatchObject({ status: 'error', errorCode: 10034 });
    expect(rec.received).toEqual([]);
    // Rejected again at the retry; once the operator accepts the charger, its next boot is Accepted.
    expect(await boot(station)).toMatchObject({ status: 'Rejected' });
    await s.db.query(`UPDATE cps SET boot_policy = 'accept' WHERE cp_id = $1`, [cpId]);
    expect(await boot(station)).toMatchObject({ status: 'Accepted', interval: 120 });
    await station.call('Heartbeat', {});
    expect((await s.db.query(`SELECT boot_status FROM cps WHERE cp_id = $1`, [cpId]))[0].boot_status).toBeNull();
    expect((await api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Soft`)).body).toMatchObject({ status: 'success' });
  });

  it('TC_B_02_CSMS a report that never completes: given up after the timeout, the station triggered and accepted', async () => {
    const saved = PROVISIONING.reportTimeoutMs;
    PROVISIONING.reportTimeoutMs = 300;
    try {
      const { station, rec, triggeredBoots } = await pendingStation('BOOT-SLOW');
      expect(await boot(station)).toMatchObject({ status: 'Pending' });
      await eventually(async () => triggeredBoots.length > 0);
      expect(rec.received.map((r) => r.action)).toEqual(['GetBaseReport', 'TriggerMessage']);
      expect(triggeredBoots[0].status).toBe('Accepted');
      // The same connection is not held Pending again for the report it did not give.
      expect(await boot(station)).toMatchObject({ status: 'Accepted' });
    } finally {
      PROVISIONING.reportTimeoutMs = saved;
    }
  });

});
