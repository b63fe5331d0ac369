import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignRulePasses, createPrivilege, editPrivilege, P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { normaliseRuleConfig } from './rules.ts';

describe('campaign rule configs are normalised per type as pricing reads them', () => {
  const ok = (type: string, config: unknown) => {
    const r = normaliseRuleConfig(type, config);
    if (!r.ok) throw new Error(`${type} ${JSON.stringify(config)}: ${r.error}`);
    return JSON.parse(r.config);
  };
  const refused = (type: string, config: unknown) => {
    const r = normaliseRuleConfig(type, config);
    return r.ok ? 'accepted' : r.error;
  };

  it('DateExclude: yyyy-MM-dd, entries of length ≤ 1 dropped, sorted and once each', () => {
    expect(ok('DateExclude', '["2026-12-25", "", "x", " 2026-01-01 ", "2026-12-25"]')).toEqual(['2026-01-01', '2026-12-25']);
    expect(refused('DateExclude', ['2026-02-30'])).toBe('format_error');
    expect(refused('DateExclude', ['25/12/2026'])).toBe('format_error');
    expect(refused('DateExclude', [20261225])).toBe('format_error');
    expect(refused('DateExclude', ['', 'x'])).toBe('required');
  });

  it('TimeInclude: {start, end} HH:mm, ranges lacking an end dropped, past midnight allowed', () => {
    expect(ok('TimeInclude', [{ start: '8:00', end: '12:30' }, { start: '22:00', end: '02:00' }, { start: '10:00' }, { end: '11:00', start: '' }]))
      .toEqual([{ start: '08:00', end: '12:30' }, { start: '22:00', end: '02:00' }]);
    expect(ok('TimeInclude', [{ start: '00:00', end: '24:00' }])).toEqual([{ start: '00:00', end: '24:00' }]);
    expect(refused('TimeInclude', [{ start: '25:00', end: '26:00' }])).toBe('format_error');
    expect(refused('TimeInclude', [{ start: '10:00', end: '10:00' }])).toBe('end_equals_start');
    expect(refused('TimeInclude', ['10:00-12:00'])).toBe('format_error');
    expect(refused('TimeInclude', [{ start: '10:00' }])).toBe('required');
  });

  it('DayInclude: 1..7 and the shorthands 1-5, 1-6, 1-7', () => {
    expect(ok('DayInclude', [7, '6', '1-5', 6, ' 1 - 5 '])).toEqual(['1-5', 6, 7]);
    expect(ok('DayInclude', '["1-7"]')).toEqual(['1-7']);
    for (const bad of [[0], [8], ['2-4'], ['Mon'], [1.5]]) expect(refused('DayInclude', bad)).toBe('format_error');
    expect(refused('DayInclude', [])).toBe('required');
  });

  it('refuses what is not a JSON array and unknown types', () => {
    expect(refused('DayInclude', '{')).toBe('invalid');
    expect(refused('DayInclude', '{"a":1}')).toBe('invalid');
    expect(refused('Other', [1])).toBe('invalid');
  });

  it('a normalised config means to pricing what the operator entered', () => {
    const sat = { date: '2026-11-28', time: '23:30', weekday: 6 };
    const tue = { date: '2026-11-24', time: '09:15', weekday: 2 };
    const rule = (campaignRuleTypeCode: 'DateExclude' | 'TimeInclude' | 'DayInclude', config: unknown) =>
      ({ campaignRuleTypeCode, campaignRuleConfig: (normaliseRuleConfig(campaignRuleTypeCode, config) as { config: string }).config });
    expect(campaignRulePasses(rule('DayInclude', ['1-5']), tue)).toBe(true);
    expect(campaignRulePasses(rule('DayInclude', ['1-5']), sat)).toBe(false);
    expect(campaignRulePasses(rule('TimeInclude', [{ start: '9:00', end: '9:30' }]), tue)).toBe(true);
    expect(campaignRulePasses(rule('TimeInclude', [{ start: '22:00', end: '2:00' }]), sat)).toBe(true);
    expect(campaignRulePasses(rule('DateExclude', ['2026-11-24', '']), tue)).toBe(false);
  });
});

