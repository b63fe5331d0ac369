import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, BOOT, connectCharger, eventually, upgradeStatus } from '../testing/ocpp-support.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('OCPP connection', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await addCharger(s.db, 'CP-OPEN');
    await addCharger(s.db, 'CP-PW', { password: 'secret-1' });
    await addCharger(s.db, 'CP-OFF', { enable: 0 });
    const gone = await addCharger(s.db, 'CP-GONE');
    await s.db.query(`UPDATE cps SET deleted_at = now() WHERE cp_id = $1`, [gone]);
  });
  afterAll(() => s.close());

  const online = async (cpNo: string) =>
    (await s.db.query(`SELECT online_flag, online_since, last_message_dttm FROM cps WHERE cp_no = $1 AND deleted_at IS NULL`, [cpNo]))[0];

  it('accepts a known charger, records it online, and offline when it closes', async () => {
    const cp = await connectCharger(s.wsUrl, 'CP-OPEN');
    expect(cp.protocol).toBe('ocpp1.6');
    expect(await eventually(async () => (await online('CP-OPEN')).online_flag === 1)).toBe(true);
    expect((await online('CP-OPEN')).online_since).not.toBeNull();
    await cp.close();
    expect(await eventually(async () => (await online('CP-OPEN')).online_flag === 0)).toBe(true);
  });

  it('checks the HTTP Basic password of a charger that has one', async () => {
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-PW`)).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-PW`, { auth: basic('CP-PW', 'wrong') })).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-PW`, { auth: basic('CP-PW', 'secret-1') })).toBe(101);
    // The cached verification is still checked against the password sent.
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-PW`, { auth: basic('CP-PW', 'secret-2') })).toBe(401);
    const cp = await connectCharger(s.wsUrl, 'CP-PW', { password: 'secret-1' });
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted' });
    await cp.close();
  });

  it('refuses unknown, disabled and deleted chargers and logs why', async () => {
    const warn = vi.spyOn(s.app.log, 'warn');
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/NOPE`)).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-OFF`)).toBe(403);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-GONE`)).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/`)).toBe(404);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/a/b`)).toBe(404);
    const logged = warn.mock.calls.map(([obj]) => obj as any);
    expect(logged).toEqual(expect.arrayContaining([
      expect.objectContaining({ cpNo: 'NOPE', reason: 'unknown charger' }),
      expect.objectContaining({ cpNo: 'CP-OFF', reason: 'charger disabled' }),
      expect.objectContaining({ cpNo: 'CP-GONE', reason: 'charger deleted' }),
    ]));
    warn.mockRestore();
  });

  it('refuses a connection that offers neither ocpp2.0.1 nor ocpp1.6', async () => {
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-OPEN`, { protocols: ['ocpp2.1'] })).toBe(400);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-OPEN`, { protocols: [] })).toBe(400);
  });

  it('replaces the older socket on reconnect and keeps the newer one online', async () => {
    const first = await connectCharger(s.wsUrl, 'CP-OPEN');
    const firstClosed = new Promise((resolve) => first.once('close', resolve));
    const second = await connectCharger(s.wsUrl, 'CP-OPEN');
    await firstClosed;
    expect(await second.call('Heartbeat', {})).toHaveProperty('currentTime');
    await new Promise((r) => setTimeout(r, 100));
    expect((await online('CP-OPEN')).online_flag).toBe(1);
    const [{ cp_id }] = await s.db.query(`SELECT cp_id FROM cps WHERE cp_no = 'CP-OPEN'`);
    expect(s.app.ocpp.central.connection(cp_id)?.client).toBeDefined();
    await second.close();
    expect(await eventually(async () => (await online('CP-OPEN')).online_flag === 0)).toBe(true);
  });

  it('writes last_message_dttm at most once per few seconds per charger', async () => {
    const cp = await connectCharger(s.wsUrl, 'CP-OPEN');
    await cp.call('Heartbeat', {});
    const t1 = (await online('CP-OPEN')).last_message_dttm;
    await cp.call('Heartbeat', {});
    await cp.call('Heartbeat', {});
    expect((await online('CP-OPEN')).last_message_dttm).toEqual(t1);
    await cp.close();
  });

  describe('a charger changed in the portal while connected', () => {
    let admin: string;
    beforeAll(async () => {
      admin = await s.login();
    });
    const put = (cpId: number, body: object) => s.api('PUT', `/api/cps/${cpId}`, { token: admin, body });
    const closeOf = (cp: { once: (e: 'close', fn: (ev: { code: number; reason: string }) => void) => unknown }) =>
      new Promise<{ code: number; reason: string }>((resolve) => cp.once('close', resolve));

    it('is disconnected when disabled, and refused afterwards', async () => {
      const cpId = await addCharger(s.db, 'CP-DIS', { password: 'secret-1' });
      const cp = await connectCharger(s.wsUrl, 'CP-DIS', { password: 'secret-1' });
      const closed = closeOf(cp);
      const info = vi.spyOn(s.app.log, 'info');
      expect((await put(cpId, { enable_flag: 0 })).body.status).toBe('success');
      expect(await closed).toMatchObject({ code: 1008, reason: 'charger disabled' });
      expect(info.mock.calls.map(([obj]) => obj)).toContainEqual(expect.objectContaining({ cpNo: 'CP-DIS', reason: 'charger disabled' }));
      info.mockRestore();
      expect(await eventually(async () => (await online('CP-DIS')).online_flag === 0)).toBe(true);
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-DIS`, { auth: basic('CP-DIS', 'secret-1') })).toBe(403);
    });

    it('is disconnected on a new password, which it must then sign in with', async () => {
      const cpId = await addCharger(s.db, 'CP-NEWPW', { password: 'secret-1' });
      const cp = await connectCharger(s.wsUrl, 'CP-NEWPW', { password: 'secret-1' });
      const closed = closeOf(cp);
      expect((await put(cpId, { ocpp_password: 'secret-2-sixteen-chars' })).body.status).toBe('success');
      expect(await closed).toMatchObject({ code: 1008, reason: 'password changed' });
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-NEWPW`, { auth: basic('CP-NEWPW', 'secret-1') })).toBe(401);
      const again = await connectCharger(s.wsUrl, 'CP-NEWPW', { password: 'secret-2-sixteen-chars' });
      expect(await again.call('Heartbeat', {})).toHaveProperty('currentTime');
      await again.close();
    });

    it('stays connected through an edit that does not concern its sign-in', async () => {
      const cpId = await addCharger(s.db, 'CP-KEEP', { password: 'secret-1' });
      const cp = await connectCharger(s.wsUrl, 'CP-KEEP', { password: 'secret-1' });
      // An empty password field in the form means "unchanged".
      expect((await put(cpId, { name: 'Renamed', ocpp_password: '' })).body.status).toBe('success');
      await new Promise((r) => setTimeout(r, 100));
      expect(await cp.call('Heartbeat', {})).toHaveProperty('currentTime');
      await cp.close();
    });

    it('is disconnected when deleted, and refused afterwards', async () => {
      const cpId = await addCharger(s.db, 'CP-DEL');
      const cp = await connectCharger(s.wsUrl, 'CP-DEL');
      const closed = closeOf(cp);
      expect((await s.api('DELETE', `/api/cps/${cpId}`, { token: admin })).status).toBe(200);
      expect(await closed).toMatchObject({ code: 1008, reason: 'charger deleted' });
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-DEL`)).toBe(401);
    });
  });
});

