import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivilege, editPrivilege, P, PRICE_SCHEME_SESSION_ERROR, priceRemoteStart, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';
import type { AuthUser } from '../auth/session.ts';
import { HttpError } from '../http/errors.ts';
import { validateWrite } from '../resources/validate.ts';

const RATE = ['READ_CHARGING_RATE', 'CREATE_CHARGING_RATE', 'EDIT_CHARGING_RATE', P.DELETE];
const DETAIL = [readPrivilege('charging_rate_detail'), createPrivilege('charging_rate_detail'), editPrivilege('charging_rate_detail')];

describe('a fixed field (the rate\'s type): shown, never set', () => {
  // A list of several values, so that the refusal is the fixed rule's and not the option list's.
  const def = { key: 'x', table: 'x', idField: 'id', labels: {} as never, columns: [], actions: [], fields: [{ field: 'unit', input: 'select', type: 'text', options: 'charging_rate_unit', default: 'Minute', fixed: true }] } as never;
  const user = { privileges: new Set<string>() } as unknown as AuthUser;
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      return err instanceof HttpError ? err.body.fields : err;
    }
    return undefined;
  };
  it('takes its default on create and its stored value on update, nothing else', () => {
    expect(validateWrite(def, {}, user, 'create')).toEqual({ unit: 'Minute' });
    expect(validateWrite(def, { unit: 'Minute' }, user, 'create')).toEqual({ unit: 'Minute' });
    expect(refusal(() => validateWrite(def, { unit: 'Hour' }, user, 'create'))).toEqual({ unit: 'not_editable' });
    expect(validateWrite(def, { unit: 'Hour' }, user, 'update', { unit: 'Hour' })).toEqual({ unit: 'Hour' });
    expect(refusal(() => validateWrite(def, { unit: 'Minute' }, user, 'update', { unit: 'Hour' }))).toEqual({ unit: 'not_editable' });
  });
});

