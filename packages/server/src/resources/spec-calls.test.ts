import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** The list calls of clients other than the portal, as spec part 2 §7 makes them. */
describe('the spec\'s list calls', () => {
  let s: TestServer;
  let token: string;
  let siteA: number;
  let siteB: number;
  const cp: Record<string, number> = {};
  const get = (path: string, t = token) => s.api('GET', path, { token: t });
  const content = async (path: string, t = token) => {
    const res = await get(path, t);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.dataset.content as any[];
  };

  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
    [siteA, siteB] = [await addSite(s.db), await addSite(s.db)];
    cp.a = await addCharger(s.db, 'SPEC-A', { locId: siteA });
    cp.b = await addCharger(s.db, 'SPEC-B', { locId: siteB });
  });

  afterAll(async () => {
    await s?.close();
  });

  it('GET /cps with locId=-1 (no site chosen) answers every charger the user may see, loc_id as {loc_id, address}', async () => {
    const call = '/api/cps?size=99999&page=0&trash=0';
    const [{ address: addressA }] = await s.db.query(`SELECT address FROM cp_locs WHERE loc_id = $1`, [siteA]);
    const all = await content(`${call}&locId=-1`);
    expect(all.map((c) => c.cp_id).sort()).toEqual([cp.a, cp.b].sort());
    expect(all.find((c) => c.cp_id === cp.a)).toMatchObject({ cp_no: 'SPEC-A', loc_id: { loc_id: siteA, address: addressA } });
    // One site, and chargers of no site (locId=0: a charger always has one).
    expect((await content(`${call}&locId=${siteA}`)).map((c) => c.loc_id)).toEqual([{ loc_id: siteA, address: addressA }]);
    expect(await content(`${call}&locId=0`)).toEqual([]);
    // A user kept to site B: -1 means their sites, not every site.
    const scoped = await userWith(s, 'spec-site-b', [readPrivilege('cps')], [siteB]);
    expect((await content(`${call}&locId=-1`, scoped)).map((c) => c.cp_id)).toEqual([cp.b]);
    // The portal's own list (no locId) keeps the site's id, which its columns and filters use.
    expect((await content(`/api/cps?loc_id=${siteA}`)).map((c) => c.loc_id)).toEqual([siteA]);
  });

  it('locId=-1 and locId=0 mean the same on every resource kept to sites', async () => {
    await s.api('POST', '/api/auth_card', { token, body: { name: 'everywhere', rfid_cards: 'SPEC-ANY' } });
    await s.api('POST', '/api/auth_card', { token, body: { name: 'at A', rfid_cards: 'SPEC-A', loc: siteA } });
    expect((await content('/api/auth_card?locId=0')).map((c) => c.name)).toEqual(['everywhere']);
    expect((await content('/api/auth_card?locId=-1')).map((c) => c.name).sort()).toEqual(['at A', 'everywhere']);
  });

  it('takes enable_flag=1 on every option resource: enabled records where there is a flag, every record where there is none', async () => {
    const options = ['cp_locs', 'cps', 'privileges', 'cp_zones', 'roles', 'price_scheme', 'campaign', 'contact', 'contact_group', 'opening_hour',
      'charging_rate', 'service_plans', 'accounts', 'lms_profiles', 'cp_pow', 'users', 'voucher', 'bay'];
    for (const key of options) {
      const res = await get(`/api/${key}?size=99999&page=0&trash=0&enable_flag=1`);
      expect([key, res.status, res.body.errors]).toEqual([key, 200, undefined]);
    }
    // A flag by another name (users.active, contact.status …) filters as enable_flag would.
    await s.db.query(`INSERT INTO contact (name, email, status) VALUES ('on', 'on@example.com', 1), ('off', 'off@example.com', 0)`);
    expect((await content('/api/contact?enable_flag=1')).map((c) => c.name)).toEqual(['on']);
    expect((await content('/api/contact?enable_flag=0')).map((c) => c.name)).toEqual(['off']);
    await s.db.query(`INSERT INTO users (name, role_id, username, password_hash, active) VALUES ('gone', 1, 'spec-gone', 'x', 0)`);
    expect((await content('/api/users?enable_flag=1&size=99999')).map((u) => u.username)).not.toContain('spec-gone');
    expect((await content('/api/users?enable_flag=0')).map((u) => u.username)).toEqual(['spec-gone']);
    // No flag: nothing is disabled, so asking for disabled records is a mistake, said as such.
    const disabled = await get('/api/cp_zones?enable_flag=0');
    expect([disabled.status, disabled.body.fields]).toEqual([400, { enable_flag: 'invalid' }]);
  });

  it('pages the lists of spec part 2 by 10 when no size is asked, the platform lists by 20', async () => {
    await s.db.query(`INSERT INTO contact (name, email) SELECT 'bulk ' || i, 'bulk' || i || '@example.com' FROM generate_series(1, 25) i`);
    expect((await get('/api/contact')).body.dataset.content).toHaveLength(10);
    await s.db.query(`INSERT INTO cp_locs (address) SELECT 'bulk site ' || i FROM generate_series(1, 25) i`);
    expect((await get('/api/cp_locs')).body.dataset.content).toHaveLength(20);
  });
});
