import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** Rules of the spec the generic engine and the site and charger hooks enforce. */
describe('spec rules of the resources', () => {
  let s: TestServer;
  let token: string;
  const get = (path: string) => s.api('GET', path, { token });
  const post = (path: string, body: unknown) => s.api('POST', path, { token, body });
  const put = (path: string, body: unknown) => s.api('PUT', path, { token, body });

  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
  });
  afterAll(() => s.close());

  it('answers a create naming an existing id with the duplicate key message, not a new record', async () => {
    const site = (await post('/api/cp_locs', { address: 'Dup Key Site' })).body.data;
    const again = await post('/api/cp_locs', { loc_id: site.loc_id, address: 'Dup Key Copy' });
    expect(again.status).toBe(400);
    expect(again.body.fields).toEqual({ loc_id: 'duplicate_key' });
    // One in the trash holds its id too.
    await s.api('DELETE', `/api/cp_locs/${site.loc_id}`, { token });
    expect((await post('/api/cp_locs', { loc_id: String(site.loc_id), address: 'Dup Key Copy' })).body.fields).toEqual({ loc_id: 'duplicate_key' });
    expect(await s.db.query(`SELECT 1 FROM cp_locs WHERE address = 'Dup Key Copy'`)).toEqual([]);
    // An id nobody holds is ignored: ids are assigned.
    const fresh = await post('/api/cp_locs', { loc_id: 987654, address: 'Dup Key Fresh' });
    expect(fresh.body.status).toBe('success');
  });

  it('takes a site\'s provider, mode, district and rate only from their option lists', async () => {
    const site = (await post('/api/cp_locs', { address: 'Picker Site' })).body.data;
    const [rate] = await s.db.query(`INSERT INTO charging_rate (name, loc_id) VALUES ('Picker rate', $1) RETURNING id`, [site.loc_id]);
    const bad = await put(`/api/cp_locs/${site.loc_id}`, { provider_id: 99, mode_id: 7, district_id: 19 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ provider_id: 'invalid', mode_id: 'invalid', district_id: 'invalid' });
    const noRate = await post('/api/cp_locs', { address: 'Picker Site 2', rate_id: 99999 });
    expect([noRate.status, noRate.body.fields]).toEqual([400, { rate_id: 'invalid' }]);
    const ok = await put(`/api/cp_locs/${site.loc_id}`, { provider_id: 1, mode_id: 2, district_id: 18, rate_id: rate.id });
    expect(ok.body.data).toMatchObject({ provider_id: 1, mode_id: 2, district_id: 18, rate_id: rate.id });
    const options = (await get('/api/options?opts=site_district&opts=site_mode&lang=zh-TW')).body.options;
    expect(options.site_district.find((o: any) => o.value === 18).label).toBe('離島區');
    expect(options.site_mode.map((o: any) => o.value)).toEqual([0, 1, 2, 3]);
  });

  it('warns with 9001 before deleting a charger that has charging sessions', async () => {
    const loc = (await post('/api/cp_locs', { address: 'Delete Warn Site' })).body.data.loc_id;
    const cp = (await post('/api/cps', { cp_no: 'DEL-WARN', name: 'Warn', loc_id: loc })).body.data;
    expect((await get(`/api/cps/checkDelete/${cp.cp_id}`)).body).toEqual({});
    await s.db.query(
      `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, connector_id, id_tag, session_start_time, start_meter) VALUES (1, $1, 'DEL-WARN', 1, 'T', now(), 0)`,
      [cp.cp_id],
    );
    expect((await get(`/api/cps/checkDelete/${cp.cp_id}`)).body).toEqual({ msgCode: String(ERROR_CODES.DELETE_ALL_TRANSACTIONS) });
  });
});
