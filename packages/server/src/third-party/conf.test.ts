import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';

/** Third-party keys in the portal: the secret shown once, kept hashed, removed and replaced. */
describe('third_party_conf', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
  });
  afterAll(() => s.close());

  const create = (body: Record<string, unknown>, token = admin) => s.api('POST', '/api/third_party_conf', { token, body });
  const call = (appId: string, key: string) =>
    s.api('POST', '/api/external/v1/chargers/NONE/stop', { headers: { 'x-app-id': appId, 'x-api-key': key }, body: { connectorId: 1 } });

  it('shows the secret once in the create answer and stores only its hash', async () => {
    const res = await create({ key_name: 'Mall A', app_id: 'mall-a', assigned: 'Mall A Ltd', privilege_key: 'EXT_CHARGING' });
    expect(res.status).toBe(200);
    const { id, api_key } = res.body.data;
    expect(api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await s.db.query(`SELECT * FROM third_party_conf WHERE id = $1`, [id]);
    expect(row.api_key_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(row)).not.toContain(api_key);
    // Never sent back: the view and the list show it masked, the audit keeps neither secret nor hash.
    const view = await s.api('GET', `/api/third_party_conf/${id}`, { token: admin });
    expect(view.body.api_key).toBe('••••••••');
    expect(view.body).not.toHaveProperty('api_key_hash');
    const list = await s.api('GET', '/api/third_party_conf', { token: admin });
    expect(JSON.stringify(list.body)).not.toContain(api_key);
    const audit = await s.db.query(`SELECT new_data::text AS d FROM portal_action_log WHERE target = 'third_party_conf'`);
    expect(audit.length).toBeGreaterThan(0);
    for (const a of audit) expect(a.d).not.toMatch(new RegExp(`${api_key}|scrypt`));
    // The key works.
    expect((await call('mall-a', api_key)).body).toMatchObject({ status: 'error', errorCode: 10001 });
  });

  it('refuses a duplicate app id and bad input with a 400', async () => {
    const dup = await create({ key_name: 'Again', app_id: 'mall-a', privilege_key: 'EXT_CHARGING' });
    expect(dup.status).toBe(400);
    expect(dup.body.fields).toMatchObject({ app_id: 'already_exist' });
    const bad = await create({ key_name: 'X', app_id: 'x-1', privilege_key: 'SUPERUSER' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('privilege_key');
    expect((await create({ key_name: 'X' })).status).toBe(400);
    expect((await s.api('POST', '/api/third_party_conf/abc/newSecret', { token: admin })).status).toBe(400);
    expect((await s.api('POST', '/api/third_party_conf/99999/removeSecret', { token: admin })).status).toBe(404);
  });

  it('removes the secret: calls are refused 401 and logged; a new secret works again', async () => {
    const created = (await create({ key_name: 'Park B', app_id: 'park-b', privilege_key: 'EXT_ALL' })).body.data;
    const removed = await s.api('POST', `/api/third_party_conf/${created.id}/removeSecret`, { token: admin });
    expect(removed.body).toEqual({ status: 'success' });
    expect((await s.api('GET', `/api/third_party_conf/${created.id}`, { token: admin })).body.api_key).toBeNull();
    const refused = await call('park-b', created.api_key);
    expect(refused.status).toBe(401);
    const [log] = await s.db.query(`SELECT * FROM third_party_error_log WHERE app_id = 'park-b' ORDER BY id DESC LIMIT 1`);
    expect(log).toMatchObject({ action: 'remote_stop', error_code: 'invalid_credentials', charger_id: 'NONE', connector_id: 1 });
    const renewed = await s.api('POST', `/api/third_party_conf/${created.id}/newSecret`, { token: admin });
    const secret = renewed.body.data.api_key;
    expect(secret).not.toBe(created.api_key);
    expect((await call('park-b', created.api_key)).status).toBe(401);
    expect((await call('park-b', secret)).body).toMatchObject({ status: 'error', errorCode: 10001 });
    const actions = await s.db.query(`SELECT remark FROM portal_action_log WHERE target = 'third_party_conf' AND target_id = $1 ORDER BY id`, [String(created.id)]);
    expect(actions.map((a) => a.remark)).toEqual([null, 'secret removed', 'new secret']);
  });

  it('checks the privileges on the server', async () => {
    const reader = await userWith(s, 'tp-reader', ['READ_THIRD_PARTY_CONF']);
    expect((await create({ key_name: 'R', app_id: 'r-1', privilege_key: 'EXT_ALL' }, reader)).status).toBe(403);
    const [{ id }] = await s.db.query(`SELECT id FROM third_party_conf WHERE app_id = 'mall-a'`);
    expect((await s.api('POST', `/api/third_party_conf/${id}/newSecret`, { token: reader })).status).toBe(403);
    expect((await s.api('POST', `/api/third_party_conf/${id}/removeSecret`, { token: reader })).status).toBe(403);
    expect((await s.api('GET', '/api/third_party_conf', { token: reader })).status).toBe(200);
    const logReader = await userWith(s, 'tp-log', ['READ_THIRD_PARTY_ERROR_LOG']);
    const logs = await s.api('GET', '/api/third_party_error_log', { token: logReader });
    expect(logs.status).toBe(200);
    const ids = logs.body.dataset.content.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await s.api('POST', '/api/third_party_error_log', { token: admin, body: {} })).status).toBe(405);
  });
});
