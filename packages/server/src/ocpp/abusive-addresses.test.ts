import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, connectCharger, rawCharger } from '../testing/ocpp-support.ts';
import { ADDRESS_REFUSAL_MS, AbusiveAddresses } from './abusive-addresses.ts';

/** The address a flood comes from; the well-behaved chargers use 127.0.0.1. */
const FLOOD_ADDRESS = '127.0.0.2';

/** The HTTP status and Retry-After of an upgrade from `localAddress`, or 101 when it was accepted. */
function upgradeFrom(url: string, localAddress: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['ocpp1.6'], { localAddress });
    ws.once('open', () => (ws.close(), resolve({ status: 101 })));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('addresses whose connections keep being closed for garbage', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ocppGarbageClosesPerAddress: 3 });
    for (const no of ['AB-1', 'AB-2', 'AB-3', 'AB-4', 'AB-5', 'AB-GOOD']) await addCharger(s.db, no);
  });
  afterAll(() => s.close());

  it('are refused at the upgrade once over the limit, while other addresses still connect', async () => {
    // Four flood connections under four chargeBoxIds (the per-chargeBoxId cool-down does not stop that),
    // each closed for unparsable frames in a row; each counts once, however many frames follow the 11th.
    for (const no of ['AB-1', 'AB-2', 'AB-3', 'AB-4']) {
      expect((await upgradeFrom(`${s.wsUrl}/ocpp/AB-5`, FLOOD_ADDRESS)).status, `before ${no}`).toBe(101);
      const raw = await rawCharger(s.wsUrl, no, FLOOD_ADDRESS);
      for (let i = 0; i < 30; i++) raw.send('garbage');
      expect((await raw.closed).code).toBe(1002);
    }
    // The fourth close went over the limit of 3: the address is refused, even under a clean chargeBoxId.
    expect(await upgradeFrom(`${s.wsUrl}/ocpp/AB-5`, FLOOD_ADDRESS)).toEqual({ status: 429, retryAfter: String(ADDRESS_REFUSAL_MS / 1000) });
    const good = await connectCharger(s.wsUrl, 'AB-GOOD');
    expect(await good.call('Heartbeat', {})).toHaveProperty('currentTime');
    await good.close();
  });
});

describe('addresses behind a trusted proxy (TRUST_PROXY)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ocppGarbageClosesPerAddress: 1, trustProxy: ['loopback'] });
    for (const no of ['AP-1', 'AP-2', 'AP-3', 'AP-GOOD']) await addCharger(s.db, no);
  });
  afterAll(() => s.close());

  /** A socket through "the proxy" (this machine) for the client at `forwardedFor`. */
  const through = (cpNo: string, forwardedFor: string) => {
    const ws = new WebSocket(`${s.wsUrl}/ocpp/${cpNo}`, ['ocpp1.6'], { headers: { 'x-forwarded-for': forwardedFor } });
    return new Promise<{ ws?: WebSocket; status: number }>((resolve, reject) => {
      ws.once('open', () => resolve({ ws, status: 101 }));
      ws.once('unexpected-response', (_req, res) => (ws.terminate(), resolve({ status: res.statusCode ?? 0 })));
      ws.once('error', reject);
    });
  };

  it('refuse the forwarded client, not the proxy every charger comes through', async () => {
    for (const no of ['AP-1', 'AP-2']) {
      const { ws } = await through(no, '198.51.100.7');
      const closed = new Promise<number>((resolve) => ws!.once('close', resolve));
      for (let i = 0; i < 11; i++) ws!.send('garbage');
      expect(await closed).toBe(1002);
    }
    expect((await through('AP-3', '198.51.100.7')).status).toBe(429);
    const good = await through('AP-GOOD', '198.51.100.8');
    expect(good.status).toBe(101);
    good.ws!.close();
  });
});

describe('AbusiveAddresses', () => {
  it('counts closes per address over a minute and refuses an address for a minute once over the limit', () => {
    const a = new AbusiveAddresses(2);
    const t = 1_000_000;
    expect([a.closed('10.0.0.1', t), a.closed('10.0.0.1', t + 1), a.closed('10.0.0.2', t + 2)]).toEqual([false, false, false]);
    expect(a.refused('10.0.0.1', t + 3)).toBe(false);
    expect(a.closed('10.0.0.1', t + 3)).toBe(true);
    expect([a.refused('10.0.0.1', t + 4), a.refused('10.0.0.2', t + 4)]).toEqual([true, false]);
    expect(a.refused('10.0.0.1', t + 3 + ADDRESS_REFUSAL_MS)).toBe(false);
    // Closes a minute apart never add up.
    const b = new AbusiveAddresses(2);
    expect([0, 1, 2, 3].map((m) => b.closed('10.0.0.3', t + m * 60_000))).toEqual([false, false, false, false]);
    // 0: off.
    const off = new AbusiveAddresses(0);
    expect([1, 2, 3, 4].map(() => off.closed('10.0.0.4', t))).toEqual([false, false, false, false]);
  });
});
