import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, BOOT, callRecorder, connectCharger, eventually } from '../testing/ocpp-support.ts';

/** Issue 31: the boot policy of an OCPP 1.6 charger (1.6 §4.2): reject and provision (2.0.1: conformance/v201-b-boot.test.ts). */
describe('boot policy of a 1.6 charger', () => {
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
  const refusal = (p: Promise<unknown>) => p.then(() => 'answered', (err) => err.rpcErrorCode);
  const withPolicy = async (cpNo: string, policy: string) => {
    const cpId = await addCharger(s.db, cpNo, { locId, heartbeatInterval: 60 });
    expect((await api('PUT', `/api/cps/${cpId}`, { boot_policy: policy })).body.status).toBe('success');
    return cpId;
  };

  it('accept (the default) answers Accepted with the heartbeat interval', async () => {
    const cpId = await addCharger(s.db, 'BP-ACCEPT', { locId, heartbeatInterval: 60 });
    expect((await api('GET', `/api/cps/${cpId}`)).body.boot_policy).toBe('accept');
    const cp = await connectCharger(s.wsUrl, 'BP-ACCEPT');
    open.push(cp);
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted', interval: 60 });
  });

  it('reject: Rejected with its interval, SecurityError for the rest, nothing stored or sent, the portal shows it', async () => {
    const cpId = await withPolicy('BP-REJECT', 'reject');
    const rec = callRecorder();
    const cp = await connectCharger(s.wsUrl, 'BP-REJECT', { handlers: { Reset: rec.record('Reset', () => ({ status: 'Accepted' })) } });
    open.push(cp);
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Rejected', interval: 300 });
    const now = new Date().toISOString();
    expect(await refusal(cp.call('Heartbeat', {}))).toBe('SecurityError');
    expect(await refusal(cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: now }))).toBe('SecurityError');
    expect(await refusal(cp.call('StartTransaction', { connectorId: 1, idTag: 'X', meterStart: 0, timestamp: now }))).toBe('SecurityError');
    expect(await s.db.query(`SELECT 1 FROM cp_sessions WHERE cp_id = $1 UNION ALL SELECT 1 FROM cp_connectors WHERE cp_id = $1`, [cpId])).toEqual([]);
    // Only the boot is logged.
    const logged = await s.db.query(`SELECT request_type FROM cp_requests WHERE cp_id = $1`, [cpId]);
    expect(logged.map((r) => r.request_type)).toEqual([1]);
    const shown = (await api('GET', `/api/cps/${cpId}`)).body;
    expect(shown).toMatchObject({ online_flag: 1, charging_status: 'BootRejected', connectora_status: 'BootRejected' });
    expect((await api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Hard`)).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_NOT_ACCEPTED });
    expect(rec.received).toEqual([]);
    // A new connection before any boot is refused as well (the policy holds).
    await cp.close({ force: true });
    const again = await connectCharger(s.wsUrl, 'BP-REJECT');
    open.push(again);
    expect(await refusal(again.call('Heartbeat', {}))).toBe('SecurityError');
  });

  it('provision: Pending, GetConfiguration stored, TriggerMessage BootNotification, then Accepted; read once', async () => {
    const cpId = await withPolicy('BP-PROVISION', 'provision');
    const rec = callRecorder();
    const boots: any[] = [];
    let cp!: RPCClient;
    cp = await connectCharger(s.wsUrl, 'BP-PROVISION', {
      handlers: {
        GetConfiguration: rec.record('GetConfiguration', () => ({
          configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '60' }, { key: 'NumberOfConnectors', readonly: true, value: '2' }],
        })),
        TriggerMessage: rec.record('TriggerMessage', () => {
          setTimeout(() => void cp.call('BootNotification', BOOT).then((b) => boots.push(b)), 10);
          return { status: 'Accepted' };
        }),
        RemoteStartTransaction: rec.record('RemoteStartTransaction', () => ({ status: 'Accepted' })),
      },
    });
    open.push(cp);
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Pending', interval: 15 });
    expect(await refusal(cp.call('Heartbeat', {}))).toBe('SecurityError');
    await eventually(async () => boots.length > 0);
    expect(rec.received.map((r) => r.action)).toEqual(['GetConfiguration', 'TriggerMessage']);
    expect(rec.last('TriggerMessage')).toEqual({ requestedMessage: 'BootNotification' });
    expect(boots[0]).toMatchObject({ status: 'Accepted', interval: 60 });
    const keys = await s.db.query(`SELECT key, value FROM cp_config_keys WHERE cp_id = $1 ORDER BY key`, [cpId]);
    expect(keys).toEqual([{ key: 'HeartbeatInterval', value: '60' }, { key: 'NumberOfConnectors', value: '2' }]);
    await cp.call('Heartbeat', {});
    expect((await api('GET', `/api/cps/${cpId}`)).body.charging_status).toBe('N/A');
    // A later cold boot, even on a new connection, finds the keys stored: accepted at once, nothing read again.
    await cp.close({ force: true });
    const next = await connectCharger(s.wsUrl, 'BP-PROVISION', { handlers: { GetConfiguration: rec.record('GetConfiguration', () => ({ configurationKey: [] })) } });
    open.push(next);
    expect(await next.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted' });
    expect(rec.received).toHaveLength(2);
  });
});
