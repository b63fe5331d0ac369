import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** The opening hour resource and its charger checklist: privileges, sites, answers and bad input. */
describe('opening hour routes', () => {
  let s: TestServer;
  let admin: string;
  let reader: string;
  let editorA: string;
  let siteA: number;
  let inA: number;
  let inB: number;
  let hourId: number;

  beforeAll(async () => {
    s = await startTestServer({ timeZone: 'Asia/Hong_Kong' });
    s.app.openingHours.now = () => new Date('2026-11-23T03:00:00Z'); // Monday 11:00 in Hong Kong
    admin = await s.login();
    siteA = await addSite(s.db);
    inA = await addCharger(s.db, 'R-A1', { locId: siteA });
    inB = await addCharger(s.db, 'R-B1');
    reader = await userWith(s, 'oh-reader', ['READ_OPENING_HOUR']);
    editorA = await userWith(s, 'oh-editor', ['READ_OPENING_HOUR', 'EDIT_OPENING_HOUR', 'CREATE_OPENING_HOUR'], [siteA]);
    const created = await s.api('POST', '/api/opening_hour', { token: admin, body: { name: 'Night', start_time: '22:00', end_time: '06:00', ends_next_day: 1 } });
    expect(created.status).toBe(200);
    hourId = created.body.data.opening_hour_id;
  });
  afterAll(() => s.close());

  it('checks the times: HH:mm, the end after the start unless it ends the next day, equal times refused', async () => {
    const post = (body: object) => s.api('POST', '/api/opening_hour', { token: admin, body });
    expect((await post({ name: 'x', start_time: '9:00', end_time: '18:00' })).body.fields).toEqual({ start_time: 'format_error' });
    expect((await post({ name: 'x', start_time: '09:00', end_time: '09:00' })).body.fields).toEqual({ end_time: 'end_equals_start' });
    expect((await post({ name: 'x', start_time: '09:00' })).body.fields).toEqual({ end_time: 'required' });
    expect((await post({ name: 'All day', start_time: '00:00', end_time: '24:00' })).status).toBe(200);
    // Spec part 2 §5: an end before the start is refused, not silently taken as overnight ...
    const mistyped = await post({ name: 'x', start_time: '18:00', end_time: '08:00' });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.fields).toEqual({ end_time: 'end_before_start' });
    // ... the operator says it ends the next day, and then the end must come before the start (under a day).
    expect((await post({ name: 'x', start_time: '08:00', end_time: '18:00', ends_next_day: 1 })).body.fields).toEqual({ end_time: 'next_day_end_after_start' });
    const overnight = await post({ name: 'Evening', start_time: '18:00', end_time: '08:00', ends_next_day: 1 });
    expect(overnight.status).toBe(200);
    expect(overnight.body.data).toMatchObject({ start_time: '18:00', end_time: '08:00', ends_next_day: 1 });
    const edit = await s.api('PUT', `/api/opening_hour/${hourId}`, { token: admin, body: { end_time: '22:00' } });
    expect(edit.body.fields).toEqual({ end_time: 'end_equals_start' });
    // Unticking ends_next_day of an overnight one without moving its times is refused too.
    const untick = await s.api('PUT', `/api/opening_hour/${hourId}`, { token: admin, body: { ends_next_day: 0 } });
    expect(untick.body.fields).toEqual({ end_time: 'end_before_start' });
  });

  it('migration 0014 marks the overnight rows saved before as ending the next day', async () => {
    const sql = readFileSync(new URL('../db/migrations/0014_opening_hour_ends_next_day.sql', import.meta.url), 'utf8');
    const update = sql.split('--> statement-breakpoint').find((q) => q.includes('UPDATE'))!;
    const legacy = await s.db.query(
      `INSERT INTO opening_hour (name, start_time, end_time) VALUES ('Old night', '22:00', '06:00'), ('Old day', '09:00', '18:00') RETURNING opening_hour_id`,
    );
    await s.db.query(update);
    const rows = await s.db.query(`SELECT ends_next_day FROM opening_hour WHERE opening_hour_id = ANY($1::int[]) ORDER BY opening_hour_id`, [legacy.map((r) => r.opening_hour_id)]);
    expect(rows).toEqual([{ ends_next_day: 1 }, { ends_next_day: 0 }]);
  });

  it('sets weekdays and dates, checked', async () => {
    const put = (token: string, body: object) => s.api('PUT', `/api/opening_hour_days/${hourId}`, { token, body });
    expect((await put(reader, { weekday: [1], date_list: [] })).status).toBe(403);
    expect((await put(admin, { weekday: [8], date_list: [] })).body.fields).toEqual({ 'weekday.0': 'invalid' });
    expect((await put(admin, { weekday: [], date_list: ['2026-02-30'] })).body.fields).toEqual({ 'date_list.0': 'invalid' });
    expect((await put(admin, { weekday: [5, 1, 5] })).body.fields).toEqual({ date_list: 'required' });
    const ok = await put(admin, { weekday: [5, 1, 5], date_list: ['2026-12-31', '2026-12-24'] });
    expect(ok.body).toEqual({ status: 'success', data: { weekday: [1, 5], date_list: ['2026-12-24', '2026-12-31'] } });
    const shown = await s.api('GET', `/api/opening_hour/${hourId}`, { token: admin });
    expect(shown.body).toMatchObject({ weekday: [1, 5], date_list: ['2026-12-24', '2026-12-31'], start_time: '22:00' });
    await put(admin, { weekday: [], date_list: [] });
    const [log] = await s.db.query(`SELECT remark FROM portal_action_log WHERE target = 'opening_hour' AND remark = 'days' LIMIT 1`);
    expect(log).toBeDefined();
  });

  it('assigns chargers: Success as the body, privileges and sites checked, bad input a 400', async () => {
    const post = (token: string, body: unknown) => s.api('POST', '/api/cp_opening_hour', { token, body });
    expect((await post(reader, { openingHourId: hourId, cpIds: [inA] })).status).toBe(403);
    expect((await post(editorA, { openingHourId: hourId, cpIds: [inB] })).body.fields).toEqual({ cpIds: 'not_permitted' });
    expect((await post(editorA, { openingHourId: hourId, cpIds: [999999] })).body.fields).toEqual({ cpIds: 'invalid' });
    expect((await post(editorA, { openingHourId: hourId, cpIds: ['x'] })).status).toBe(400);
    expect((await post(editorA, { cpIds: [inA] })).body.fields).toEqual({ openingHourId: 'required' });
    expect((await post(editorA, { openingHourId: 999999, cpIds: [inA] })).status).toBe(404);
    const ok = await post(editorA, { openingHourId: hourId, cpIds: [inA] });
    expect([ok.status, ok.body, ok.headers.get('content-type')]).toEqual([200, 'Success', 'text/plain; charset=utf-8']);
    // The admin assigns the other site's charger; the site-kept editor's empty set leaves it alone.
    expect((await post(admin, { openingHourId: hourId, cpIds: [inA, inB] })).body).toBe('Success');
    expect((await post(editorA, { openingHourId: hourId, cpIds: [] })).body).toBe('Success');
    const rows = await s.db.query(`SELECT cp_id FROM cp_opening_hour WHERE opening_hour_id = $1`, [hourId]);
    expect(rows.map((r) => r.cp_id)).toEqual([inB]);
    const [audit] = await s.db.query(`SELECT new_data FROM portal_action_log WHERE remark = 'charger assignment' ORDER BY id DESC LIMIT 1`);
    expect(audit.new_data).toEqual({ cpIds: [] });
  });

  it('lists the chargers the user may see, ticked when assigned', async () => {
    await s.api('POST', '/api/cp_opening_hour', { token: admin, body: { openingHourId: hourId, cpIds: [inA, inB] } });
    const mine = await s.api('GET', `/api/cp_opening_hour/${hourId}`, { token: editorA });
    expect(mine.body.cpIds).toEqual([inA]);
    expect(mine.body.dataset.content).toEqual([{ cp_id: inA, cp_no: 'R-A1', loc_id: siteA, opening_hour_id: hourId, assigned: 1 }]);
    const all = await s.api('GET', `/api/cp_opening_hour/${hourId}`, { token: admin });
    expect(all.body.cpIds.sort()).toEqual([inA, inB].sort());
    expect((await s.api('GET', '/api/cp_opening_hour/999999', { token: admin })).status).toBe(404);
    expect((await s.api('GET', '/api/cp_opening_hour/abc', { token: admin })).status).toBe(400);
  });

  it('dry run: per charger, open now and the next change', async () => {
    const test = (token: string, cpIds: unknown) => s.api('POST', '/api/cp_opening_hour/test', { token, body: { cpIds } });
    const res = await test(admin, [inA]);
    // 22:00–06:00, 11:00 now: closed until 22:00 today.
    expect(res.body).toMatchObject({ status: 'success', timeZone: 'Asia/Hong_Kong', now: '2026-11-23 11:00:00' });
    expect(res.body.dataset.content).toEqual([
      { cp_id: inA, cp_no: 'R-A1', opening_hour_id: hourId, name: 'Night', open: 0, next_change: '2026-11-23 22:00:00', applied_state: null, online: 0 },
    ]);
    expect((await test(editorA, [inB])).body.fields).toEqual({ cpIds: 'not_permitted' });
    expect((await test(admin, [])).status).toBe(400);
    const free = await addCharger(s.db, 'R-FREE', { locId: siteA });
    expect((await test(admin, [free])).body.dataset.content[0]).toMatchObject({ opening_hour_id: null, open: 1, next_change: null });
  });
});
