import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, addSite, connectCharger } from '../../testing/ocpp-support.ts';
import { setCurrentConfig } from '../../testing/config-chargers.ts';

/**
 * OCTT 1.6 (Central System) configuration cases, through the portal's per-charger routes: the tool
 * plays the charger (a strict ocpp-rpc client, which checks every request of the server against the
 * OCPP 1.6 schemas) and the operator reads and sets keys in the portal.
 */

/** The charger's keys, as the tool's charger holds them. */
const KEYS: Record<string, { readonly: boolean; value: string }> = {
  HeartbeatInterval: { readonly: false, value: '300' },
  MeterValueSampleInterval: { readonly: false, value: '60' },
  NumberOfConnectors: { readonly: true, value: '2' },
  AuthorizeRemoteTxRequests: { readonly: false, value: 'true' },
};

describe('OCTT 1.6 configuration', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  /** What the charger received, in order. */
  const received: { action: string; params: any }[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT-CFG', { locId: await addSite(s.db) });
    await setCurrentConfig(s.db, cpId);
    charger = await connectCharger(s.wsUrl, 'OCTT-CFG', {
      handlers: {
        GetConfiguration: (params: { key?: string[] }) => {
          received.push({ action: 'GetConfiguration', params });
          const asked = params.key?.length ? params.key : Object.keys(KEYS);
          return {
            configurationKey: asked.filter((k) => KEYS[k]).map((key) => ({ key, ...KEYS[key]! })),
            unknownKey: asked.filter((k) => !KEYS[k]),
          };
        },
        ChangeConfiguration: (params: { key: string; value: string }) => {
          received.push({ action: 'ChangeConfiguration', params });
          const known = KEYS[params.key];
          if (!known) return { status: 'NotSupported' };
          if (known.readonly || !/^\d+$/.test(params.value)) return { status: 'Rejected' };
          known.value = params.value;
          return { status: 'Accepted' };
        },
      },
    });
    expect(await charger.call('BootNotification', { chargePointVendor: 'OCTT', chargePointModel: 'Tool' })).toMatchObject({ status: 'Accepted' });
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const last = () => received[received.length - 1]!;

  describe('TC_019 Retrieve configuration', () => {
    it('TC_019_1 Retrieve all configuration keys', async () => {
      const res = await api('POST', `/api/cps/${cpId}/getConfiguration`, {});
      // All keys: the request names none.
      expect(last()).toEqual({ action: 'GetConfiguration', params: {} });
      expect(res.body.configurationKey.map((k: any) => [k.key, k.value, k.readonly])).toEqual([
        ['AuthorizeRemoteTxRequests', 'true', false],
        ['HeartbeatInterval', '300', false],
        ['MeterValueSampleInterval', '60', false],
        ['NumberOfConnectors', '2', true],
      ]);
      expect(res.body.readAt).toEqual(expect.any(String));
    });

    it('TC_019_2 Retrieve specific configuration keys', async () => {
      const res = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval', 'NumberOfConnectors'] });
      expect(last()).toEqual({ action: 'GetConfiguration', params: { key: ['HeartbeatInterval', 'NumberOfConnectors'] } });
      expect(res.body.configurationKey.map((k: any) => [k.key, k.value])).toEqual([['HeartbeatInterval', '300'], ['NumberOfConnectors', '2']]);
      expect(res.body.unknownKey).toEqual([]);
    });
  });

  it('TC_021 Change/set configuration', async () => {
    const res = await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'MeterValueSampleInterval', value: '30' });
    expect(last()).toEqual({ action: 'ChangeConfiguration', params: { key: 'MeterValueSampleInterval', value: '30' } });
    expect(res.body).toEqual({ key: 'MeterValueSampleInterval', answer: 'Accepted' });
    // Read back: the charger has the value, and the configuration (which wants 30) no longer differs.
    const read = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['MeterValueSampleInterval'] });
    expect(read.body.configurationKey[0]).toMatchObject({ key: 'MeterValueSampleInterval', value: '30', drift: false });
  });

  describe('TC_040 Configuration keys', () => {
    it('TC_040_1 Configuration key NotSupported', async () => {
      const res = await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'OcttUnknownKey', value: '1' });
      expect(last()).toEqual({ action: 'ChangeConfiguration', params: { key: 'OcttUnknownKey', value: '1' } });
      expect(res.body).toEqual({ key: 'OcttUnknownKey', answer: 'NotSupported' });
    });

    it('TC_040_2 Configuration key invalid value', async () => {
      const res = await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'HeartbeatInterval', value: '-x' });
      expect(last()).toEqual({ action: 'ChangeConfiguration', params: { key: 'HeartbeatInterval', value: '-x' } });
      expect(res.body).toEqual({ key: 'HeartbeatInterval', answer: 'Rejected' });
      expect(KEYS.HeartbeatInterval!.value).toBe('300');
    });
  });
});