describe('charging rates: the rate, its slots and its chargers', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let schemeA: number; // 4 sessions at site A
  let schemeA2: number; // 2 sessions at site A
  let schemeB: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const create = async (key: string, body: Record<string, unknown>, token = admin) => {
    const res = await api('POST', `/api/${key}`, body, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  const rate = (name: string, locId = siteA) => create('charging_rate', { name, loc_id: locId });
  const slot = (chargingRateId: number, extra: Record<string, unknown> = {}) =>
    api('POST', '/api/charging_rate_detail', { chargingRateId, startTime: '08:00', endTime: '18:00', maxChargingUnit: 2, priceSchemeId: schemeA, ...extra });

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = await addSite(s.db);
    siteB = await addSite(s.db);
    schemeA = await create('price_scheme', { name: 'A4', fee: 6, locId: siteA, maxChargingUnit: 4 });
    schemeA2 = await create('price_scheme', { name: 'A2', fee: 5, locId: siteA, maxChargingUnit: 2, type: 'Custom' });
    schemeB = await create('price_scheme', { name: 'B4', fee: 6, locId: siteB, maxChargingUnit: 4 });
  });
  afterAll(() => s.close());

  it('creates a rate with the defaults; the type is never changed, the site is fixed, numbers are bounded', async () => {
    const id = await rate('Standard');
    expect((await api('GET', `/api/charging_rate/${id}`)).body).toMatchObject({ name: 'Standard', type: 'Time', unit: 15, gracing_period: 0, loc_id: siteA });
    // The type is shown; sending it unchanged is fine, another value never is.
    expect((await api('POST', '/api/charging_rate', { name: 'x', loc_id: siteA, type: 'Time' })).status).toBe(200);
    expect((await api('POST', '/api/charging_rate', { name: 'x', loc_id: siteA, type: 'Energy' })).body.fields).toEqual({ type: 'invalid' });
    expect((await api('PUT', `/api/charging_rate/${id}`, { type: 'Energy' })).body.fields).toEqual({ type: 'invalid' });
    expect((await api('PUT', `/api/charging_rate/${id}`, { type: 'Time', name: 'Standard 2' })).status).toBe(200);
    expect((await api('PUT', `/api/charging_rate/${id}`, { loc_id: siteB })).body.fields).toEqual({ loc_id: 'not_editable' });
    for (const [body, fields] of [
      [{ unit: 0 }, { unit: 'min' }],
      [{ gracing_period: 1441 }, { gracing_period: 'max' }],
      [{ max_charging_unit: 0 }, { max_charging_unit: 'min' }],
      [{ redeem_period: 'often' }, { redeem_period: 'invalid' }],
      [{ max_redeem_count: -1 }, { max_redeem_count: 'min' }],
    ] as const) {
      expect((await api('PUT', `/api/charging_rate/${id}`, body)).body.fields).toEqual(fields);
    }
    expect((await api('POST', '/api/charging_rate', { name: 'no site' })).body.fields).toEqual({ loc_id: 'required' });
    const full = await api('PUT', `/api/charging_rate/${id}`, {
      unit: 30, gracing_period: 10, max_charging_unit: 4, max_penalty_unit: 8, max_daily_charging_session: 3, redeem_period: 1440, max_redeem_count: 2,
    });
    expect(full.body.data).toMatchObject({ unit: 30, gracing_period: 10, max_charging_unit: 4, redeem_period: 1440, max_redeem_count: 2, type: 'Time' });
  });

  it('keeps rates to the user\'s sites and edit and delete to EDIT_CHARGING_RATE, and deletes softly', async () => {
    const a = await rate('Site A rate');
    const b = await rate('Site B rate', siteB);
    const readerA = await userWith(s, 'rate-reader', ['READ_CHARGING_RATE', P.DELETE], [siteA]);
    const editorA = await userWith(s, 'rate-editor', RATE, [siteA]);
    const ids = async (token: string, q = '') => (await api('GET', `/api/charging_rate?size=100${q}`, undefined, token)).body.dataset.content.map((r: any) => r.id);
    expect(await ids(readerA)).toContain(a);
    expect(await ids(readerA)).not.toContain(b);
    expect(await ids(admin, `&loc_id=${siteB}`)).toEqual([b]);
    expect(await ids(admin, `&locId=${siteB}`)).toEqual([b]);
    expect((await api('PUT', `/api/charging_rate/${a}`, { name: 'no' }, readerA)).status).toBe(403);
    expect((await api('DELETE', `/api/charging_rate/${a}`, undefined, readerA)).status).toBe(403);
    expect((await api('PUT', `/api/charging_rate/${b}`, { name: 'no' }, editorA)).status).toBe(403);
    expect((await api('POST', '/api/charging_rate', { name: 'no', loc_id: siteB }, editorA)).body.fields).toEqual({ loc_id: 'not_permitted' });
    const del = await api('DELETE', `/api/charging_rate/${a}`, undefined, editorA);
    expect([del.status, del.body]).toEqual([200, 'Deleted']);
    expect(await ids(admin)).not.toContain(a);
    expect(await ids(admin, '&trash=1')).toContain(a);
    expect((await s.db.query(`SELECT deleted_at FROM charging_rate WHERE id = $1`, [a]))[0].deleted_at).not.toBeNull();
  });

  it('stores a slot: penalty fee in cents, peak 0 by default, weekdays sorted, 24:00 as the end of the day', async () => {
    const r = await rate('Slots');
    const res = await slot(r, { startTime: '18:00', endTime: '24:00', penaltyFee: '2.50', penaltyUnit: 15, weekday: [5, 1, 3], unit: 'Minute' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ startTime: '18:00', endTime: '24:00', peak: 0, penaltyFee: 2.5, weekday: [1, 3, 5], loc_id: siteA, chargingRateId: r });
    const [row] = await s.db.query(`SELECT "penaltyFee", weekday FROM charging_rate_detail WHERE id = $1`, [res.body.data.id]);
    expect([Number(row.penaltyFee), row.weekday]).toEqual([250, [1, 3, 5]]);
    expect((await slot(r, { startTime: '00:00', endTime: '08:00', penaltyFee: 1.005 })).body.fields).toEqual({ penaltyFee: 'invalid' });
    expect((await slot(r, { startTime: '00:00', endTime: '08:00', unit: 'Day' })).body.fields).toEqual({ unit: 'invalid' });
    expect((await slot(r, { startTime: '00:00', endTime: '08:00', weekday: [8] })).body.fields).toEqual({ weekday: 'invalid' });
    // Clearing the weekdays means every day.
    const edited = await api('PUT', `/api/charging_rate_detail/${res.body.data.id}`, { weekday: null, peak: 1 });
    expect(edited.body.data).toMatchObject({ weekday: [], peak: 1 });
  });

  it('refuses times that are not HH:mm or an end not after the start', async () => {
    const r = await rate('Times');
    for (const [times, fields] of [
      [{ startTime: '10:00', endTime: '10:00' }, { endTime: 'end_before_start' }],
      [{ startTime: '10:00', endTime: '09:00' }, { endTime: 'end_before_start' }],
      [{ startTime: '22:00', endTime: '02:00' }, { endTime: 'end_before_start' }],
      [{ startTime: '9:00', endTime: '10:00' }, { startTime: 'format_error' }],
      [{ startTime: '24:00', endTime: '24:00' }, { startTime: 'format_error' }],
      [{ startTime: '00:00', endTime: '24:30' }, { endTime: 'format_error' }],
      [{ startTime: '00:00', endTime: '00:00' }, { endTime: 'format_error' }],
      [{ startTime: '00:00' }, { endTime: 'required' }],
    ] as const) {
      const res = await api('POST', '/api/charging_rate_detail', { chargingRateId: r, maxChargingUnit: 1, priceSchemeId: schemeA, ...times });
      expect([res.status, res.body.fields]).toEqual([400, fields]);
    }
    const ok = await slot(r, { startTime: '00:00', endTime: '24:00' });
    expect(ok.status).toBe(200);
    // An edit is checked against the stored value of the time it does not send.
    expect((await api('PUT', `/api/charging_rate_detail/${ok.body.data.id}`, { startTime: '24:00' })).body.fields).toEqual({ startTime: 'format_error' });
    expect((await api('PUT', `/api/charging_rate_detail/${ok.body.data.id}`, { endTime: '00:00' })).body.fields).toEqual({ endTime: 'format_error' });
    expect((await s.db.query(`SELECT count(*)::int AS n FROM charging_rate_detail WHERE "chargingRateId" = $1`, [r]))[0].n).toBe(1);
  });

  it('takes only a price scheme of the rate\'s site with enough sessions', async () => {
    const r = await rate('Schemes');
    expect((await slot(r, { priceSchemeId: schemeB })).body.fields).toEqual({ priceSchemeId: 'scheme_other_site' });
    expect((await slot(r, { priceSchemeId: schemeA2, maxChargingUnit: 3 })).body.fields).toEqual({ priceSchemeId: PRICE_SCHEME_SESSION_ERROR });
    expect((await slot(r, { priceSchemeId: 999999 })).body.fields).toEqual({ priceSchemeId: 'invalid' });
    expect((await slot(r, { priceSchemeId: null })).body.fields).toEqual({ priceSchemeId: 'required' });
    const ok = await slot(r, { priceSchemeId: schemeA2, maxChargingUnit: 2 });
    expect(ok.status).toBe(200);
    // Raising the slot's units above the scheme's sessions, or picking a smaller scheme later, is refused too.
    const id = ok.body.data.id;
    expect((await api('PUT', `/api/charging_rate_detail/${id}`, { maxChargingUnit: 3 })).body.fields).toEqual({ priceSchemeId: PRICE_SCHEME_SESSION_ERROR });
    expect((await api('PUT', `/api/charging_rate_detail/${id}`, { maxChargingUnit: 4, priceSchemeId: schemeA })).status).toBe(200);
    expect((await api('PUT', `/api/charging_rate_detail/${id}`, { priceSchemeId: schemeA2 })).body.fields).toEqual({ priceSchemeId: PRICE_SCHEME_SESSION_ERROR });
    // A scheme in trash is no longer offered.
    const gone = await create('price_scheme', { name: 'gone', fee: 1, locId: siteA, maxChargingUnit: 4 });
    await api('DELETE', `/api/price_scheme/${gone}`);
    expect((await api('PUT', `/api/charging_rate_detail/${id}`, { priceSchemeId: gone })).body.fields).toEqual({ priceSchemeId: 'invalid' });
  });

  it('refuses two slots of a rate that overlap on a shared day, so the pricing finds one slot for any start', async () => {
    const r = await rate('Overlap');
    const day = (await slot(r, { startTime: '08:00', endTime: '18:00', weekday: [1, 2, 3, 4, 5] })).body.data.id;
    expect((await slot(r, { startTime: '17:00', endTime: '20:00', weekday: [5] })).body.fields).toEqual({ startTime: 'slot_overlap' });
    // No weekdays: every day, so it meets the weekday slot.
    expect((await slot(r, { startTime: '07:00', endTime: '08:30' })).body.fields).toEqual({ startTime: 'slot_overlap' });
    // Touching ends, other days, another rate: fine.
    const night = (await slot(r, { startTime: '18:00', endTime: '24:00' })).body.data.id;
    const weekend = (await slot(r, { startTime: '08:00', endTime: '18:00', weekday: [6, 7], peak: 1, priceSchemeId: schemeA2 })).body.data.id;
    expect(night && weekend).toBeTruthy();
    expect((await slot(await rate('Other'), { startTime: '08:00', endTime: '18:00' })).status).toBe(200);
    // An edit does not clash with itself, but may not move onto another slot.
    expect((await api('PUT', `/api/charging_rate_detail/${day}`, { startTime: '07:00' })).status).toBe(200);
    expect((await api('PUT', `/api/charging_rate_detail/${weekend}`, { weekday: [5, 6, 7] })).body.fields).toEqual({ startTime: 'slot_overlap' });
    // A deleted slot frees its time.
    expect((await api('DELETE', `/api/charging_rate_detail/${night}`)).body).toBe('Deleted');
    const early = await slot(r, { startTime: '00:00', endTime: '07:00' });
    expect(early.status).toBe(200);

    // The stored slots priced as the remote start does: Friday 07:30 Hong Kong is the weekday slot, Saturday the weekend one.
    const rows = (await api('GET', `/api/charging_rate_detail?chargingRateId=${r}&size=99999&page=0&trash=0`)).body.dataset.content;
    const slots = rows.map((d: any) => ({ ...d, penaltyFee: null, penaltyUnit: null }));
    const price = (start: string) => priceRemoteStart({
      rate: { unitMinutes: 15, gracingPeriodMinutes: 0, maxPenaltyUnit: null, maxChargingUnit: null },
      slots, campaigns: [], locId: siteA, units: 2, redeemVoucherSessions: 0, start: new Date(start), timeZone: 'Asia/Hong_Kong',
      schemes: { [schemeA]: { id: schemeA, type: 'Fixed', fee: 600, sessions: [] }, [schemeA2]: { id: schemeA2, type: 'Custom', fee: 500, sessions: [{ session: 1, cash: 500, point: 0 }, { session: 2, cash: 1000, point: 0 }] } },
    });
    expect(price('2026-11-27T07:30:00+08:00')).toMatchObject({ ok: true, slotId: day, fee: 1200 });
    expect(price('2026-11-28T07:30:00+08:00')).toMatchObject({ ok: false, errorCode: 10019 });
    expect(price('2026-11-28T08:00:00+08:00')).toMatchObject({ ok: true, slotId: weekend, peak: 1, fee: 1000 });
    expect(price('2026-11-28T06:59:00+08:00')).toMatchObject({ ok: true, slotId: early.body.data.id });
  });

  it('lists slots by rate and by site, within the user\'s sites; every slot write needs EDIT_CHARGING_RATE', async () => {
    const a = await rate('List A');
    const b = await rate('List B', siteB);
    const sa = (await slot(a)).body.data.id;
    const sb = (await slot(b, { priceSchemeId: schemeB })).body.data.id;
    const ids = async (q: string, token = admin) => (await api('GET', `/api/charging_rate_detail?size=99999&page=0&trash=0${q}`, undefined, token)).body.dataset.content.map((r: any) => r.id);
    expect(await ids(`&chargingRateId=${a}`)).toEqual([sa]);
    expect(await ids(`&chargingRateId=${a}&loc_id=${siteA}`)).toEqual([sa]);
    expect(await ids(`&chargingRateId=${a}&loc_id=${siteB}`)).toEqual([]);
    expect(await ids(`&loc_id=${siteB}`)).toContain(sb);
    expect(await ids(`&loc_id=${siteB}`)).not.toContain(sa);
    expect(await ids(`&locId=${siteB}`)).toContain(sb);

    const slotsOnly = await userWith(s, 'slot-no-rate-edit', [...DETAIL, 'READ_CHARGING_RATE', P.DELETE], [siteA]);
    const editorA = await userWith(s, 'slot-editor', [...DETAIL, ...RATE], [siteA]);
    expect(await ids('', editorA)).toContain(sa);
    expect(await ids('', editorA)).not.toContain(sb);
    expect((await api('GET', `/api/charging_rate_detail/${sb}`, undefined, editorA)).status).toBe(403);
    expect((await api('PUT', `/api/charging_rate_detail/${sb}`, { peak: 1 }, editorA)).status).toBe(403);
    expect((await api('DELETE', `/api/charging_rate_detail/${sb}`, undefined, editorA)).status).toBe(403);
    const other = await api('POST', '/api/charging_rate_detail', { chargingRateId: b, startTime: '00:00', endTime: '01:00', maxChargingUnit: 1, priceSchemeId: schemeB }, editorA);
    expect(other.body.fields).toEqual({ chargingRateId: 'not_permitted', priceSchemeId: 'not_permitted' });
    // The slot privileges alone are not enough: the action column is EDIT_CHARGING_RATE's.
    expect((await api('POST', '/api/charging_rate_detail', { chargingRateId: a, startTime: '20:00', endTime: '21:00', maxChargingUnit: 1, priceSchemeId: schemeA }, slotsOnly)).status).toBe(403);
    expect((await api('PUT', `/api/charging_rate_detail/${sa}`, { peak: 1 }, slotsOnly)).status).toBe(403);
    expect((await api('DELETE', `/api/charging_rate_detail/${sa}`, undefined, slotsOnly)).status).toBe(403);
    expect((await api('PUT', `/api/charging_rate_detail/${sa}`, { peak: 1 }, editorA)).body.data.peak).toBe(1);
    // The rate of a slot is fixed.
    expect((await api('PUT', `/api/charging_rate_detail/${sa}`, { chargingRateId: b })).body.fields).toEqual({ chargingRateId: 'not_editable' });
  });

  it('groups chargers by rate: GET the map and cpIds, POST makes the rate\'s chargers exactly the list', async () => {
    const r1 = await rate('Group 1');
    const r2 = await rate('Group 2');
    const rb = await rate('Group B', siteB);
    const [a1, a2, a3] = [await addCharger(s.db, 'CR-A1', { locId: siteA }), await addCharger(s.db, 'CR-A2', { locId: siteA }), await addCharger(s.db, 'CR-A3', { locId: siteA })];
    const b1 = await addCharger(s.db, 'CR-B1', { locId: siteB });
    const post = (body: unknown, token = admin) => api('POST', '/api/charging_rate_detail_cp_group', body, token);
    const group = async (token = admin) => (await api('GET', '/api/charging_rate_detail_cp_group', undefined, token)).body;

    const ok = await post({ chargingRateId: r1, cpIds: [a2, a1, a1] });
    expect([ok.status, ok.body, ok.headers.get('content-type')]).toEqual([200, 'Success', expect.stringContaining('text/plain')]);
    expect(await post({ chargingRateId: rb, cpIds: [b1] })).toMatchObject({ body: 'Success' });
    let g = await group();
    expect([g[r1], g[r2], g[rb]]).toEqual([[a1, a2], [], [b1]]);
    expect(g.cpIds).toEqual(expect.arrayContaining([a1, a2, b1]));
    expect(g.cpIds).not.toContain(a3);

    // a2 moves to rate 2 (a charger has one rate); a1 stays with rate 1.
    expect((await post({ chargingRateId: r2, cpIds: [a2, a3] })).body).toBe('Success');
    g = await group();
    expect([g[r1], g[r2]]).toEqual([[a1], [a2, a3]]);
    // An empty list releases the rate's chargers.
    expect((await post({ chargingRateId: r1, cpIds: [] })).body).toBe('Success');
    expect((await group())[r1]).toEqual([]);

    // Another site's charger: a 400 naming it, nothing changed.
    const wrong = await post({ chargingRateId: r2, cpIds: [a2, b1] });
    expect([wrong.status, wrong.body.fields, wrong.body.errors]).toEqual([400, { cpIds: 'cp_not_in_site' }, [`Chargers not at the rate's site: ${b1}`]]);
    expect((await post({ chargingRateId: r2, cpIds: [999999] })).status).toBe(400);
    g = await group();
    expect([g[r2], g[rb]]).toEqual([[a2, a3], [b1]]);
    for (const body of [{ chargingRateId: r2 }, { chargingRateId: r2, cpIds: ['x'] }, { chargingRateId: r2, cpIds: [], extra: 1 }, [], 'Success']) {
      expect((await post(body)).status).toBe(400);
    }
    expect((await post({ chargingRateId: 999999, cpIds: [] })).status).toBe(404);

    // Audited, with where a charger came from.
    const logs = await s.db.query(`SELECT old_data, new_data FROM portal_action_log WHERE target = 'charging_rate' AND target_id = $1 AND remark = 'charger assignment' ORDER BY id`, [String(r2)]);
    expect(logs[0].new_data).toEqual({ cpIds: [a2, a3], movedFrom: { [a2]: r1 } });
  });

  it('keeps the charger groups to privileges and sites; a deleted rate lets its chargers go', async () => {
    const ra = await rate('Scope A');
    const rb = await rate('Scope B', siteB);
    const a = await addCharger(s.db, 'CS-A1', { locId: siteA });
    const b = await addCharger(s.db, 'CS-B1', { locId: siteB });
    await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: rb, cpIds: [b] });
    const readerA = await userWith(s, 'group-reader', ['READ_CHARGING_RATE'], [siteA]);
    const editorA = await userWith(s, 'group-editor', RATE, [siteA]);
    const nobody = await userWith(s, 'group-nobody', ['READ_CPS']);
    const seen = (await api('GET', '/api/charging_rate_detail_cp_group', undefined, readerA)).body;
    expect(Object.hasOwn(seen, String(ra))).toBe(true);
    expect(Object.hasOwn(seen, String(rb))).toBe(false);
    expect(seen.cpIds).not.toContain(b);
    expect((await api('GET', '/api/charging_rate_detail_cp_group', undefined, nobody)).status).toBe(403);
    expect((await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: ra, cpIds: [a] }, readerA)).status).toBe(403);
    expect((await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: rb, cpIds: [] }, editorA)).status).toBe(403);
    expect((await api('GET', '/api/charging_rate_detail_cp_group')).body[rb]).toEqual([b]);
    expect((await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: ra, cpIds: [a] }, editorA)).body).toBe('Success');

    expect((await api('DELETE', `/api/charging_rate/${ra}`, undefined, editorA)).body).toBe('Deleted');
    const after = (await api('GET', '/api/charging_rate_detail_cp_group')).body;
    expect(Object.hasOwn(after, String(ra))).toBe(false);
    expect(after.cpIds).not.toContain(a);
    expect((await s.db.query(`SELECT count(*)::int AS n FROM charging_rate_cp WHERE cp_id = $1`, [a]))[0].n).toBe(0);
    expect((await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: ra, cpIds: [a] })).status).toBe(404);
  });

  it('keeps a scheme usable by the slots pricing with it; a charger moved to another site leaves its rate', async () => {
    const scheme = await create('price_scheme', { name: 'Used', fee: 4, locId: siteA, maxChargingUnit: 3 });
    const r = await rate('Uses a scheme');
    expect((await slot(r, { startTime: '00:00', endTime: '06:00', maxChargingUnit: 3, priceSchemeId: scheme })).status).toBe(200);
    // Fewer sessions than the slot prices: refused like the slot itself would be; as many is fine.
    expect((await api('PUT', `/api/price_scheme/${scheme}`, { maxChargingUnit: 2 })).body.fields).toEqual({ maxChargingUnit: PRICE_SCHEME_SESSION_ERROR });
    expect((await api('PUT', `/api/price_scheme/${scheme}`, { maxChargingUnit: 3, name: 'Used 2' })).status).toBe(200);
    expect((await api('GET', `/api/price_scheme/checkDelete/${scheme}`)).body).toMatchObject({ msgCode: 'price_scheme_in_use' });
    expect((await api('DELETE', `/api/price_scheme/${scheme}`)).status).toBe(409);
    expect((await s.db.query(`SELECT deleted_at FROM price_scheme WHERE id = $1`, [scheme]))[0].deleted_at).toBeNull();

    const cp = await addCharger(s.db, 'CR-MOVE', { locId: siteA });
    expect((await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: r, cpIds: [cp] })).body).toBe('Success');
    expect((await api('PUT', `/api/cps/${cp}`, { name: 'renamed' })).status).toBe(200);
    expect(await s.db.query(`SELECT 1 FROM charging_rate_cp WHERE cp_id = $1`, [cp])).toHaveLength(1);
    expect((await api('PUT', `/api/cps/${cp}`, { loc_id: siteB })).status).toBe(200);
    expect(await s.db.query(`SELECT 1 FROM charging_rate_cp WHERE cp_id = $1`, [cp])).toHaveLength(0);
  });

  it('exports the filtered rates to Excel, only those of the user\'s sites', async () => {
    await rate('Export Rate A');
    await rate('Export Rate B', siteB);
    const exported = async (token: string) => {
      const res = await fetch(`${s.baseUrl}/api/charging_rate/export/excel?headers=Name&headers=Unit&keys=name&keys=unit&sheet_name=Rates&name=Export%20Rate`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const ExcelJS = (await import('exceljs')).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      return wb.getWorksheet('Rates')!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    };
    expect((await exported(admin)).sort()).toEqual([['Name', 'Unit'], ['Export Rate A', 15], ['Export Rate B', 15]].sort());
    const siteUser = await userWith(s, 'rate-exporter', ['READ_CHARGING_RATE'], [siteA]);
    expect(await exported(siteUser)).toEqual([['Name', 'Unit'], ['Export Rate A', 15]]);
  });
});
