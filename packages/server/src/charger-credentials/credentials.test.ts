import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { P } from '@ev/core';
import { verifyPassword } from '../crypto/passwords.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, eventually, upgradeStatus } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

const OLD = 'old-password-0123';
const basic = (cpNo: string, password: string) => `Basic ${Buffer.from(`${cpNo}:${password}`).toString('base64')}`;

/** Issue 29: a charger's password set or rotated from the portal, against the simulator over a real WebSocket. */
describe('charger password rotation', () => {
  let s: TestServer;
  let admin: string;
  const sims: SimulatedCharger[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
  });
  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const row = async (cpId: number) => (await s.db.query(`SELECT * FROM cps WHERE cp_id = $1`, [cpId]))[0];
  const simulator = async (cpNo: string, password?: string) => {
    const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, password, connectors: 1, reconnect: false });
    sims.push(sim);
    await sim.start();
    return sim;
  };

  it('rotates without disconnecting: the old password works until the charger reconnects with the new one', async () => {
    const cpId = await addCharger(s.db, 'SIM-ROT', { password: OLD });
    const sim = await simulator('SIM-ROT', OLD);
    let disconnects = 0;
    sim.on('disconnected', () => disconnects++);

    const res = await api('POST', `/api/cps/${cpId}/password`, { generate: true });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted' }, rotating: true });
    const generated: string = res.body.password;
    expect(generated).toMatch(/^[\w-]{20}$/);
    // The charger got the password hex-encoded (AuthorizationKey) and keeps it for its next sign-in.
    expect(sim.password).toBe(generated);
    expect(await sim.heartbeat()).toEqual(expect.any(String));
    expect(disconnects).toBe(0);

    // Stored only as hashes; the state says the old sign-in is still accepted.
    const stored = await row(cpId);
    expect(await verifyPassword(generated, stored.ocpp_password_hash)).toBe(true);
    expect(await verifyPassword(OLD, stored.ocpp_password_previous_hash)).toBe(true);
    expect((await api('GET', `/api/cps/${cpId}/password`)).body).toMatchObject({ set: true, rotating: true, online: true, changedAt: expect.any(String) });

    // Never in clear in cp_requests or the action log.
    const [logged] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_data->>'key' = 'AuthorizationKey'`, [cpId]);
    expect(logged.request_data).toEqual({ key: 'AuthorizationKey', value: '********' });
    const [audit] = await s.db.query(`SELECT new_data FROM portal_action_log WHERE action = 'COMMAND' AND target_id = $1 ORDER BY id DESC LIMIT 1`, [String(cpId)]);
    expect(audit.new_data.params).toEqual({ key: 'AuthorizationKey', value: '********' });
    const everything = JSON.stringify([await s.db.query(`SELECT * FROM cp_requests`), await s.db.query(`SELECT * FROM portal_action_log`)]);
    expect(everything).not.toContain(generated);
    expect(everything).not.toContain(Buffer.from(generated).toString('hex'));

    // The old password still signs in (that connection replaces the simulator's) …
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-ROT`, { auth: basic('SIM-ROT', OLD) })).toBe(101);
    expect((await row(cpId)).ocpp_password_rotating).toBe(true);
    // … until the charger signs in with the new one: from then on it is refused.
    expect(await eventually(async () => !sim.isConnected)).toBe(true);
    await sim.reconnect();
    expect(sim.isConnected).toBe(true);
    expect(await eventually(async () => !(await row(cpId)).ocpp_password_rotating)).toBe(true);
    expect((await row(cpId)).ocpp_password_previous_hash).toBeNull();
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-ROT`, { auth: basic('SIM-ROT', OLD) })).toBe(401);
  });

  it('keeps the old password when the charger answers Rejected or NotSupported', async () => {
    const cpId = await addCharger(s.db, 'SIM-REJ', { password: OLD });
    const sim = await simulator('SIM-REJ', OLD);
    for (const status of ['Rejected', 'NotSupported']) {
      sim.respondTo('ChangeConfiguration', () => ({ status }));
      const res = await api('POST', `/api/cps/${cpId}/password`, { password: 'a-brand-new-password!' });
      expect(res.body).toMatchObject({ status: 'error', errorCode: 10032, data: { status } });
      expect(res.body).not.toHaveProperty('password');
      const stored = await row(cpId);
      expect(await verifyPassword(OLD, stored.ocpp_password_hash)).toBe(true);
      expect(stored).toMatchObject({ ocpp_password_previous_hash: null, ocpp_password_rotating: false, password_changed_at: null });
    }
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-REJ`, { auth: basic('SIM-REJ', 'a-brand-new-password!') })).toBe(401);
  });

  it('sets a first password on a charger that had none: it signs in without one until it reconnects with it', async () => {
    const cpId = await addCharger(s.db, 'SIM-FIRST');
    const sim = await simulator('SIM-FIRST');
    const res = await api('POST', `/api/cps/${cpId}/password`, { password: 'first-password-0001' });
    expect(res.body).toMatchObject({ status: 'success', rotating: true });
    expect(res.body).not.toHaveProperty('password'); // typed by the operator: not answered back
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-FIRST`)).toBe(101);
    expect(await eventually(async () => !sim.isConnected)).toBe(true);
    await sim.reconnect();
    expect(await eventually(async () => !(await row(cpId)).ocpp_password_rotating)).toBe(true);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-FIRST`)).toBe(401);
  });

  it('refuses bad input (400), a charger not connected (10030, nothing changed) and callers without the privilege (403)', async () => {
    const cpId = await addCharger(s.db, 'SIM-IDLE', { password: OLD });
    for (const body of [{ password: 'short' }, { password: 'x'.repeat(41) }, { password: 'has a space in it ok' }, {}, { password: OLD, generate: true }]) {
      expect((await api('POST', `/api/cps/${cpId}/password`, body)).status).toBe(400);
    }
    expect((await api('POST', `/api/cps/${cpId}/password`, { generate: true })).body).toEqual({ status: 'error', errorCode: 10030 });
    expect(await verifyPassword(OLD, (await row(cpId)).ocpp_password_hash)).toBe(true);
    expect((await api('POST', `/api/cps/999999/password`, { generate: true })).body).toEqual({ status: 'error', errorCode: 10001 });

    const other = await userWith(s, 'nopassword', [P.REMOTE_RESET_CHARGER]);
    expect((await api('POST', `/api/cps/${cpId}/password`, { generate: true }, other)).status).toBe(403);
    expect((await api('GET', `/api/cps/${cpId}/password`, undefined, other)).status).toBe(403);
    const allowed = await userWith(s, 'setspassword', [P.CHARGER_PASSWORD]);
    expect((await api('GET', `/api/cps/${cpId}/password`, undefined, allowed)).body).toMatchObject({ set: true, rotating: false, online: false });
  });

  it('refuses unknown chargers and wrong passwords with 401, counted by reason in the metrics', async () => {
    await addCharger(s.db, 'SIM-WRONG', { password: OLD });
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/NO-SUCH-CP`, { auth: basic('NO-SUCH-CP', OLD) })).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-WRONG`, { auth: basic('SIM-WRONG', 'not-the-password-at-all') })).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-WRONG`)).toBe(401);
    const metrics = await (await fetch(`${s.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/ev_ocpp_connections_refused_total\{reason="unknown charger"\} [1-9]/);
    expect(metrics).toMatch(/ev_ocpp_connections_refused_total\{reason="wrong password"\} [1-9]/);
    expect(metrics).toMatch(/ev_ocpp_connections_refused_total\{reason="no password"\} [1-9]/);
  });
});

describe('failed charger sign-ins per address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ocppSignInFailuresPerAddress: 3 });
  });
  afterAll(async () => s.close());

  it('refuses an address with 429 past the limit, even with the right password', async () => {
    await addCharger(s.db, 'SIM-GUESS', { password: OLD });
    for (let i = 0; i < 4; i++) {
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-GUESS`, { auth: basic('SIM-GUESS', `guess-number-${i}-xxxxxx`) })).toBe(401);
    }
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/SIM-GUESS`, { auth: basic('SIM-GUESS', OLD) })).toBe(429);
    const metrics = await (await fetch(`${s.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/ev_ocpp_connections_refused_total\{reason="too many failed sign-ins"\} 1/);
  });
});
