import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SimulatedCharger } from '@ev/simulator';
import { ERROR_CODES, P, readPrivilege, type LmsServerMessage, type LmsStatusUpdate } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, eventually, upgradeStatus } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';
import { userWith } from '../testing/users.ts';

/** A portal-side socket client that keeps every message it got. */
async function open(s: TestServer, token: string) {
  const ws = new WebSocket(`${s.wsUrl}/api/lms/status?token=${token}`);
  const got: LmsServerMessage[] = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString())));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const send = (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  /** The first message (after those already seen) that matches. */
  const next = async <T extends LmsServerMessage>(match: (m: LmsServerMessage) => boolean, from = 0): Promise<T> =>
    (await eventually(async () => got.slice(from).find(match) as T | undefined))!;
  return { ws, got, send, next, closed };
}

const fullUpdate = (m: LmsServerMessage): m is LmsStatusUpdate => m.type === 'status_update' && m.full;

describe('the live LMS socket /api/lms/status', () => {
  let s: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof addLmsSite>>;
  let other: Awaited<ReturnType<typeof addLmsSite>>;
  const sims: SimulatedCharger[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    await addCard(s.db, ['CARD-WS']);
    site = await addLmsSite(s.db, { mode: 'QUEUEING', zoneA: 16, minA: 16, maxA: 16, chargers: ['WS-1', 'WS-2'] });
    other = await addLmsSite(s.db, { mode: 'DISTRIBUTION', zoneA: 32, minA: 6, maxA: 32, chargers: ['WS-OTHER'] });
    s.app.lms.configurationChanged();
    for (const cpNo of ['WS-1', 'WS-2', 'WS-OTHER']) {
      const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, connectors: 1, reconnect: false });
      sims.push(sim);
      await sim.start();
    }
    await eventually(async () => s.app.lms.sites.size === 2 && sims.every((c) => c.allowedCurrent(1) === 0));
  });
  afterAll(async () => {
    await Promise.all(sims.map((c) => c.stop()));
    await s.close();
  });

  it('refuses a socket without a valid token (401) or without the LMS privileges (403)', async () => {
    expect(await upgradeStatus(`${s.wsUrl}/api/lms/status`, { protocols: [] })).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/api/lms/status?token=not-a-real-token-at-all-xx`, { protocols: [] })).toBe(401);
    const nobody = await userWith(s, 'ws-nobody', [readPrivilege('cps')]);
    expect(await upgradeStatus(`${s.wsUrl}/api/lms/status?token=${nobody}`, { protocols: [] })).toBe(403);
  });

  it('answers all_status_update with every charger of the sites, then pushes what changes', async () => {
    const c = await open(s, admin);
    c.send({ type: 'all_status_update' });
    const full = await c.next<LmsStatusUpdate>(fullUpdate);
    expect(Object.keys(full.cp).sort()).toEqual(['WS-1', 'WS-2', 'WS-OTHER']);
    expect(full.cp['WS-1']).toMatchObject({ status: 'available', cp_status: 'Available', queueing_pos: null, distributed_current: null, zone_id: site.zoneId });
    expect(full.zones[site.zoneId]).toMatchObject({ max_available_current: 16, distributing_current: 0 });
    expect(full.interval_ms).toBe(5000);

    const seen = c.got.length;
    await sims[0].plugIn(1);
    await sims[0].startTransaction(1, 'CARD-WS');
    await sims[1].plugIn(1);
    // The transaction (status) and the charger's StatusNotification Charging (cp_status) may reach the socket in
    // separate pushes, in either order.
    const charging = await c.next<LmsStatusUpdate>(
      (m) => m.type === 'status_update' && !m.full && m.cp['WS-1']?.status === 'charging' && m.cp['WS-1']?.cp_status === 'Charging', seen);
    expect(charging.cp['WS-1']).toMatchObject({ distributed_current: 16, cp_status: 'Charging', queueing_pos: null });
    expect(charging.cp['WS-1'].start_tran_at).not.toBeNull();
    const queued = await c.next<LmsStatusUpdate>((m) => m.type === 'status_update' && m.cp['WS-2']?.status === 'queueing', seen);
    expect(queued.cp['WS-2']).toMatchObject({ queueing_pos: 1, distributed_current: null, start_tran_at: null });
    expect(queued.cp['WS-2'].start_queueing_at).not.toBeNull();
    c.ws.close();
  });

  it('shows a user kept to one site only that site, and lets them stop only its sessions', async () => {
    const local = await userWith(s, 'ws-local', [readPrivilege('lms/dashboard'), P.REMOTE_START_CHARGER], [other.locId]);
    const c = await open(s, local);
    c.send({ type: 'all_status_update' });
    expect(Object.keys((await c.next<LmsStatusUpdate>(fullUpdate)).cp)).toEqual(['WS-OTHER']);
    c.send({ type: 'stop_charging_session', cpNo: 'WS-1' });
    const refused = await c.next((m) => m.type === 'stop_charging_session_result');
    expect(refused).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_NOT_FOUND });
    expect(sims[0].hasTransaction(1)).toBe(true);
    c.ws.close();
  });

  it('stops a charging session on request, through the remote-stop privilege', async () => {
    const viewer = await userWith(s, 'ws-viewer', [readPrivilege('lms/dashboard')]);
    const v = await open(s, viewer);
    v.send({ type: 'stop_charging_session', cpNo: 'WS-1' });
    expect(await v.next((m) => m.type === 'stop_charging_session_result')).toMatchObject({ status: 'error' });
    expect(sims[0].hasTransaction(1)).toBe(true);
    v.ws.close();

    const c = await open(s, admin);
    c.send({ type: 'stop_charging_session', cpNo: 'WS-1' });
    expect(await c.next((m) => m.type === 'stop_charging_session_result')).toMatchObject({ status: 'success', cpNo: 'WS-1' });
    await eventually(async () => !sims[0].hasTransaction(1));
    // The queued charger gets the freed current.
    await eventually(async () => sims[1].allowedCurrent(1) === 16);
    c.ws.close();
  });

  it('streams the realtime log to those allowed to read it', async () => {
    const c = await open(s, admin);
    c.send({ type: 'subscribe_log' });
    const first = await c.next((m) => m.type === 'lms_log');
    expect(first.type === 'lms_log' && first.entries.some((e) => e.cp_no === 'WS-2' && e.kind === 'queue_started')).toBe(true);
    const dashboardOnly = await userWith(s, 'ws-dash', [readPrivilege('lms/dashboard')]);
    const d = await open(s, dashboardOnly);
    d.send({ type: 'subscribe_log' });
    expect(await d.next((m) => m.type === 'error')).toMatchObject({ message: expect.stringContaining('READ_REALTIME_LOG') });
    c.ws.close();
    d.ws.close();
  });

  it('answers malformed messages with an error and closes a socket that keeps sending them', async () => {
    const c = await open(s, admin);
    c.send('not json');
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ message: expect.stringContaining('Malformed') });
    c.send({ type: 'drop_tables' });
    expect(await c.next((m) => m.type === 'error' && m.message.includes('Unknown'))).toBeTruthy();
    for (let i = 0; i < 25; i++) c.send('{');
    expect(await c.closed).toBe(1008);
    // The server is fine: a new socket works.
    const again = await open(s, admin);
    again.send({ type: 'all_status_update' });
    expect(await again.next(fullUpdate)).toBeTruthy();
    again.ws.close();
  });
});
