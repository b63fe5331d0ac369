import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';

/** app_config through HTTP: the one place settings live, and its Admin / Everyone authority. */
describe('app_config', () => {
  let s: TestServer;
  let admin: string;
  let editor: string;
  let homeId: number;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await userWith(s, 'cfg-admin', ['READ_APP_CONFIG', 'EDIT_APP_CONFIG', 'CREATE_APP_CONFIG', P.APP_CONFIG_ADMIN]);
    editor = await userWith(s, 'cfg-editor', ['READ_APP_CONFIG', 'EDIT_APP_CONFIG', 'CREATE_APP_CONFIG']);
    const list = await s.api('GET', '/api/app_config?config_key=home_screen', { token: admin });
    homeId = list.body.dataset.content[0].id;
  });
  afterAll(() => s.close());

  it('holds home_screen, written by the seed with authority Admin', async () => {
    const res = await s.api('GET', `/api/app_config/${homeId}`, { token: editor });
    expect(res.body).toMatchObject({ config_key: 'home_screen', config_value: 'CpList', authority: 'Admin' });
    expect(await s.db.query(`SELECT * FROM app_settings`)).toEqual([]);
  });

  it('lets only READ_APP_CONFIG_ADMIN holders change an Admin entry, and /me follows at once', async () => {
    const refused = await s.api('PUT', `/api/app_config/${homeId}`, { token: editor, body: { config_value: 'LMS' } });
    expect([refused.status, refused.body.fields]).toEqual([400, { config_value: 'not_permitted' }]);
    expect((await s.api('PUT', '/api/app/settings', { token: editor, body: { home_screen: 'LMS' } })).body.fields).toEqual({ home_screen: 'not_permitted' });
    const bad = await s.api('PUT', `/api/app_config/${homeId}`, { token: admin, body: { config_value: 'Desktop' } });
    expect([bad.status, bad.body.fields]).toEqual([400, { config_value: 'invalid' }]);
    expect((await s.api('PUT', `/api/app_config/${homeId}`, { token: admin, body: { config_value: 'LMS' } })).status).toBe(200);
    expect((await s.api('POST', '/api/me', { token: editor })).body.home_screen).toBe('LMS');
    expect((await s.api('GET', '/api/app/settings', { token: editor })).body).toEqual({ home_screen: 'LMS' });
    const [log] = await s.db.query(`SELECT action, target, cre_user FROM portal_action_log WHERE target = 'app_config' ORDER BY id DESC LIMIT 1`);
    expect(log).toEqual({ action: 'UPDATE', target: 'app_config', cre_user: 'cfg-admin' });
    await s.api('PUT', `/api/app_config/${homeId}`, { token: admin, body: { config_value: 'CpList' } });
  });

  it('lets EDIT_APP_CONFIG holders create and change Everyone entries, never make one Admin', async () => {
    const created = await s.api('POST', '/api/app_config', { token: editor, body: { config_key: 'support_phone', config_value: '+852 0000 0000', authority: 'Everyone' } });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect((await s.api('PUT', `/api/app_config/${id}`, { token: editor, body: { config_value: '+852 1111 1111' } })).status).toBe(200);
    const promote = await s.api('PUT', `/api/app_config/${id}`, { token: editor, body: { authority: 'Admin' } });
    expect([promote.status, promote.body.fields]).toEqual([400, { authority: 'not_permitted' }]);
    const adminEntry = await s.api('POST', '/api/app_config', { token: editor, body: { config_key: 'secret', config_value: 'x', authority: 'Admin' } });
    expect(adminEntry.body.fields).toEqual({ authority: 'not_permitted' });
    const dup = await s.api('POST', '/api/app_config', { token: admin, body: { config_key: 'support_phone', config_value: 'y', authority: 'Everyone' } });
    expect(dup.body.fields).toEqual({ config_key: 'already_exist' });
    expect((await s.api('PUT', `/api/app_config/${id}`, { token: admin, body: { config_key: 'renamed' } })).status).toBe(400);
    const reader = await userWith(s, 'cfg-reader', ['READ_APP_CONFIG']);
    expect((await s.api('PUT', `/api/app_config/${id}`, { token: reader, body: { config_value: 'z' } })).status).toBe(403);
  });
});
