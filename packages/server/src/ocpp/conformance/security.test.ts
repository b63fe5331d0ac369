import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, BOOT, connectCharger, eventually, upgradeStatus } from '../../testing/ocpp-support.ts';

/**
 * OCTT 1.6 security cases (security whitepaper, profile 1) against the central system: the test tool is
 * the charge point, a raw ocpp-rpc client over a real WebSocket; the portal's password action plays the
 * operator (issue 29).
 */
describe('OCPP 1.6 security: HTTP Basic authentication', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
  });
  afterAll(async () => s.close());
  const basic = (cpNo: string, password: string) => `Basic ${Buffer.from(`${cpNo}:${password}`).toString('base64')}`;

  it('TC_073 Update Charge Point Password for HTTP Basic Authentication', async () => {
    const cpId = await addCharger(s.db, 'OCTT-073', { password: 'octt-initial-password' });
    const received: { key: string; value: string }[] = [];
    const cp = await connectCharger(s.wsUrl, 'OCTT-073', {
      password: 'octt-initial-password',
      handlers: { ChangeConfiguration: (params) => (received.push(params), { status: 'Accepted' }) },
    });
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted' });
    // The operator sets a new password: the central system sends ChangeConfiguration AuthorizationKey.
    const res = await s.api('POST', `/api/cps/${cpId}/password`, { token: admin, body: { password: 'octt-new-password-0001' } });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted' } });
    expect(received).toEqual([{ key: 'AuthorizationKey', value: Buffer.from('octt-new-password-0001').toString('hex') }]);
    // The charge point reconnects with the new password and is accepted; the old one no longer is.
    await cp.close();
    const again = await connectCharger(s.wsUrl, 'OCTT-073', { password: 'octt-new-password-0001' });
    expect(await again.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted' });
    expect(await eventually(async () => !(await s.db.query(`SELECT ocpp_password_rotating FROM cps WHERE cp_id = $1`, [cpId]))[0].ocpp_password_rotating)).toBe(true);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/OCTT-073`, { auth: basic('OCTT-073', 'octt-initial-password') })).toBe(401);
    await again.close();
  });

  it('TC_085 Basic Authentication - Valid username/password combination', async () => {
    await addCharger(s.db, 'OCTT-085', { password: 'octt-valid-password' });
    const cp = await connectCharger(s.wsUrl, 'OCTT-085', { password: 'octt-valid-password' });
    expect(await cp.call('BootNotification', BOOT)).toMatchObject({ status: 'Accepted' });
    await cp.close();
  });

  it('TC_085 Basic Authentication - Invalid username/password combination', async () => {
    await addCharger(s.db, 'OCTT-085-X', { password: 'octt-valid-password' });
    // Wrong password, no password, and a username (chargeBoxId) the central system does not know: 401 each.
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/OCTT-085-X`, { auth: basic('OCTT-085-X', 'octt-wrong-password') })).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/OCTT-085-X`)).toBe(401);
    expect(await upgradeStatus(`${s.wsUrl}/ocpp/OCTT-UNKNOWN`, { auth: basic('OCTT-UNKNOWN', 'octt-valid-password') })).toBe(401);
  });
});
