import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';

const ACC = ['READ_ACCOUNTS', 'CREATE_ACCOUNTS', 'EDIT_ACCOUNTS'];
const VEH = ['READ_ACCOUNT_VEHICLES', 'CREATE_ACCOUNT_VEHICLES', 'EDIT_ACCOUNT_VEHICLES', P.DELETE];

describe('accounts, vehicles, service plans and cards', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let cpA: number;
  let cpB: number;

  const post = (token: string, key: string, body: unknown) => s.api('POST', `/api/${key}`, { token, body });
  const account = async (body: Record<string, unknown>) => {
    const res = await post(admin, 'accounts', { mobile_no: '9000' + Math.floor(Math.random() * 1e4), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Record<string, any>;
  };

  beforeAll(async () => {
    // Days and months are counted in the display time zone.
    s = await startTestServer({ timeZone: 'Asia/Hong_Kong' });
    admin = await s.login();
    siteA = (await post(admin, 'cp_locs', { address: 'Site A' })).body.data.loc_id;
    siteB = (await post(admin, 'cp_locs', { address: 'Site B' })).body.data.loc_id;
    cpA = (await post(admin, 'cps', { cp_no: 'ACC-A1', name: 'a', loc_id: siteA })).body.data.cp_id;
    cpB = (await post(admin, 'cps', { cp_no: 'ACC-B1', name: 'b', loc_id: siteB })).body.data.cp_id;
  });
  afterAll(() => s.close());

  it('creates, reads, edits and deletes an account; balance in dollars, stored in cents; locIds is loc_ids', async () => {
    const a = await account({ first_name: 'Chan', acc_bal: 12.5, birthday: '1990-02-03', locIds: [siteA], rfid_cards: ' c-1 ; C-2,c-1 ' });
    expect(a).toMatchObject({ first_name: 'Chan', acc_bal: 12.5, birthday: '1990-02-03', locIds: [siteA], rfid_cards: 'c-1,C-2', acc_status: 1 });
    expect(a.reg_dttm).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const [row] = await s.db.query(`SELECT acc_bal, loc_ids FROM accounts WHERE acc_id = $1`, [a.acc_id]);
    expect(row).toEqual({ acc_bal: 1250, loc_ids: [siteA] });
    const upd = await s.api('PUT', `/api/accounts/${a.acc_id}`, { token: admin, body: { ...a, acc_bal: '-3.05', locIds: [] } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.data).toMatchObject({ acc_bal: -3.05, locIds: [] });
    expect((await s.db.query(`SELECT acc_bal FROM accounts WHERE acc_id = $1`, [a.acc_id]))[0].acc_bal).toBe(-305);
    // More than cents, a bad date, a changed registration time: field errors.
    for (const [body, field, key] of [
      [{ acc_bal: 1.234 }, 'acc_bal', 'invalid'],
      [{ birthday: '1990-02-30' }, 'birthday', 'format_error'],
      [{ reg_dttm: '2000-01-01 00:00:00' }, 'reg_dttm', 'not_editable'],
    ] as const) {
      const bad = await s.api('PUT', `/api/accounts/${a.acc_id}`, { token: admin, body });
      expect(bad.status).toBe(400);
      expect(bad.body.fields[field]).toBe(key);
    }
    const list = await s.api('GET', `/api/accounts?sort_by=acc_bal&order=asc&locIds=${siteB}`, { token: admin });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(await s.api('DELETE', `/api/accounts/${a.acc_id}`, { token: admin })).toMatchObject({ status: 200 });
    expect((await s.api('GET', `/api/accounts?trash=1`, { token: admin })).body.dataset.content.map((r: any) => r.acc_id)).toContain(a.acc_id);
  });

  it('keeps only the first 3 characters of an HKID: a longer one is refused, never cut', async () => {
    const bad = await post(admin, 'accounts', { mobile_no: '91111111', hkid: 'A123456(7)' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ hkid: 'hkid_prefix_only' });
    expect(await s.db.query(`SELECT 1 FROM accounts WHERE mobile_no = '91111111'`)).toHaveLength(0);
    expect((await account({ hkid: 'A12' })).hkid).toBe('A12');
  });

  it('shows and accepts master_flag only with READ_MASTER_FLAG', async () => {
    const a = await account({ master_flag: 1 });
    const plain = await userWith(s, 'acc-plain', ACC);
    const got = await s.api('GET', `/api/accounts/${a.acc_id}`, { token: plain });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('master_flag');
    expect((await s.api('GET', `/api/accounts`, { token: plain })).body.dataset.content[0]).not.toHaveProperty('master_flag');
    const refused = await s.api('PUT', `/api/accounts/${a.acc_id}`, { token: plain, body: { master_flag: 0 } });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ master_flag: 'not_permitted' });
    expect((await post(plain, 'accounts', { mobile_no: '92', master_flag: 1 })).status).toBe(400);
    const master = await userWith(s, 'acc-master', [...ACC, P.MASTER_FLAG]);
    expect((await s.api('GET', `/api/accounts/${a.acc_id}`, { token: master })).body.master_flag).toBe(1);
    expect((await s.api('PUT', `/api/accounts/${a.acc_id}`, { token: master, body: { master_flag: 0 } })).body.data.master_flag).toBe(0);
  });

  it('refuses a card number held by another account, vehicle or authorised card', async () => {
    const a = await account({ rfid_cards: 'UNIQ-1' });
    await account({ rfid_cards: 'UNIQ-2' });
    const card = await post(admin, 'auth_card', { name: 'fleet', rfid_cards: 'UNIQ-3' });
    expect(card.status).toBe(200);
    const veh = await post(admin, 'account_vehicles', { acc_id: a.acc_id, car_reg_no: 'AB1', rfid_cards: 'UNIQ-4' });
    expect(veh.status, JSON.stringify(veh.body)).toBe(200);
    const clashes: [string, Record<string, unknown>][] = [
      ['accounts', { mobile_no: '93', rfid_cards: 'x,uniq-1' }],
      ['accounts', { mobile_no: '93', rfid_cards: 'UNIQ-3' }],
      ['accounts', { mobile_no: '93', rfid_cards: 'UNIQ-4' }],
      ['account_vehicles', { acc_id: a.acc_id, car_reg_no: 'AB2', rfid_cards: 'UNIQ-2' }],
      ['account_vehicles', { acc_id: a.acc_id, car_reg_no: 'AB2', rfid_cards: 'UNIQ-3' }],
      ['auth_card', { name: 'x', rfid_cards: 'UNIQ-1' }],
      ['auth_card', { name: 'x', rfid_cards: 'UNIQ-4' }],
    ];
    for (const [key, body] of clashes) {
      const res = await post(admin, key, body);
      expect(res.status, `${key} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.fields).toEqual({ rfid_cards: 'card_used' });
    }
    // A record keeps its own cards when edited.
    expect((await s.api('PUT', `/api/accounts/${a.acc_id}`, { token: admin, body: { rfid_cards: 'UNIQ-1,UNIQ-5' } })).status).toBe(200);
    expect((await s.api('PUT', `/api/auth_card/${card.body.data.id}`, { token: admin, body: { rfid_cards: 'UNIQ-3' } })).status).toBe(200);
  });

  it("refuses an authorised card whose charger is not at the card's site", async () => {
    const bad = await post(admin, 'auth_card', { name: 'x', rfid_cards: 'SITE-1', loc: siteA, cp: cpB });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ cp: 'cp_not_in_site' });
    const ok = await post(admin, 'auth_card', { name: 'x', rfid_cards: 'SITE-1', loc: siteA, cp: cpA });
    expect(ok.status).toBe(200);
    const moved = await s.api('PUT', `/api/auth_card/${ok.body.data.id}`, { token: admin, body: { loc: siteB } });
    expect(moved.body.fields).toEqual({ cp: 'cp_not_in_site' });
  });

  it('keeps a user kept to some sites to accounts valid at one of them or everywhere, and to assigning their own sites', async () => {
    const atA = await account({ locIds: [siteA] });
    const atB = await account({ locIds: [siteB] });
    const everywhere = await account({ locIds: [] });
    const both = await account({ locIds: [siteA, siteB] });
    const userA = await userWith(s, 'acc-site-a', [...ACC, ...VEH], [siteA]);
    const ids = (await s.api('GET', '/api/accounts?size=100', { token: userA })).body.dataset.content.map((r: any) => r.acc_id);
    expect(ids).toEqual(expect.arrayContaining([atA.acc_id, everywhere.acc_id, both.acc_id]));
    expect(ids).not.toContain(atB.acc_id);
    expect((await s.api('GET', `/api/accounts/${atB.acc_id}`, { token: userA })).status).toBe(403);
    expect((await s.api('PUT', `/api/accounts/${atB.acc_id}`, { token: userA, body: { first_name: 'x' } })).status).toBe(403);
    // Only their own sites, and not "every site".
    expect((await post(userA, 'accounts', { mobile_no: '94', locIds: [siteB] })).body.fields).toEqual({ locIds: 'not_permitted' });
    expect((await post(userA, 'accounts', { mobile_no: '94', locIds: [] })).body.fields).toEqual({ locIds: 'not_permitted' });
    expect((await post(userA, 'accounts', { mobile_no: '94', locIds: [siteA] })).status).toBe(200);
    // Editing the sites of an account also valid elsewhere keeps the sites they do not manage.
    const edited = await s.api('PUT', `/api/accounts/${both.acc_id}`, { token: userA, body: { locIds: [siteA] } });
    expect(edited.body.data.locIds).toEqual([siteA, siteB]);
    // Vehicles follow their account.
    const vB = await post(admin, 'account_vehicles', { acc_id: atB.acc_id, car_reg_no: 'VB' });
    const vA = await post(admin, 'account_vehicles', { acc_id: atA.acc_id, car_reg_no: 'VA' });
    const vehicles = (await s.api('GET', '/api/account_vehicles?size=100', { token: userA })).body.dataset.content.map((r: any) => r.id);
    expect(vehicles).toContain(vA.body.data.id);
    expect(vehicles).not.toContain(vB.body.data.id);
    expect((await post(userA, 'account_vehicles', { acc_id: atB.acc_id, car_reg_no: 'X' })).body.fields).toEqual({ acc_id: 'not_permitted' });
  });

  it('lets only EDIT_ACCOUNT_VEHICLE holders edit or delete a vehicle', async () => {
    const a = await account({});
    const v = (await post(admin, 'account_vehicles', { acc_id: a.acc_id, car_reg_no: 'GATE1', cp: cpA })).body.data;
    expect(v.cp_no).toBe('ACC-A1');
    const without = await userWith(s, 'veh-without', VEH);
    expect((await post(without, 'account_vehicles', { acc_id: a.acc_id, car_reg_no: 'GATE2' })).status).toBe(200);
    expect((await s.api('PUT', `/api/account_vehicles/${v.id}`, { token: without, body: { car_reg_no: 'X' } })).status).toBe(403);
    expect((await s.api('DELETE', `/api/account_vehicles/${v.id}`, { token: without })).status).toBe(403);
    const withIt = await userWith(s, 'veh-with', [...VEH, P.ACCOUNT_VEHICLE_ROW_ACTIONS]);
    expect((await s.api('PUT', `/api/account_vehicles/${v.id}`, { token: withIt, body: { car_reg_no: 'X' } })).body.data.car_reg_no).toBe('X');
    expect((await s.api('DELETE', `/api/account_vehicles/${v.id}`, { token: withIt })).status).toBe(200);
  });

  it("computes a vehicle's monthly and daily charging time and energy from its account's sessions", async () => {
    const a = await account({});
    const other = await account({});
    const v = (await post(admin, 'account_vehicles', { acc_id: a.acc_id, car_reg_no: 'FIG1', rfid_cards: 'FIG-CARD' })).body.data;
    const session = (accountId: number, idTag: string, start: string, secs: number, wh: number) =>
      s.db.query(
        `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, connector_id, id_tag, account_id, session_start_time, session_end_time,
                                  start_meter, end_meter, total_pw_consume, total_charge_time)
         VALUES (1, $1, 'ACC-A1', 1, $2, $3, ${start}, ${start} + make_interval(secs => $4::int), 0, $5, $5, $4)`,
        [cpA, idTag, accountId, secs, wh],
      );
    // Today (in the display time zone, whatever the hour), earlier this month or today, last month, another card, another account.
    const today = `(date_trunc('day', now() AT TIME ZONE 'Asia/Hong_Kong') AT TIME ZONE 'Asia/Hong_Kong') + interval '1 second'`;
    const monthStart = `(date_trunc('month', now() AT TIME ZONE 'Asia/Hong_Kong') AT TIME ZONE 'Asia/Hong_Kong') + interval '1 second'`;
    await session(a.acc_id, 'fig-card', today, 600, 2500);
    await session(a.acc_id, 'FIG-CARD', monthStart, 1200, 4000);
    await session(a.acc_id, 'FIG-CARD', `${monthStart} - interval '2 days'`, 900, 9999);
    await session(a.acc_id, 'OTHER', today, 300, 7777);
    await session(other.acc_id, 'FIG-CARD', today, 300, 8888);
    const got = (await s.api('GET', `/api/account_vehicles/${v.id}`, { token: admin })).body;
    const sameDay = (await s.db.query(`SELECT (${monthStart})::date = (${today})::date AS same`))[0].same;
    expect(got).toMatchObject({
      monthly_charging_time: 1800,
      monthly_charged_energy: 6500,
      daily_charging_time: sameDay ? 1800 : 600,
      daily_charged_energy: sameDay ? 6500 : 2500,
    });
    // Read-only: never typed in.
    const typed = await s.api('PUT', `/api/account_vehicles/${v.id}`, { token: admin, body: { monthly_charged_energy: 1 } });
    expect(typed.status).toBe(400);
    const listed = (await s.api('GET', `/api/account_vehicles?car_reg_no=FIG1`, { token: admin })).body.dataset.content[0];
    expect(listed.monthly_charged_energy).toBe(6500);
    const excel = await s.api('GET', `/api/account_vehicles/export/excel?headers=Car&headers=kWh&keys=car_reg_no&keys=daily_charged_energy`, { token: admin });
    expect(excel.status).toBe(200);
    // Not sortable: each row's figure is a query of its own.
    expect((await s.api('GET', `/api/account_vehicles?sort_by=monthly_charged_energy`, { token: admin })).status).toBe(400);
  });

  it('keeps service plans: names, end date not before the start, totals in dollars', async () => {
    const a = await account({});
    const plan = await post(admin, 'service_plans', { name: 'Monthly' });
    expect(plan.status).toBe(200);
    const base = { acc_id: a.acc_id, plan_id: plan.body.data.plan_id, cp_id: cpA };
    const bad = await post(admin, 'account_service_plans', { ...base, start_date: '2026-03-01', end_date: '2026-02-28' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ end_date: 'end_before_start' });
    const ok = await post(admin, 'account_service_plans', { ...base, start_date: '2026-03-01', end_date: '2026-03-31', plan_total: 99.9 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ start_date: '2026-03-01', end_date: '2026-03-31', plan_total: 99.9 });
    expect((await s.db.query(`SELECT plan_total FROM account_service_plans WHERE asp_id = $1`, [ok.body.data.asp_id]))[0].plan_total).toBe(9990);
    const moved = await s.api('PUT', `/api/account_service_plans/${ok.body.data.asp_id}`, { token: admin, body: { start_date: '2026-04-01' } });
    expect(moved.body.fields).toEqual({ end_date: 'end_before_start' });
    expect((await s.api('GET', `/api/service_plans/checkDelete/${plan.body.data.plan_id}`, { token: admin })).body).toEqual({ msgCode: 'service_plan_in_use' });
  });
});
