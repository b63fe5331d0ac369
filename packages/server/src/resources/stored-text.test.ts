import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { storedText } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** Texts the server writes for people are stored as a key with parameters and exported in the reader's language. */
describe('stored texts', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
  });
  afterAll(() => s.close());

  it('keeps the user log as message keys', async () => {
    expect((await s.api('POST', '/api/login', { body: { username: 'admin', password: 'wrong' } })).status).toBe(400);
    const rows = await s.db.query(`SELECT type, msg FROM user_log WHERE username = 'admin' ORDER BY user_log_id`);
    expect(rows).toEqual([
      { type: 'LOGIN', msg: storedText('msg.log.user.login') },
      { type: 'LOGIN_FAILED', msg: storedText('msg.log.user.loginWrongPassword') },
    ]);
  });

  it('exports them in the language asked for, and rows written as plain text as they are', async () => {
    await s.db.query(`INSERT INTO user_log (type, username, msg) VALUES ('LOGIN', 'old-row', 'Login')`);
    const sheet = async (lang: string) => {
      const res = await fetch(`${s.baseUrl}/api/user_log/export/excel?headers=Msg&keys=msg&order=asc&lang=${lang}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
      return wb.worksheets[0].getSheetValues().slice(2).map((r: any) => r[1]);
    };
    expect(await sheet('zh-TW')).toEqual(['已登入', '登入失敗：密碼錯誤', 'Login']);
    expect(await sheet('en')).toEqual(['Signed in', 'Login failed: wrong password', 'Login']);
  });

  it('answers an audit row with its record before and after and the resource it concerns, for the changes view', async () => {
    const site = (await s.api('POST', '/api/cp_locs', { token, body: { address: 'Audit Site', address_chi: '審計站' } })).body.data;
    await s.api('PUT', `/api/cp_locs/${site.loc_id}`, { token, body: { address: 'Audit Site B' } });
    const list = await s.api('GET', `/api/portal_action_log?action=UPDATE&target=cp_locs`, { token });
    const view = await s.api('GET', `/api/portal_action_log/${list.body.dataset.content[0].id}`, { token });
    expect(view.body.changes).toMatchObject({ target: 'cp_locs', old: { address: 'Audit Site', address_chi: '審計站' }, new: { address: 'Audit Site B' } });
  });
});
