import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/server.ts';

describe('sign-in and session', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('signs in, answers /me with privileges, signs out and revokes the token', async () => {
    const token = await s.login();
    const me = await s.api('POST', '/api/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'admin', role: 'super_admin', home_screen: 'CpList' });
    expect(me.body.privileges).toContain('READ_CP_LOCS');
    expect(me.body.privileges).toContain('cstDebug');
    expect((await s.api('POST', '/api/logout', { token })).status).toBe(200);
    expect((await s.api('POST', '/api/me', { token })).status).toBe(401);
    const log = await s.db.query(`SELECT type, ip FROM user_log ORDER BY user_log_id`);
    expect(log.map((r) => r.type)).toEqual(['LOGIN', 'LOGOUT']);
    expect(log[0].ip).toBe('127.0.0.1');
  });

  it('answers the home-screen setting in /me and lets app_config editors change it', async () => {
    const token = await s.login();
    expect((await s.api('PUT', '/api/app/settings', { token, body: { home_screen: 'LMS' } })).status).toBe(200);
    expect((await s.api('POST', '/api/me', { token })).body.home_screen).toBe('LMS');
    const bad = await s.api('PUT', '/api/app/settings', { token, body: { home_screen: 'Desktop' } });
    expect([bad.status, Object.keys(bad.body.fields)]).toEqual([400, ['home_screen']]);
    expect((await s.api('GET', '/api/app/settings', { token })).body).toEqual({ home_screen: 'LMS' });
    await s.api('PUT', '/api/app/settings', { token, body: { home_screen: 'CpList' } });
  });

  it('refuses a wrong password with the spec message and logs the failure', async () => {
    const res = await s.api('POST', '/api/login', { body: { username: 'admin', password: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['Login failed, incorrect account or password']);
    const [row] = await s.db.query(`SELECT type FROM user_log ORDER BY user_log_id DESC LIMIT 1`);
    expect(row.type).toBe('LOGIN_FAILED');
  });

  it('stores tokens hashed, never in clear', async () => {
    const token = await s.login();
    const rows = await s.db.query(`SELECT token_hash FROM login_tokens`);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('rate-limits repeated failures for one username', async () => {
    for (let i = 0; i < 10; i++) await s.api('POST', '/api/login', { body: { username: 'victim', password: 'x' } });
    const res = await s.api('POST', '/api/login', { body: { username: 'victim', password: 'x' } });
    expect(res.status).toBe(429);
    // Until the first of the 10 failures leaves the 15-minute window.
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(890);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    // Another username from the same address is still allowed to try.
    expect((await s.api('POST', '/api/login', { body: { username: 'admin', password: TEST_ADMIN_PASSWORD } })).status).toBe(200);
  });

  it('answers broken tokens, bad JSON, unknown fields and huge bodies with a 4xx', async () => {
    expect((await s.api('POST', '/api/me', { token: 'not a token!' })).status).toBe(401);
    expect((await s.api('POST', '/api/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await s.api('POST', '/api/login', { raw: '{oops', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const extra = await s.api('POST', '/api/login', { body: { username: 'a', password: 'b', admin: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.fields.admin).toBe('unknown_field');
    const wrongType = await s.api('POST', '/api/login', { body: { username: 5, password: 'b' } });
    expect(wrongType.status).toBe(400);
    const huge = await s.api('POST', '/api/login', { body: { username: 'a', password: 'x'.repeat(10 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
  });
});
