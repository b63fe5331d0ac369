import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { LIST_PAGE_CAP, RESOURCES } from '@ev/core';
import { EXACT_COUNT_LIMIT } from './list.ts';

describe('generic resource engine over HTTP', () => {
  let s: TestServer;
  let token: string;
  const get = (path: string) => s.api('GET', path, { token });
  const post = (path: string, body: unknown) => s.api('POST', path, { token, body });
  const put = (path: string, body: unknown) => s.api('PUT', path, { token, body });
  const del = (path: string) => s.api('DELETE', path, { token });

  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
  });
  afterAll(() => s.close());

  it('creates, reads, updates and deletes a site, writing the audit log', async () => {
    const created = await post('/api/cp_locs', { address: 'Harbour Car Park', address_chi: '海港停車場', gps_lat: 22.3 });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('success');
    const id = created.body.data.loc_id;
    expect(created.body.data).toMatchObject({ address: 'Harbour Car Park', enable_flag: 1, free_charge_flag: 0 });
    expect(created.body.data.lupd_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const updated = await put(`/api/cp_locs/${id}`, { address: 'Harbour Car Park B1', enable_flag: '0' });
    expect(updated.body.data).toMatchObject({ address: 'Harbour Car Park B1', enable_flag: 0 });
    expect((await get(`/api/cp_locs/${id}`)).body.address).toBe('Harbour Car Park B1');

    const removed = await del(`/api/cp_locs/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBe('Deleted');

    const audit = await s.db.query(`SELECT action, old_data, new_data, cre_user FROM portal_action_log WHERE target = 'cp_locs' AND target_id = $1 ORDER BY id`, [String(id)]);
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(audit[1].old_data.address).toBe('Harbour Car Park');
    expect(audit[1].new_data.address).toBe('Harbour Car Park B1');
    expect(audit[0].cre_user).toBe('admin');
  });

  it('soft-deleted rows show only in trash mode, and can still be viewed', async () => {
    const { body } = await post('/api/cp_locs', { address: 'Trash Test Site' });
    const id = body.data.loc_id;
    await del(`/api/cp_locs/${id}`);
    const live = await get('/api/cp_locs?address=Trash%20Test');
    expect(live.body.dataset.totalElements).toBe(0);
    const trash = await get('/api/cp_locs?address=Trash%20Test&trash=1');
    expect(trash.body.dataset.content.map((r: any) => r.loc_id)).toEqual([id]);
    expect((await get(`/api/cp_locs/${id}`)).status).toBe(200);
    // Once in trash the address is free again.
    expect((await post('/api/cp_locs', { address: 'Trash Test Site' })).status).toBe(200);
    // A second delete finds nothing live to delete.
    expect((await del(`/api/cp_locs/${id}`)).status).toBe(404);
  });

  it('sorts, filters and pages on the server', async () => {
    for (let i = 1; i <= 25; i++) {
      await post('/api/cp_pow', { name: `Meter ${String(i).padStart(2, '0')}`, factor: i / 10, rotation_value: i % 3 });
    }
    const page0 = await get('/api/cp_pow?size=10&page=0');
    expect(page0.body.dataset).toMatchObject({ totalElements: 25, totalPages: 3 });
    expect(page0.body.dataset.content[0].name).toBe('Meter 25'); // id descending by default
    const page2 = await get('/api/cp_pow?size=10&page=2');
    expect(page2.body.dataset.content).toHaveLength(5);
    const beyond = await get('/api/cp_pow?size=10&page=7');
    expect(beyond.body.dataset.content).toEqual([]);
    expect(beyond.body.dataset.totalPages).toBe(3);

    const byName = await get('/api/cp_pow?size=3&sort_by=name&order=asc');
    expect(byName.body.dataset.content.map((r: any) => r.name)).toEqual(['Meter 01', 'Meter 02', 'Meter 03']);
    const text = await get('/api/cp_pow?size=50&name=eter%201');
    expect(text.body.dataset.totalElements).toBe(10); // Meter 10..19
    const like = await get('/api/cp_pow?name=%25');
    expect(like.body.dataset.totalElements).toBe(0); // % is a character, not a wildcard
  });

  it('filters by select, multiselect, boolean and date range', async () => {
    const a = (await post('/api/cp_locs', { address: 'Filter Site A' })).body.data.loc_id;
    const b = (await post('/api/cp_locs', { address: 'Filter Site B', enable_flag: 0 })).body.data.loc_id;
    await post('/api/cps', { cp_no: 'F-1', name: 'F one', loc_id: a });
    await post('/api/cps', { cp_no: 'F-2', name: 'F two', loc_id: b });
    await post('/api/cps', { cp_no: 'F-3', name: 'F three', loc_id: b, enable_flag: 0 });

    const select = await get(`/api/cps?loc_id=${b}`);
    expect(select.body.dataset.content.map((r: any) => r.cp_no)).toEqual(['F-2']); // default filter enable_flag 1
    const cleared = await get(`/api/cps?loc_id=${b}&enable_flag=`);
    expect(cleared.body.dataset.content.map((r: any) => r.cp_no)).toEqual(['F-3', 'F-2']);
    const disabled = await get(`/api/cps?loc_id=${b}&enable_flag=0`);
    expect(disabled.body.dataset.content.map((r: any) => r.cp_no)).toEqual(['F-3']);
    const boolSites = await get('/api/cp_locs?address=Filter%20Site&enable_flag=0');
    expect(boolSites.body.dataset.content.map((r: any) => r.address)).toEqual(['Filter Site B']);

    const now = Math.floor(Date.now() / 1000);
    const inRange = await get(`/api/cp_locs?address=Filter%20Site&lupd_dttm=${now - 3600}&lupd_dttm=${now + 3600}`);
    expect(inRange.body.dataset.totalElements).toBe(2);
    const before = await get(`/api/cp_locs?address=Filter%20Site&lupd_dttm=${now - 7200}&lupd_dttm=${now - 3600}`);
    expect(before.body.dataset.totalElements).toBe(0);

    const user = await post('/api/users', { name: 'Scoped', username: 'multi', password: 'pw-123456', confirm_password: 'pw-123456', role_id: 1, cp_loc_flag: 0, loc_id: [a] });
    expect(user.status).toBe(200);
    expect(user.body.data.loc_id).toEqual([a]);
    const multi = await get(`/api/users?loc_id=${a}&loc_id=${b}`);
    expect(multi.body.dataset.content.map((r: any) => r.username)).toEqual(['multi']);
  });

  it('answers bad list parameters with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/api/cp_locs?sort_by=password', 'sort_by'],
      ['/api/cp_locs?sort_by=remark_x', 'sort_by'],
      ['/api/cp_locs?bogus=1', 'bogus'],
      ['/api/cp_locs?size=0', 'size'],
      ['/api/cp_locs?size=abc', 'size'],
      ['/api/cp_locs?page=-1', 'page'],
      ['/api/cp_locs?order=sideways', 'order'],
      ['/api/cp_locs?trash=2', 'trash'],
      ['/api/cp_pow?trash=1', 'trash'],
      ['/api/cp_locs?enable_flag=yes', 'enable_flag'],
      ['/api/cp_locs?lupd_dttm=5', 'lupd_dttm'],
      ['/api/cp_locs?lupd_dttm=9&lupd_dttm=3', 'lupd_dttm'],
      ['/api/cps?loc_id=x', 'loc_id'],
    ];
    for (const [path, param] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(Object.keys(res.body.fields), path).toContain(param);
    }
    expect((await get('/api/nothing_here')).status).toBe(404);
    expect((await get('/api/cp_locs/abc')).status).toBe(400);
    expect((await get('/api/cp_locs/999999')).status).toBe(404);
  });

  it('validates writes: required, unknown fields, types, uniqueness, locked fields, write-only passwords', async () => {
    const missing = await post('/api/cp_locs', { address_chi: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ address: 'required' });

    const unknown = await post('/api/cp_locs', { address: 'U', is_admin: 1 });
    expect(unknown.body.fields).toEqual({ is_admin: 'unknown_field' });
    const wrongType = await post('/api/cp_locs', { address: 'W', gps_lat: 'north' });
    expect(wrongType.body.fields).toEqual({ gps_lat: 'invalid' });
    const outOfRange = await post('/api/cp_locs', { address: 'W', gps_lat: 123 });
    expect(outOfRange.body.fields).toEqual({ gps_lat: 'max' });
    const notObject = await s.api('POST', '/api/cp_locs', { token, body: [1, 2] });
    expect(notObject.status).toBe(400);

    await post('/api/cp_locs', { address: 'Unique Site' });
    const dup = await post('/api/cp_locs', { address: 'Unique Site' });
    expect(dup.body.fields).toEqual({ address: 'already_exist' });
    const dupUser = await post('/api/users', { name: 'A', username: 'admin', password: 'x12345678', confirm_password: 'x12345678', role_id: 1 });
    expect(dupUser.body.fields.username).toBe('already_taken');

    const loc = (await post('/api/cp_locs', { address: 'Zone Site' })).body.data.loc_id;
    const zone = (await post('/api/cp_zones', { loc_id: loc, name_chi: 'Z1', max_physical_current_limit: 100 })).body.data;
    const locked = await put(`/api/cp_zones/${zone.zone_id}`, { max_physical_current_limit: 200 });
    expect(locked.body.fields).toEqual({ max_physical_current_limit: 'not_editable' });
    const same = await put(`/api/cp_zones/${zone.zone_id}`, { max_physical_current_limit: 100, name_chi: 'Z1b' });
    expect(same.body.data.name_chi).toBe('Z1b');

    const noPassword = await post('/api/users', { name: 'B', username: 'bee', role_id: 1 });
    expect(noPassword.body.fields).toMatchObject({ password: 'required', confirm_password: 'required' });
    const mismatch = await post('/api/users', { name: 'B', username: 'bee', role_id: 1, password: 'abcdefgh1', confirm_password: 'abcdefgh2' });
    expect(mismatch.body.fields).toEqual({ confirm_password: 'not_match' });
    const bee = await post('/api/users', { name: 'B', username: 'bee', role_id: 1, password: 'abcdefgh1', confirm_password: 'abcdefgh1' });
    expect(bee.status).toBe(200);
    expect(bee.body.data).not.toHaveProperty('password');
    expect(bee.body.data).not.toHaveProperty('password_hash');
    const fetched = await get(`/api/users/${bee.body.data.id}`);
    expect(Object.keys(fetched.body).filter((k) => k.includes('password'))).toEqual([]);
    // An edit without a password keeps the old one.
    await put(`/api/users/${bee.body.data.id}`, { name: 'Bee' });
    expect((await s.api('POST', '/api/login', { body: { username: 'bee', password: 'abcdefgh1' } })).status).toBe(200);
    const audit = await s.db.query(`SELECT new_data FROM portal_action_log WHERE target = 'users'`);
    expect(JSON.stringify(audit)).not.toContain('scrypt$');
  });

  it('takes back a record read whole with one field changed, ignoring its unchanged read-only columns', async () => {
    const loc = (await post('/api/cp_locs', { address: 'Round Trip Site', gps_lat: 22.25 })).body.data.loc_id;
    const cpId = (await post('/api/cps', { cp_no: 'RT-1', name: 'Round trip', loc_id: loc })).body.data.cp_id;
    // Connected (online_flag): a charger that is not is shown Offline, whatever it reported (hooks/cps.ts).
    await s.db.query(`UPDATE cps SET charging_status = 'Available', online_flag = 1, boot_dttm = now() - interval '1 hour' WHERE cp_id = $1`, [cpId]);

    const site = (await get(`/api/cp_locs/${loc}`)).body;
    expect(site).toHaveProperty('lupd_dttm');
    const siteSaved = await put(`/api/cp_locs/${loc}`, { ...site, address: 'Round Trip Site B' });
    expect(siteSaved.status, JSON.stringify(siteSaved.body)).toBe(200);
    expect((await get(`/api/cp_locs/${loc}`)).body).toMatchObject({ address: 'Round Trip Site B', gps_lat: 22.25 });

    const charger = (await get(`/api/cps/${cpId}`)).body;
    expect(charger).toMatchObject({ charging_status: 'Available' });
    const chargerSaved = await put(`/api/cps/${cpId}`, { ...charger, name: 'Round trip B' });
    expect(chargerSaved.status, JSON.stringify(chargerSaved.body)).toBe(200);
    expect((await get(`/api/cps/${cpId}`)).body).toMatchObject({ name: 'Round trip B', cp_no: 'RT-1', charging_status: 'Available' });

    // A read-only value that differs from the stored one is refused; a key that is no column stays unknown.
    const fresh = (await get(`/api/cps/${cpId}`)).body;
    const stale = await put(`/api/cps/${cpId}`, { ...fresh, name: 'Round trip C', lupd_dttm: '2001-01-01 00:00:00' });
    expect(stale.status).toBe(400);
    expect(stale.body.fields).toEqual({ lupd_dttm: 'not_editable' });
    const status = await put(`/api/cps/${cpId}`, { ...fresh, charging_status: 'Faulted' });
    expect(status.body.fields).toEqual({ charging_status: 'not_editable' });
    // The site as stored now: its lupd_dttm moved with the save above (a stale one would be refused too).
    const siteNow = (await get(`/api/cp_locs/${loc}`)).body;
    const bogus = await put(`/api/cp_locs/${loc}`, { ...siteNow, is_admin: 1 });
    expect(bogus.body.fields).toEqual({ is_admin: 'unknown_field' });
    expect((await get(`/api/cps/${cpId}`)).body.name).toBe('Round trip B');
    // A create knows no record to compare with: read-only columns stay unknown there.
    expect((await post('/api/cp_locs', { address: 'Round Trip New', lupd_dttm: site.lupd_dttm })).body.fields).toEqual({ lupd_dttm: 'unknown_field' });
  });

  it('applies charger create defaults and answers checkDelete', async () => {
    const loc = (await post('/api/cp_locs', { address: 'Defaults Site' })).body.data.loc_id;
    const cp = (await post('/api/cps', { cp_no: 'D-1', name: 'Default', loc_id: loc })).body.data;
    expect(cp).toMatchObject({ max_power_output: 32, heartbeat_interval: 30, enable_flag: 1, online_flag: 0 });
    expect((await get(`/api/cp_locs/checkDelete/${loc}`)).body).toEqual({ msgCode: 'site_has_chargers' });
    expect((await del(`/api/cp_locs/${loc}`)).status).toBe(409);
    expect((await get(`/api/cp_locs/${loc}`)).body.address).toBe('Defaults Site');
    await del(`/api/cps/${cp.cp_id}`);
    expect((await get(`/api/cp_locs/checkDelete/${loc}`)).body).toEqual({});
    expect((await del(`/api/cp_locs/${loc}`)).body).toBe('Deleted');
  });

  it('serves option lists and refuses unknown ones', async () => {
    await post('/api/cp_locs', { address: 'Options Site', address_chi: '選項站' });
    const res = await get('/api/options?opts=cp_locs&opts=roles&opts=home_screen');
    expect(res.body.options.cp_locs.some((o: any) => o.label === 'Options Site')).toBe(true);
    expect(res.body.options.roles[0]).toMatchObject({ label: '超級管理員', value: 1 });
    expect(res.body.options.home_screen.map((o: any) => o.value)).toEqual(['LMS', 'Dashboard', 'CpList']);
    expect((await get('/api/options?opts=secrets')).status).toBe(400);
    const zh = await get('/api/options?opts=cp_locs&lang=zh-TW');
    expect(zh.body.options.cp_locs.some((o: any) => o.label === '選項站')).toBe(true);
    // Fixed lists too: every enumerated value in the reader's language.
    const statuses = await get('/api/options?opts=connector_status&opts=charge_point_error_code&lang=zh-TW');
    expect(statuses.body.options.connector_status).toContainEqual({ value: 'Charging', label: '充電中' });
    expect(statuses.body.options.charge_point_error_code).toContainEqual({ value: 'NoError', label: '沒有錯誤' });
  });

  it('offers zones named with their site, and refuses a value no option list offers', async () => {
    const site = (await post('/api/cp_locs', { address: 'Zone Host', address_chi: '區域站' })).body.data.loc_id;
    const zone = (await post('/api/cp_zones', { loc_id: site, name_chi: 'B2', max_physical_current_limit: 100 })).body.data.zone_id;
    const zones = await get('/api/options?opts=cp_zones&lang=zh-TW');
    expect(zones.body.options.cp_zones).toContainEqual({ label: 'B2 (區域站)', value: zone });
    // Each reader sees the zone's name in their language; where the English one is blank, the Chinese one.
    const named = (await post('/api/cp_zones', { loc_id: site, name: 'P2 Charging Zone', name_chi: 'P2 充電區', max_physical_current_limit: 80 })).body.data;
    expect(named).toMatchObject({ name: 'P2 Charging Zone', name_chi: 'P2 充電區' });
    expect((await get(`/api/cp_zones/${named.zone_id}`)).body).toMatchObject({ name: 'P2 Charging Zone', name_chi: 'P2 充電區' });
    const blank = (await post('/api/cp_zones', { loc_id: site, name: '', name_chi: 'B3 區', max_physical_current_limit: 80 })).body.data.zone_id;
    const en = (await get('/api/options?opts=cp_zones&lang=en')).body.options.cp_zones;
    expect(en).toEqual(expect.arrayContaining([
      { label: 'P2 Charging Zone (Zone Host)', value: named.zone_id }, { label: 'B2 (Zone Host)', value: zone }, { label: 'B3 區 (Zone Host)', value: blank },
    ]));
    expect((await get('/api/options?opts=cp_zones&lang=zh-TW')).body.options.cp_zones).toContainEqual({ label: 'P2 充電區 (區域站)', value: named.zone_id });
    // A site that does not exist, or is in trash, is no site to put a record in.
    const missing = await post('/api/cp_zones', { loc_id: 999999, name_chi: 'Nowhere', max_physical_current_limit: 10 });
    expect([missing.status, missing.body.fields]).toEqual([400, { loc_id: 'invalid' }]);
    const gone = (await post('/api/cp_locs', { address: 'Closed Site' })).body.data.loc_id;
    await del(`/api/cp_locs/${gone}`);
    const trashed = await post('/api/cps', { cp_no: 'OPT-1', name: 'x', loc_id: gone });
    expect([trashed.status, trashed.body.fields]).toEqual([400, { loc_id: 'invalid' }]);
    expect((await get('/api/options?opts=cp_zones')).body.options.cp_zones.some((o: any) => o.label.includes('Closed Site'))).toBe(false);
    const badSites = await post('/api/users', { name: 'n', username: 'opt-user', password: 'pw-12345678', confirm_password: 'pw-12345678', role_id: 1, cp_loc_flag: 0, loc_id: [site, 999998] });
    expect([badSites.status, badSites.body.fields]).toEqual([400, { loc_id: 'invalid' }]);
  });

  it('migration 0020 gives the zones made before it their Chinese name as English name, so none shows blank', async () => {
    const migration = readFileSync(new URL('../db/migrations/0020_zone_name.sql', import.meta.url), 'utf8');
    const update = migration.split('--> statement-breakpoint').find((q) => q.includes('UPDATE'))!;
    const loc = (await post('/api/cp_locs', { address: 'Migrated Site' })).body.data.loc_id;
    // In a transaction rolled back: the update touches every zone, those of the other tests too.
    const rolledBack = new Error('roll back');
    const names = s.db.tx(async (sql) => {
      await sql.query(`INSERT INTO cp_zones (loc_id, name_chi, max_physical_current_limit) VALUES ($1, '舊區', 10)`, [loc]);
      await sql.query(update);
      expect(await sql.query(`SELECT name, name_chi FROM cp_zones WHERE loc_id = $1`, [loc])).toEqual([{ name: '舊區', name_chi: '舊區' }]);
      throw rolledBack;
    });
    await expect(names).rejects.toBe(rolledBack);
  });

  it('assigns chargers to a zone and lists the checklist', async () => {
    const loc = (await post('/api/cp_locs', { address: 'Assign Site' })).body.data.loc_id;
    const other = (await post('/api/cp_locs', { address: 'Other Site' })).body.data.loc_id;
    const zone = (await post('/api/cp_zones', { loc_id: loc, name_chi: 'Z', max_physical_current_limit: 64 })).body.data.zone_id;
    const c1 = (await post('/api/cps', { cp_no: 'A-1', name: 'a1', loc_id: loc })).body.data.cp_id;
    const c2 = (await post('/api/cps', { cp_no: 'A-2', name: 'a2', loc_id: loc })).body.data.cp_id;
    const far = (await post('/api/cps', { cp_no: 'A-3', name: 'a3', loc_id: other })).body.data.cp_id;
    expect((await put(`/api/cps/assign_zone/${zone}`, [{ cp_id: c1, action: 'add' }, { cp_id: c2, action: 'add' }])).body.status).toBe('success');
    await put(`/api/cps/assign_zone/${zone}`, [{ cp_id: c2, action: 'remove' }]);
    const list = await get(`/api/cps/loc_id/${loc}/zone_id/${zone}/zone_assignment`);
    expect(list.body.dataset.content.map((r: any) => [r.cp_no, r.assigned])).toEqual([['A-1', 1], ['A-2', 0]]);
    const wrongSite = await put(`/api/cps/assign_zone/${zone}`, [{ cp_id: far, action: 'add' }]);
    expect(wrongSite.status).toBe(400);
    expect((await put(`/api/cps/assign_zone/${zone}`, { cp_id: c1 })).status).toBe(400);
  });

  it('exports the filtered list to Excel and one record to PDF', async () => {
    await post('/api/cp_locs', { address: 'Export One' });
    await post('/api/cp_locs', { address: 'Export Two' });
    const res = await fetch(`${s.baseUrl}/api/cp_locs/export/excel?headers=Id&headers=Address&keys=loc_id&keys=address&sheet_name=Sites&address=Export&sort_by=address&order=asc`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
    const sheet = wb.getWorksheet('Sites')!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r: any) => r.slice(1));
    expect(rows).toEqual([['Id', 'Address'], [expect.any(Number), 'Export One'], [expect.any(Number), 'Export Two']]);
    expect((await get('/api/cp_locs/export/excel?headers=P&keys=password_hash')).status).toBe(400);
    const bare = await get('/api/cp_locs/export/excel');
    expect([bare.status, bare.body.fields]).toEqual([400, { keys: 'required' }]);
    expect(bare.body.errors[0]).toMatch(/keys=<column>&headers=<title>/);
    const named = await fetch(`${s.baseUrl}/api/cp_locs/export/excel?headers=Id&keys=loc_id&sheetName=Car%20parks`, { headers: { authorization: `Bearer ${token}` } });
    const namedBook = new (await import('exceljs')).default.Workbook();
    await namedBook.xlsx.load(Buffer.from(await named.arrayBuffer()) as any);
    expect(namedBook.getWorksheet('Car parks')).toBeDefined();

    const pdf = await fetch(`${s.baseUrl}/api/cp_locs/export/pdf/${rows[1][0]}`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exports every row of a table larger than one batch, in order, once', async () => {
    await s.db.query(`INSERT INTO user_log (type, username, msg) SELECT 'LOGIN', 'exporter', 'row ' || g FROM generate_series(1, 4500) g`);
    const download = async (order: string) => {
      const res = await fetch(`${s.baseUrl}/api/user_log/export/excel?headers=Id&headers=Msg&keys=user_log_id&keys=msg&username=exporter&order=${order}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const ExcelJS = (await import('exceljs')).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
      return wb.worksheets[0].getSheetValues().slice(2).map((r: any) => r[1] as number);
    };
    const desc = await download('desc');
    expect(desc).toHaveLength(4500);
    expect(desc.every((id, i) => i === 0 || id < desc[i - 1])).toBe(true);
    const asc = await download('asc');
    expect(asc).toEqual([...desc].reverse());
  });

  it('reports an estimated total past the exact-count limit', async () => {
    await s.db.query(`INSERT INTO user_log (type, username, msg, ip) SELECT 'LOGIN', 'bulk', 'bulk row ' || g, '10.0.0.1' FROM generate_series(1, $1) g`, [EXACT_COUNT_LIMIT + 500]);
    await s.db.query('ANALYZE user_log');
    const res = await get('/api/user_log?size=20&username=bulk');
    expect(res.body.dataset.totalIsEstimate).toBe(true);
    expect(res.body.dataset.totalElements).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(res.body.dataset.content).toHaveLength(20);
    const exact = await get('/api/user_log?size=20&msg=bulk%20row%2012');
    expect(exact.body.dataset.totalIsEstimate).toBeUndefined();
    expect(exact.body.dataset.totalElements).toBe(111); // 12, 120-129, 1200-1299
  });

  it('accepts size=99999 on every list and caps a page at LIST_PAGE_CAP rows, saying so', async () => {
    await s.db.query(`INSERT INTO user_log (type, username, msg, ip) SELECT 'LOGIN', 'huge', 'huge row ' || g, '10.0.0.2' FROM generate_series(1, $1) g`, [LIST_PAGE_CAP + 10]);
    const res = await get('/api/user_log?size=99999&page=0&username=huge');
    expect(res.status).toBe(200);
    expect(res.body.dataset.content).toHaveLength(LIST_PAGE_CAP);
    expect(res.body.dataset.sizeCappedTo).toBe(LIST_PAGE_CAP);
    const small = await get('/api/user_log?size=99999&page=0&username=admin');
    expect(small.body.dataset.sizeCappedTo).toBeUndefined();
    for (const def of Object.values(RESOURCES)) {
      const key = def.key === 'user_profile' ? 'users' : def.key;
      expect((await get(`/api/${key}?size=99999&page=0${def.softDelete ? '&trash=0' : ''}`)).status, key).toBe(200);
    }
  });
});
