import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivilege, editPrivilege, readPrivilege } from '@ev/core';
import type { ResourceChange } from '../bus/index.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith as userOf } from '../testing/users.ts';

describe('LMS profiles: the resource, its zone entries and lms_info', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let zoneA1: number;
  let zoneA2: number;
  let zoneB1: number;
  let cpA: number;
  const changes: ResourceChange[] = [];
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const userWith = (name: string, privileges: string[], sites?: number[]) => userOf(s, name, privileges, sites);

  const profile = async (name: string, cp_loc: number, mode: string) => {
    const res = await api('POST', '/api/lms_profiles', { name, cp_loc, mode });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.lms_profile_id as number;
  };
  const entries = async (id: number, token = admin) => (await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`, undefined, token)).body.dataset.content;
  const stored = async () => s.db.query(`SELECT lms_profile_id, zone_id, zone_max_available_current, max_charging_current, min_charging_current
    FROM zone_lms_profiles ORDER BY lms_profile_id, zone_id`);

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    s.app.bus.on('resourceChanged', (c) => changes.push(c));
    siteA = (await api('POST', '/api/cp_locs', { address: 'LMS Site A' })).body.data.loc_id;
    siteB = (await api('POST', '/api/cp_locs', { address: 'LMS Site B' })).body.data.loc_id;
    const zone = async (loc_id: number, name_chi: string, max_physical_current_limit: number, name?: string) =>
      (await api('POST', '/api/cp_zones', { loc_id, name, name_chi, max_physical_current_limit })).body.data.zone_id as number;
    // A1 has an English name beside its Chinese one, the others only name_chi (the spec's zone).
    zoneA1 = await zone(siteA, 'A1', 100, 'Zone A1');
    zoneA2 = await zone(siteA, 'A2', 60);
    zoneB1 = await zone(siteB, 'B1', 80);
    cpA = (await api('POST', '/api/cps', { cp_no: 'LMS-A-1', name: 'a1', loc_id: siteA })).body.data.cp_id;
    expect((await api('PUT', `/api/cps/assign_zone/${zoneA1}`, [{ cp_id: cpA, action: 'add' }])).status).toBe(200);
  });
  afterAll(() => s.close());

  it('creates, lists, views and renames a profile; mode and site are fixed after creation', async () => {
    const id = await profile('Peak', siteA, 'DISTRIBUTION');
    const view = await api('GET', `/api/lms_profiles/${id}`);
    expect(view.body).toMatchObject({ lms_profile_id: id, name: 'Peak', cp_loc: siteA, mode: 'DISTRIBUTION' });
    const list = await api('GET', '/api/lms_profiles?mode=DISTRIBUTION');
    expect(list.body.dataset.content.map((p: any) => p.lms_profile_id)).toContain(id);
    expect((await api('PUT', `/api/lms_profiles/${id}`, { name: 'Peak hours' })).body.data.name).toBe('Peak hours');
    // The whole record as last read sent back is fine (re-read: the rename moved lupd_dttm, which a
    // stale copy would carry); a changed mode or site is a field error.
    const fresh = await api('GET', `/api/lms_profiles/${id}`);
    expect((await api('PUT', `/api/lms_profiles/${id}`, { ...fresh.body, name: 'Peak 2' })).status).toBe(200);
    const mode = await api('PUT', `/api/lms_profiles/${id}`, { name: 'x', mode: 'QUEUEING' });
    expect([mode.status, mode.body.fields]).toEqual([400, { mode: 'not_editable' }]);
    const site = await api('PUT', `/api/lms_profiles/${id}`, { cp_loc: siteB });
    expect([site.status, site.body.fields]).toEqual([400, { cp_loc: 'not_editable' }]);
    expect((await api('GET', `/api/lms_profiles/${id}`)).body).toMatchObject({ name: 'Peak 2', cp_loc: siteA, mode: 'DISTRIBUTION' });

    expect((await api('POST', '/api/lms_profiles', { name: 'x', cp_loc: siteA, mode: 'FAST' })).body.fields).toEqual({ mode: 'invalid' });
    expect((await api('POST', '/api/lms_profiles', { name: 'x' })).body.fields).toEqual({ cp_loc: 'required', mode: 'required' });
    expect((await api('POST', '/api/lms_profiles', { name: 'x', cp_loc: 999999, mode: 'MIXED' })).body.fields).toEqual({ cp_loc: 'invalid' });
    const options = await api('GET', '/api/options?opts=lms_profiles&opts=lms_mode&lang=zh-TW');
    expect(options.body.options.lms_profiles).toContainEqual({ value: id, label: 'Peak 2 (LMS Site A)' });
    expect(options.body.options.lms_mode).toContainEqual({ value: 'QUEUEING', label: '排隊' });
  });

  it('lists one entry per zone of the profile\'s site, empty until saved', async () => {
    const id = await profile('Entries', siteA, 'DISTRIBUTION');
    const res = await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lms_profile_id: id, mode: 'DISTRIBUTION', cp_loc: siteA, dataset: { totalElements: 2, totalPages: 1 } });
    expect(res.body.dataset.content).toEqual([
      { zone_id: zoneA1, zone_name: 'A1', zone_name_en: 'Zone A1', max_physical_current_limit: 100, zone_max_available_current: null, max_charging_current: null, min_charging_current: null },
      { zone_id: zoneA2, zone_name: 'A2', zone_name_en: null, max_physical_current_limit: 60, zone_max_available_current: null, max_charging_current: null, min_charging_current: null },
    ]);
  });

  it('saves the whole set of zone entries in one transaction and tells load management', async () => {
    const id = await profile('Saved', siteA, 'DISTRIBUTION');
    changes.length = 0;
    const body = {
      lms_profile_id: id,
      zones: [
        { zone_id: zoneA1, zone_max_available_current: 100, max_charging_current: 32, min_charging_current: 6 },
        { zone_id: zoneA2, zone_max_available_current: 40, max_charging_current: 16, min_charging_current: 16 },
      ],
    };
    const res = await api('PUT', '/api/zone_lms_profiles', body);
    expect([res.status, res.body.status]).toEqual([200, 'success']);
    expect(await entries(id)).toMatchObject([
      { zone_id: zoneA1, zone_max_available_current: 100, max_charging_current: 32, min_charging_current: 6 },
      { zone_id: zoneA2, zone_max_available_current: 40, max_charging_current: 16, min_charging_current: 16 },
    ]);
    expect(changes).toEqual([{ key: 'zone_lms_profiles', action: 'UPDATE', id, changed: ['zones'] }]);
    const [audit] = await s.db.query(`SELECT action, target_id FROM portal_action_log WHERE target = 'zone_lms_profiles' ORDER BY 1 DESC LIMIT 1`);
    expect(audit).toEqual({ action: 'UPDATE', target_id: String(id) });

    // Rows sent back as GET answered them are accepted; a zone left out loses its entry.
    const [a1] = await entries(id);
    expect((await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: id, zones: [{ ...a1, max_charging_current: 20 }] })).status).toBe(200);
    expect(await entries(id)).toMatchObject([{ zone_id: zoneA1, max_charging_current: 20 }, { zone_id: zoneA2, max_charging_current: null }]);
  });

  it('refuses rows breaking the zone rules, per row, and changes nothing', async () => {
    const id = await profile('Rules', siteA, 'MIXED');
    const good = { zone_id: zoneA1, zone_max_available_current: 80, max_charging_current: 32, min_charging_current: 6 };
    expect((await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: id, zones: [good] })).status).toBe(200);
    const before = await stored();
    const refused = async (row: Record<string, unknown>, zones = [good, row]) => {
      const res = await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: id, zones });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.fields;
    };
    const a2 = { zone_id: zoneA2, zone_max_available_current: 60, max_charging_current: 16, min_charging_current: 8 };
    expect(await refused({ ...a2, zone_max_available_current: 61 })).toEqual({ 'zones.1.zone_max_available_current': 'max' });
    expect(await refused({ ...a2, zone_max_available_current: 0 })).toEqual({ 'zones.1.zone_max_available_current': 'min' });
    expect(await refused({ ...a2, max_charging_current: 61 })).toEqual({ 'zones.1.max_charging_current': 'max' });
    expect(await refused({ ...a2, max_charging_current: -1 })).toEqual({ 'zones.1.max_charging_current': 'min' });
    expect(await refused({ ...a2, min_charging_current: 17 })).toEqual({ 'zones.1.min_charging_current': 'max' });
    expect(await refused({ ...a2, min_charging_current: 0 })).toEqual({ 'zones.1.min_charging_current': 'min' });
    expect(await refused({ ...a2, min_charging_current: null })).toEqual({ 'zones.1.min_charging_current': 'required' });
    expect(await refused({ ...a2, zone_id: zoneB1 })).toEqual({ 'zones.1.zone_id': 'invalid' });
    expect(await refused({ ...a2, zone_id: 999999 })).toEqual({ 'zones.1.zone_id': 'invalid' });
    expect(await refused({ ...good })).toEqual({ 'zones.1.zone_id': 'duplicate' });
    expect(await refused({ ...a2, lms_profile_id: id + 1 })).toEqual({ 'zones.1.lms_profile_id': 'invalid' });
    expect(await stored()).toEqual(before);
  });

  it('locks the minimum to the maximum in QUEUEING mode', async () => {
    const id = await profile('Queue', siteA, 'QUEUEING');
    const res = await api('PUT', '/api/zone_lms_profiles', {
      lms_profile_id: id,
      zones: [
        { zone_id: zoneA1, zone_max_available_current: 64, max_charging_current: 32, min_charging_current: 6 },
        { zone_id: zoneA2, zone_max_available_current: 32, max_charging_current: 16 },
      ],
    });
    expect(res.status).toBe(200);
    expect(await entries(id)).toMatchObject([
      { zone_id: zoneA1, max_charging_current: 32, min_charging_current: 32 },
      { zone_id: zoneA2, max_charging_current: 16, min_charging_current: 16 },
    ]);
  });

  it('keeps a site\'s profile to that site and requires one for load management', async () => {
    const own = await profile('Own', siteA, 'DISTRIBUTION');
    const other = await profile('Other', siteB, 'DISTRIBUTION');
    const cross = await api('PUT', `/api/cp_locs/${siteA}`, { lms_profile_id: other });
    expect([cross.status, cross.body.fields]).toEqual([400, { lms_profile_id: 'invalid' }]);
    const none = await api('PUT', `/api/cp_locs/${siteA}`, { enable_lms: 1 });
    expect([none.status, none.body.fields]).toEqual([400, { lms_profile_id: 'required' }]);
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { lms_profile_id: null, enable_lms: 1 })).body.fields).toEqual({ lms_profile_id: 'required' });
    expect((await api('POST', '/api/cp_locs', { address: 'New site', lms_profile_id: own })).body.fields).toEqual({ lms_profile_id: 'invalid' });
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { lms_profile_id: own, enable_lms: 1 })).status).toBe(200);
    // Turning LMS off keeps the link; unlinking needs LMS off.
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { lms_profile_id: null })).body.fields).toEqual({ lms_profile_id: 'required' });
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { address: 'LMS Site A', remark: 'unrelated edit' })).status).toBe(200);
    expect((await api('GET', `/api/cp_locs/${siteA}`)).body).toMatchObject({ lms_profile_id: own, enable_lms: 1 });
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { enable_lms: 0, lms_profile_id: null })).status).toBe(200);
  });

  it('refuses to delete a profile a site runs LMS on; otherwise deletes it and clears the site\'s link', async () => {
    const id = await profile('Doomed', siteB, 'MIXED');
    expect((await api('PUT', `/api/cp_locs/${siteB}`, { lms_profile_id: id, enable_lms: 1 })).status).toBe(200);
    expect((await api('GET', `/api/lms_profiles/checkDelete/${id}`)).body).toEqual({ msgCode: 'lms_profile_in_use' });
    const refused = await api('DELETE', `/api/lms_profiles/${id}`);
    expect([refused.status, refused.body.errors]).toEqual([409, ['lms_profile_in_use']]);
    expect((await api('PUT', `/api/cp_locs/${siteB}`, { enable_lms: 0 })).status).toBe(200);
    expect((await api('GET', `/api/lms_profiles/checkDelete/${id}`)).body).toEqual({});
    expect((await api('DELETE', `/api/lms_profiles/${id}`)).body).toBe('Deleted');
    expect((await api('GET', `/api/cp_locs/${siteB}`)).body.lms_profile_id).toBeNull();
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`)).status).toBe(404);
    expect((await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: id, zones: [] })).status).toBe(404);
  });

  it('needs READ_LMS_PROFILES to read and EDIT_LMS_PROFILES to write (403, nothing changed)', async () => {
    const id = await profile('Guarded', siteA, 'DISTRIBUTION');
    const body = { lms_profile_id: id, zones: [{ zone_id: zoneA1, zone_max_available_current: 50, max_charging_current: 16, min_charging_current: 6 }] };
    const nobody = await userWith('lms_nobody', [readPrivilege('cp_locs')]);
    const reader = await userWith('lms_reader', [readPrivilege('lms_profiles')]);
    const dashboard = await userWith('lms_dashboard', [readPrivilege('lms/dashboard')]);
    const editor = await userWith('lms_editor', [readPrivilege('lms_profiles'), editPrivilege('lms_profiles')]);
    const before = await stored();
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`, undefined, nobody)).status).toBe(403);
    expect((await api('GET', '/api/lms_info', undefined, nobody)).status).toBe(403);
    expect((await api('GET', '/api/lms_profiles', undefined, nobody)).status).toBe(403);
    expect((await api('PUT', '/api/zone_lms_profiles', body, nobody)).status).toBe(403);
    expect((await api('PUT', '/api/zone_lms_profiles', body, reader)).status).toBe(403);
    expect((await api('PUT', '/api/zone_lms_profiles', body, dashboard)).status).toBe(403);
    expect(await stored()).toEqual(before);
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`, undefined, reader)).status).toBe(200);
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`, undefined, dashboard)).status).toBe(403);
    expect((await api('GET', '/api/lms_info', undefined, reader)).status).toBe(200);
    expect((await api('GET', '/api/lms_info', undefined, dashboard)).status).toBe(200);
    expect((await api('PUT', '/api/zone_lms_profiles', body, editor)).status).toBe(200);
    // The site's LMS fields stay behind READ_LMS_PROFILE (spec part 1 §6).
    const sites = await userWith('lms_sites', [readPrivilege('cp_locs'), editPrivilege('cp_locs')]);
    expect((await api('GET', `/api/cp_locs/${siteA}`, undefined, sites)).body).not.toHaveProperty('lms_profile_id');
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { enable_lms: 1 }, sites)).body.fields).toEqual({ enable_lms: 'not_permitted' });
  });

  it('keeps a user to their sites', async () => {
    const a = await profile('Mine', siteA, 'DISTRIBUTION');
    const b = await profile('Theirs', siteB, 'DISTRIBUTION');
    const local = await userWith('lms_local', [readPrivilege('lms_profiles'), editPrivilege('lms_profiles'), createPrivilege('lms_profiles')], [siteA]);
    const listed = (await api('GET', '/api/lms_profiles?size=100', undefined, local)).body.dataset.content.map((p: any) => p.cp_loc);
    expect(new Set(listed)).toEqual(new Set([siteA]));
    expect((await api('GET', `/api/lms_profiles/${b}`, undefined, local)).status).toBe(403);
    expect((await api('POST', '/api/lms_profiles', { name: 'x', cp_loc: siteB, mode: 'MIXED' }, local)).body.fields).toEqual({ cp_loc: 'not_permitted' });
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${b}`, undefined, local)).status).toBe(403);
    expect((await api('GET', `/api/zone_lms_profiles?lms_profile_id=${a}`, undefined, local)).status).toBe(200);
    const theirs = { lms_profile_id: b, zones: [{ zone_id: zoneB1, zone_max_available_current: 50, max_charging_current: 16, min_charging_current: 6 }] };
    expect((await api('PUT', '/api/zone_lms_profiles', theirs, local)).status).toBe(403);
    expect(await stored()).not.toContainEqual(expect.objectContaining({ lms_profile_id: b }));
  });

  it('answers bad input with 400, never 500', async () => {
    const id = await profile('Bad input', siteA, 'DISTRIBUTION');
    const row = { zone_id: zoneA1, zone_max_available_current: 50, max_charging_current: 16, min_charging_current: 6 };
    for (const query of ['', '?lms_profile_id=abc', '?lms_profile_id=0', '?lms_profile_id=99999999999', `?lms_profile_id=${id}&lms_profile_id=${id}`, `?lms_profile_id=${id}&x=1`]) {
      expect((await api('GET', `/api/zone_lms_profiles${query}`)).status, query).toBe(400);
    }
    for (const body of [
      [], 'text', null, {}, { lms_profile_id: id }, { lms_profile_id: 'x', zones: [] }, { lms_profile_id: id, zones: {} },
      { lms_profile_id: id, zones: [{ ...row, max_charging_current: '16' }] }, { lms_profile_id: id, zones: [{ ...row, max_charging_current: 1.5 }] },
      { lms_profile_id: id, zones: [{ ...row, max_charging_current: 1e12 }] }, { lms_profile_id: id, zones: [{ ...row, colour: 'red' }] },
      { lms_profile_id: id, zones: [{ ...row, zone_id: -1 }] }, { lms_profile_id: id, zones: [null] }, { lms_profile_id: 2 ** 40, zones: [] },
    ]) {
      const res = await api('PUT', '/api/zone_lms_profiles', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const raw = await s.api('PUT', '/api/zone_lms_profiles', { token: admin, raw: '{"lms_profile_id":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect((await api('GET', '/api/lms_info?loc_id=1')).status).toBe(400);
    expect((await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: 999999, zones: [] })).status).toBe(404);
  });

  it('lms_info: the sites running LMS with their profile, zones, entries and chargers', async () => {
    const id = await profile('Info', siteA, 'QUEUEING');
    await api('PUT', '/api/zone_lms_profiles', { lms_profile_id: id, zones: [{ zone_id: zoneA1, zone_max_available_current: 90, max_charging_current: 32 }] });
    expect((await api('PUT', `/api/cp_locs/${siteA}`, { lms_profile_id: id, enable_lms: 1 })).status).toBe(200);
    const res = await api('GET', '/api/lms_info');
    expect(res.status).toBe(200);
    const info = res.body.lms_info;
    expect(info.cp_locs).toEqual([{ loc_id: siteA, address: 'LMS Site A', address_chi: null, lms_profile_id: id }]);
    expect(info.mode).toEqual({ [siteA]: 'QUEUEING' });
    expect(info.profile.location).toEqual({ [siteA]: { lms_profile_id: id, name: 'Info', mode: 'QUEUEING' } });
    expect(info.cp_zones).toEqual([
      { zone_id: zoneA1, loc_id: siteA, name: 'Zone A1', name_chi: 'A1', max_physical_current_limit: 100, zone_max_available_current: 90, max_charging_current: 32, min_charging_current: 32 },
      { zone_id: zoneA2, loc_id: siteA, name: null, name_chi: 'A2', max_physical_current_limit: 60, zone_max_available_current: null, max_charging_current: null, min_charging_current: null },
    ]);
    expect(info.cps).toEqual([{ cp_id: cpA, cp_no: 'LMS-A-1', name: 'a1', loc_id: siteA, zone_id: zoneA1, enable_flag: 1 }]);
    expect(info.relation).toEqual({ loc: { [siteA]: { zones: [zoneA1, zoneA2], cps: [cpA] } } });
    // A user of site B only sees nothing of site A.
    const onlyB = await userWith('lms_info_b', [readPrivilege('lms_profiles')], [siteB]);
    expect((await api('GET', '/api/lms_info', undefined, onlyB)).body.lms_info).toEqual({
      mode: {}, cp_locs: [], cp_zones: [], cps: [], relation: { loc: {} }, profile: { location: {} },
    });
    await api('PUT', `/api/cp_locs/${siteA}`, { enable_lms: 0 });
  });
});