describe('campaigns and their rules through the API', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const created = async (path: string, body: unknown, token = admin) => {
    const res = await api('POST', path, body, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = (await api('POST', '/api/cp_locs', { address: 'Campaign Site A' })).body.data.loc_id;
    siteB = (await api('POST', '/api/cp_locs', { address: 'Campaign Site B' })).body.data.loc_id;
  });
  afterAll(() => s.close());

  it('stores the fee in cents, the creator from the user, and needs sites unless it runs at every site', async () => {
    const tnc = Array.from({ length: 2000 }, (_, i) => `${i + 1}. A term of the campaign.`).join('\n');
    // creUserName is not a form field: a client cannot name another creator.
    const named = await api('POST', '/api/campaign', { name: 'Night', fee: 1, locIds: [siteA], creUserName: 'someone' });
    expect([named.status, named.body.fields]).toEqual([400, { creUserName: 'unknown_field' }]);
    const night = await created('/api/campaign', { name: 'Night', nameCHT: '夜間', fee: '4.50', maxChargingUnit: 4, locIds: [siteA], tnc });
    expect(night).toMatchObject({ fee: 4.5, creUserName: 'admin', isAllCpLocFlag: 0, isVoucher: 0, locIds: [siteA], tnc });
    expect((await s.db.query(`SELECT fee FROM campaign WHERE id = $1`, [night.id]))[0].fee).toBe(450);

    const noSites = await api('POST', '/api/campaign', { name: 'Nowhere', fee: 1 });
    expect([noSites.status, noSites.body.fields]).toEqual([400, { locIds: 'required' }]);
    const everywhere = await created('/api/campaign', { name: 'Everywhere', fee: 1, isAllCpLocFlag: 1, locIds: [siteA] });
    expect(everywhere.locIds).toEqual([]);
    // Unticking "all sites" needs a site list again.
    expect((await api('PUT', `/api/campaign/${everywhere.id}`, { isAllCpLocFlag: 0 })).body.fields).toEqual({ locIds: 'required' });
    expect((await api('PUT', `/api/campaign/${everywhere.id}`, { isAllCpLocFlag: 0, locIds: [siteB] })).body.data.locIds).toEqual([siteB]);
  });

  it('locks a voucher campaign and its rules: no edit, no delete, no rule written', async () => {
    const plain = await created('/api/campaign', { name: 'Plain', fee: 2, locIds: [siteA] });
    const rule = await created('/api/campaign_rule', { campaignId: plain.id, campaignRuleTypeCode: 'DayInclude', ruleName: 'weekdays', campaignRuleConfig: '["1-5", 6]' });
    expect(rule).toMatchObject({ campaignName: 'Plain', campaignRuleConfig: '["1-5",6]' });
    expect((await api('PUT', `/api/campaign/${plain.id}`, { fee: 3 })).body.data.fee).toBe(3);
    // isVoucher is chosen on create only.
    expect((await api('PUT', `/api/campaign/${plain.id}`, { isVoucher: 1 })).body.fields).toEqual({ isVoucher: 'not_editable' });

    const voucher = await created('/api/campaign', { name: 'Voucher', fee: 0, locIds: [siteA], isVoucher: 1 });
    const [vRule] = await s.db.query(
      `INSERT INTO campaign_rule ("campaignId", "campaignRuleTypeCode", "campaignRuleConfig") VALUES ($1, 'DayInclude', '[1]') RETURNING id`,
      [voucher.id],
    );
    const before = await s.db.query(`SELECT * FROM campaign WHERE id = $1`, [voucher.id]);
    const edit = await api('PUT', `/api/campaign/${voucher.id}`, { name: 'Changed' });
    expect([edit.status, edit.body.fields]).toEqual([400, { isVoucher: 'not_editable' }]);
    const del = await api('DELETE', `/api/campaign/${voucher.id}`);
    expect([del.status, del.body.fields]).toEqual([400, { isVoucher: 'not_editable' }]);
    expect(await s.db.query(`SELECT * FROM campaign WHERE id = $1`, [voucher.id])).toEqual(before);

    const newRule = await api('POST', '/api/campaign_rule', { campaignId: voucher.id, campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '[2]' });
    expect([newRule.status, newRule.body.fields]).toEqual([400, { campaignId: 'not_editable' }]);
    expect((await api('PUT', `/api/campaign_rule/${vRule.id}`, { ruleName: 'x' })).body.fields).toEqual({ campaignId: 'not_editable' });
    expect((await api('DELETE', `/api/campaign_rule/${vRule.id}`)).body.fields).toEqual({ campaignId: 'not_editable' });
    expect((await api('GET', `/api/campaign_rule/${vRule.id}`)).body.campaignIsVoucher).toBe(1);
    expect((await s.db.query(`SELECT count(*)::int AS n FROM campaign_rule WHERE "campaignId" = $1 AND deleted_at IS NULL`, [voucher.id]))[0].n).toBe(1);

    // A plain campaign is soft-deleted.
    expect((await api('DELETE', `/api/campaign/${plain.id}`)).status).toBe(200);
    expect((await s.db.query(`SELECT deleted_at IS NOT NULL AS gone FROM campaign WHERE id = $1`, [plain.id]))[0].gone).toBe(true);
  });

  it('normalises and checks rule configs on write, per type', async () => {
    const c = await created('/api/campaign', { name: 'Rules', fee: 1, locIds: [siteA] });
    const base = { campaignId: c.id };
    const dates = await created('/api/campaign_rule', { ...base, campaignRuleTypeCode: 'DateExclude', campaignRuleConfig: '["2026-12-25","","2026-01-01"]' });
    expect(dates.campaignRuleConfig).toBe('["2026-01-01","2026-12-25"]');
    const times = await created('/api/campaign_rule', { ...base, campaignRuleTypeCode: 'TimeInclude', campaignRuleConfig: '[{"start":"7:00","end":"9:00"},{"start":"10:00"}]' });
    expect(times.campaignRuleConfig).toBe('[{"start":"07:00","end":"09:00"}]');
    for (const [type, config, error] of [
      ['DateExclude', '["2026-13-01"]', 'format_error'],
      ['TimeInclude', '[{"start":"10:00","end":"10:00"}]', 'end_equals_start'],
      ['DayInclude', '["2-4"]', 'format_error'],
      ['DayInclude', 'not json', 'invalid'],
      ['DayInclude', '[]', 'required'],
    ]) {
      const res = await api('POST', '/api/campaign_rule', { ...base, campaignRuleTypeCode: type, campaignRuleConfig: config });
      expect([res.status, res.body.fields], `${type} ${config}`).toEqual([400, { campaignRuleConfig: error }]);
    }
    // A new type re-reads the stored config: a list of dates is no list of weekdays.
    expect((await api('PUT', `/api/campaign_rule/${dates.id}`, { campaignRuleTypeCode: 'DayInclude' })).body.fields).toEqual({ campaignRuleConfig: 'format_error' });
    const changed = await api('PUT', `/api/campaign_rule/${dates.id}`, { campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '["1-6"]' });
    expect(changed.body.data.campaignRuleConfig).toBe('["1-6"]');
    const list = await api('GET', `/api/campaign_rule?campaignId=${c.id}&size=99999&page=0&trash=0`);
    expect(list.body.dataset.content.map((r: any) => r.campaignRuleTypeCode)).toEqual(['DayInclude', 'TimeInclude']);
  });

  it('shows a user kept to some sites the all-site campaigns and those of their sites, and lets them write only their own', async () => {
    const a = await created('/api/campaign', { name: 'Only A', fee: 1, locIds: [siteA] });
    const b = await created('/api/campaign', { name: 'Only B', fee: 1, locIds: [siteB] });
    const all = await created('/api/campaign', { name: 'All', fee: 1, isAllCpLocFlag: 1 });
    const ruleB = await created('/api/campaign_rule', { campaignId: b.id, campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '[1]' });
    const privs = ['campaign', 'campaign_rule'].flatMap((k) => [readPrivilege(k), createPrivilege(k), editPrivilege(k)]);
    const userA = await userWith(s, 'campaign-a', [...privs, P.DELETE], [siteA]);
    const seen = (await api('GET', '/api/campaign?size=100&page=0', undefined, userA)).body.dataset.content.map((r: any) => r.name);
    expect(seen).toContain('Only A');
    expect(seen).toContain('All');
    expect(seen).not.toContain('Only B');
    expect((await api('GET', `/api/campaign/${b.id}`, undefined, userA)).status).toBe(403);
    expect((await api('GET', `/api/campaign_rule/${ruleB.id}`, undefined, userA)).status).toBe(403);
    expect((await api('POST', '/api/campaign_rule', { campaignId: b.id, campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '[1]' }, userA)).body.fields)
      .toEqual({ campaignId: 'not_permitted' });
    expect((await api('POST', '/api/campaign', { name: 'Mine too', fee: 1, locIds: [siteB] }, userA)).body.fields).toEqual({ locIds: 'not_permitted' });
    expect((await api('POST', '/api/campaign', { name: 'Everyone', fee: 1, isAllCpLocFlag: 1 }, userA)).body.fields).toEqual({ isAllCpLocFlag: 'not_permitted' });
    expect((await api('PUT', `/api/campaign/${all.id}`, { fee: 9 }, userA)).body.fields).toEqual({ isAllCpLocFlag: 'not_permitted' });
    const mine = await created('/api/campaign', { name: 'Mine', fee: 1, locIds: [siteA] }, userA);
    expect(mine.creUserName).toBe('campaign-a');
    // Sites of another user's kept when this user edits the list.
    await api('PUT', `/api/campaign/${a.id}`, { locIds: [siteA, siteB] });
    expect((await api('PUT', `/api/campaign/${a.id}`, { locIds: [siteA] }, userA)).body.data.locIds).toEqual([siteA, siteB].sort((x, y) => x - y));
  });
});