describe('OCPP keep-alive pings', () => {
  const PING_MS = 150;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ocppPingIntervalMs: PING_MS });
  });
  afterAll(() => s.close());

  /** A bare socket that counts the server's pings; autoPong false plays a charger that no longer answers. */
  async function socket(server: TestServer, cpNo: string, autoPong: boolean) {
    const ws = new WebSocket(`${server.wsUrl}/ocpp/${cpNo}`, ['ocpp1.6'], { autoPong });
    const seen = { pings: 0, closed: null as number | null };
    ws.on('ping', () => seen.pings++);
    ws.on('close', (code) => (seen.closed = code));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return { ws, seen };
  }
  const flags = async (server: TestServer, cpNo: string) =>
    (await server.db.query<{ online_flag: number; online_since: Date | null }>(`SELECT online_flag, online_since FROM cps WHERE cp_no = $1`, [cpNo]))[0];
  const onlineFlag = async (server: TestServer, cpNo: string) => (await flags(server, cpNo)).online_flag;

  it('pings every connection and keeps the chargers that answer', async () => {
    await addCharger(s.db, 'CP-PONG');
    const { ws, seen } = await socket(s, 'CP-PONG', true);
    await new Promise((r) => setTimeout(r, PING_MS * 6));
    expect(seen.pings).toBeGreaterThanOrEqual(3);
    expect(seen.closed).toBeNull();
    expect(await onlineFlag(s, 'CP-PONG')).toBe(1);
    ws.close();
  });

  it('cuts a connection that leaves a ping unanswered until the next, and records the charger offline', async () => {
    await addCharger(s.db, 'CP-SILENT');
    const info = vi.spyOn(s.app.log, 'info');
    const { seen } = await socket(s, 'CP-SILENT', false);
    expect(await eventually(async () => seen.closed !== null, PING_MS * 10)).toBe(true);
    expect(seen.closed).toBe(1006); // cut, no close handshake
    expect(seen.pings).toBeGreaterThanOrEqual(1);
    expect(await eventually(async () => (await onlineFlag(s, 'CP-SILENT')) === 0)).toBe(true);
    expect((await flags(s, 'CP-SILENT')).online_since).not.toBeNull(); // it had been online
    expect(info.mock.calls.map(([obj, msg]) => [obj, msg])).toContainEqual([{ cpNo: 'CP-SILENT' }, 'OCPP charger did not answer the last ping: connection cut']);
    info.mockRestore();
  });

  it('sends no pings with OCPP_PING_INTERVAL_MS=0', async () => {
    const quiet = await startTestServer({ ocppPingIntervalMs: 0 });
    try {
      await addCharger(quiet.db, 'CP-QUIET');
      const { ws, seen } = await socket(quiet, 'CP-QUIET', false);
      await new Promise((r) => setTimeout(r, 1500));
      expect(seen).toEqual({ pings: 0, closed: null });
      ws.close();
    } finally {
      await quiet.close();
    }
  });
});
