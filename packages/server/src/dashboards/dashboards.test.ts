import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickInfoAnswer, V1QuickInfoAnswer } from '@ev/core';
import { hashPassword } from '../crypto/passwords.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';

const TZ = 'Asia/Hong_Kong';
/** SQL for midnight `days` days ago in TZ plus `plus` (an interval), as timestamptz. */
const at = (days: number, plus = '1 hour') =>
  `((date_trunc('day', now() AT TIME ZONE '${TZ}') - interval '${days} days' + interval '${plus}') AT TIME ZONE '${TZ}')`;

/**
 * GET /api/v2/quickInfo and GET /api/quick_info (spec part 1 §2, §4, §6, §7): counts with Offline and N/A,
 * the running session's live values, usage summaries only with READ_DASHBOARD_SUMMARY, site scoping.
 */
describe('live dashboards', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  const cp: Record<string, number> = {};
  let running: number;

  async function userWith(username: string, privileges: string[], sites: number[] | 'all'): Promise<string> {
    const [role] = await s.db.query(`INSERT INTO roles (role, name_chi, level) VALUES ($1, $1, 5) RETURNING id`, [`role-${username}`]);
    await s.db.query(`INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, id FROM privileges WHERE name = ANY($2::text[])`, [role.id, privileges]);
    const [user] = await s.db.query(
      `INSERT INTO users (name, role_id, username, password_hash, cp_loc_flag) VALUES ($1, $2, $1, $3, $4) RETURNING id`,
      [username, role.id, await hashPassword(`${username}-password`), sites === 'all' ? 1 : 0],
    );
    for (const site of sites === 'all' ? [] : sites) await s.db.query(`INSERT INTO user_sites (user_id, loc_id) VALUES ($1, $2)`, [user.id, site]);
    return s.login(username, `${username}-password`);
  }

  const connector = (cpId: number, connectorId: number, status: string | null) =>
    s.db.query(`INSERT INTO cp_connectors (cp_id, connector_id, status, last_status_dttm) VALUES ($1, $2, $3, '2026-01-02T03:04:05Z')`, [
      cpId, connectorId, status,
    ]);

  /** A finished session: `seconds` long, `wh` consumed, started at the SQL time `start`. */
  async function finished(cpId: number, locId: number, start: string, seconds: number, wh: number) {
    await s.db.query(
      `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, session_start_time, session_end_time,
                                start_meter, end_meter, total_pw_consume, total_charge_time)
       SELECT 1, $1, 'x', $2, 1, 'T' || random(), ${start}, ${start} + make_interval(secs => $3), 0, $4, $4, $3`,
      [cpId, locId, seconds, wh],
    );
  }

  beforeAll(async () => {
    s = await startTestServer({ timeZone: TZ });
    admin = await s.login();
    siteA = await addSite(s.db);
    siteB = await addSite(s.db);
    for (const [name, loc] of [['A1', siteA], ['A2', siteA], ['A3', siteA], ['B1', siteB]] as const) cp[name] = await addCharger(s.db, name, { locId: loc });
    await s.db.query(`UPDATE cps SET online_flag = 1 WHERE cp_no IN ('A1', 'A3', 'B1')`);
    await connector(cp.A1, 0, 'Available'); // the charger itself: never a connector on a dashboard
    await connector(cp.A1, 1, 'Charging');
    await connector(cp.A1, 2, 'Available');
    await connector(cp.A2, 1, 'Available'); // its charger is offline
    await connector(cp.A3, 1, null); // never reported
    await connector(cp.A3, 2, 'SuspendedEV');
    await connector(cp.B1, 1, 'Faulted');
    await addCharger(s.db, 'A-DISABLED', { locId: siteA, enable: 0 }).then((id) => connector(id, 1, 'Available'));

    // The running session on A1/1, started 30 minutes ago (or at midnight if that was later), with readings.
    const [row] = await s.db.query(
      `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, session_start_time, start_meter,
                                running_pw_consume, voltage, ampere, planned_end_dttm)
       VALUES (7, $1, 'A1', $2, 1, 'TAG-RUN', greatest(now() - interval '30 minutes', ${at(0, '0 seconds')}), 1000, 2500, 1, 1,
               '2026-05-06T07:00:00Z')
       RETURNING session_id`,
      [cp.A1, siteA],
    );
    running = row.session_id;
    await s.db.query(
      `INSERT INTO cp_meter_values (session_id, cp_id, connector_id, ts, energy, voltage, ampere, soc)
       VALUES ($1, $2, 1, now() - interval '2 minutes', 3000, 229, 15, 40), ($1, $2, 1, now() - interval '1 minute', 3500, 231.5, 16, 42)`,
      [running, cp.A1],
    );
    await finished(cp.A1, siteA, at(0, '0 seconds'), 3600, 10_000); // today
    await finished(cp.A2, siteA, at(1), 1800, 4_000); // yesterday
    await finished(cp.A2, siteA, at(3), 600, 1_000); // 3 days ago
    await finished(cp.A2, siteA, at(7), 999, 99_000); // 7 days ago: outside the last 7 days
    await finished(cp.B1, siteB, at(0, '0 seconds'), 60, 500); // today, the other site
  });
  afterAll(async () => {
    await s?.close();
  });

  const v2 = (query = '', token = admin) => s.api('GET', `/api/v2/quickInfo${query}`, { token });
  const v1 = (query = '', token = admin) => s.api('GET', `/api/quick_info${query}`, { token });

  it('v2: every connector of the enabled chargers with its shown status, counts with Offline and N/A as unavailable', async () => {
    const res = await v2();
    expect(res.status).toBe(200);
    const body = res.body as QuickInfoAnswer;
    expect(body.cpLocQuickInfoDTOS.map((l) => l.locId).sort()).toEqual([siteA, siteB].sort());
    expect(body.cpQuickInfoDTOS.map((c) => [c.cpNo, c.connectorId, c.connectorStatus])).toEqual([
      ['A1', 1, 'Charging'], ['A1', 2, 'Available'], ['A2', 1, 'Offline'], ['A3', 1, 'N/A'], ['A3', 2, 'SuspendedEV'], ['B1', 1, 'Faulted'],
    ]);
    expect(body.cpUsage).toEqual({ noOfAvailableConnectors: 1, noOfChargingConnectors: 2, noOfUnAvailableConnectors: 3, noOfQueueingConnectors: 0 });

    const live = body.cpQuickInfoDTOS[0];
    expect(live).toMatchObject({
      cpId: cp.A1, locId: siteA, kwh: 2.5, voltages: 231.5, currents: 16, soc: 42, idTag: 'TAG-RUN', carRegNo: null, bay: null, bayStatus: null, queueingPos: null,
      lastStatusUpdateDate: '2026-01-02 11:04:05', tranStopDate: '2026-05-06 15:00:00',
    });
    expect(live.tranStartDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(live.duration).toBeGreaterThanOrEqual(0);
    expect(live.duration).toBeLessThanOrEqual(1800 + 5);
    const idle = body.cpQuickInfoDTOS[1];
    expect(idle).toMatchObject({ kwh: null, duration: null, tranStartDate: null, voltages: null, soc: null, idTag: null });
  });

  it('v2: summaries of today, yesterday and the last 7 days in APP_TIMEZONE, running sessions so far', async () => {
    const all = (await v2()).body as QuickInfoAnswer;
    const sum = all.cpSummaryByDayRangeQuickInfoDTO!;
    // Today: 3600 s / 10 kWh finished + the running session (2.5 kWh so far) + 60 s / 0.5 kWh at site B.
    expect(sum.todaySummary.kwh).toBe(13);
    expect(sum.todaySummary.duration).toBeGreaterThanOrEqual(3660);
    expect(sum.yesterdaySummary).toEqual({ duration: 1800, kwh: 4 });
    expect(sum.last7daysSummary.kwh).toBe(18);
    expect(sum.last7daysSummary.duration - sum.todaySummary.duration).toBe(2400);

    const one = (await v2(`?locId=${siteB}`)).body as QuickInfoAnswer;
    expect(one.cpQuickInfoDTOS.map((c) => c.cpNo)).toEqual(['B1']);
    expect(one.cpUsage).toEqual({ noOfAvailableConnectors: 0, noOfChargingConnectors: 0, noOfUnAvailableConnectors: 1, noOfQueueingConnectors: 0 });
    expect(one.cpSummaryByDayRangeQuickInfoDTO).toEqual({
      todaySummary: { duration: 60, kwh: 0.5 }, yesterdaySummary: { duration: 0, kwh: 0 }, last7daysSummary: { duration: 60, kwh: 0.5 },
    });
    // The selector still lists every site of the user.
    expect(one.cpLocQuickInfoDTOS).toHaveLength(2);
    expect((await v2('?locId=')).body.cpQuickInfoDTOS).toHaveLength(6);
  });

  it('v1: refs, cp_status, the running session, site usage, summary and per-connector usage for the tiles', async () => {
    const res = await v1(`?loc_id=${siteA}`);
    expect(res.status).toBe(200);
    const info = (res.body as V1QuickInfoAnswer).response.info;
    expect(info.refs.cp_locs.map((l) => l.loc_id).sort()).toEqual([siteA, siteB].sort());
    expect(info.refs.cps.map((c) => c.cp_no)).toEqual(['A1', 'A2', 'A3']);
    expect(info.refs.cp_connectors).toHaveLength(5);
    expect(info.cp_status.find((c) => c.cp_id === cp.A3)!.connector_status).toEqual([
      { connector_id: 1, status: 'N/A', connector_status_last_updated_dt: '2026-01-02 11:04:05', bay: null, bayStatus: null, bayLupdDttm: null, queueing_pos: null },
      { connector_id: 2, status: 'SuspendedEV', connector_status_last_updated_dt: '2026-01-02 11:04:05', bay: null, bayStatus: null, bayLupdDttm: null, queueing_pos: null },
    ]);
    expect(info.cp_status.find((c) => c.cp_id === cp.A2)!.connector_status[0].status).toBe('Offline');
    expect(info.acc_charging_status).toHaveLength(1);
    expect(info.acc_charging_status[0]).toMatchObject({
      cp_id: cp.A1, connector_id: 1, session_id: running, energy_consumed: 2500, voltage: 231.5, current: 16, soc: 42, id_tag: 'TAG-RUN',
      car_reg_no: null, tran_end: '2026-05-06 15:00:00',
    });
    expect(info.site_usage).toEqual({ available: 1, charging: 2, unavailable: 2, queueing: 0 });
    expect(info.summary!.today.energy).toBe(12_500);
    expect(info.summary!.weekly.energy).toBe(17_500);
    const a2 = info.connector_usage!.find((u) => u.cp_id === cp.A2)!;
    expect(a2).toEqual({ cp_id: cp.A2, connector_id: 1, today: { energy: 0, charging_time: 0 }, weekly: { energy: 5000, charging_time: 2400 } });
  });

  it('needs READ_V2_DASHBOARD / READ_V1_DASHBOARD; without READ_DASHBOARD_SUMMARY the summaries are null', async () => {
    expect((await v2('', '')).status).toBe(401);
    const v1Only = await userWith('v1only', ['READ_V1_DASHBOARD'], 'all');
    expect((await v2('', v1Only)).status).toBe(403);
    const v1Plain = await v1('', v1Only);
    expect(v1Plain.status).toBe(200);
    expect(v1Plain.body.response.info.summary).toBeNull();
    expect(v1Plain.body.response.info.connector_usage).toBeNull();
    expect(v1Plain.body.response.info.acc_charging_status).toHaveLength(1);

    const v2Only = await userWith('v2only', ['READ_V2_DASHBOARD'], 'all');
    expect((await v1('', v2Only)).status).toBe(403);
    const plain = await v2('', v2Only);
    expect(plain.body.cpSummaryByDayRangeQuickInfoDTO).toBeNull();
    expect(plain.body.cpQuickInfoDTOS).toHaveLength(6);
  });

  it('keeps a user restricted to sites to those sites, and refuses another site as not_permitted', async () => {
    const local = await userWith('local', ['READ_V2_DASHBOARD', 'READ_V1_DASHBOARD', 'READ_DASHBOARD_SUMMARY'], [siteB]);
    const mine = (await v2('', local)).body as QuickInfoAnswer;
    expect(mine.cpLocQuickInfoDTOS.map((l) => l.locId)).toEqual([siteB]);
    expect(mine.cpQuickInfoDTOS.map((c) => c.cpNo)).toEqual(['B1']);
    expect(mine.cpSummaryByDayRangeQuickInfoDTO!.last7daysSummary).toEqual({ duration: 60, kwh: 0.5 });
    const mineV1 = (await v1('', local)).body as V1QuickInfoAnswer;
    expect(mineV1.response.info.refs.cps.map((c) => c.cp_no)).toEqual(['B1']);
    expect(mineV1.response.info.summary!.weekly).toEqual({ energy: 500, charging_time: 60 });

    const elsewhere = await v2(`?locId=${siteA}`, local);
    expect([elsewhere.status, elsewhere.body.fields]).toEqual([400, { locId: 'not_permitted' }]);
    const elsewhereV1 = await v1(`?loc_id=${siteA}`, local);
    expect([elsewhereV1.status, elsewhereV1.body.fields]).toEqual([400, { loc_id: 'not_permitted' }]);
    // A user with no site at all sees an empty dashboard, not everyone's.
    const none = await userWith('nosite', ['READ_V2_DASHBOARD', 'READ_DASHBOARD_SUMMARY'], []);
    const empty = (await v2('', none)).body as QuickInfoAnswer;
    expect([empty.cpLocQuickInfoDTOS, empty.cpQuickInfoDTOS, empty.cpSummaryByDayRangeQuickInfoDTO!.todaySummary]).toEqual([[], [], { duration: 0, kwh: 0 }]);
  });

  // Last: it adds bays, a car and a remote start request to the fixture.
  it('shows each connector\'s bay (name, status, last change) and the running session\'s plate, on both dashboards', async () => {
    const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
    const key = (await api('POST', '/api/third_party_conf', { key_name: 'lprs', app_id: 'lprs', privilege_key: 'EXT_LICENCE_PLATE' })).body.data.api_key;
    const carIn = (bayId: string, licensePlate: string) => s.api('POST', '/api/external/v1/parking/events', {
      headers: { 'x-app-id': 'lprs', 'x-api-key': key }, body: { event: 'in', bayId, sessionId: `S-${bayId}`, licensePlate, time: '2026-11-23T02:05:06Z' },
    });
    for (const [bayId, bayName, connectorId] of [['B-1', 'Bay 1', 1], ['B-2', 'Bay 2', 2]] as const) {
      const res = await api('POST', '/api/bay', { bayId, bayName, cpId: cp.A1, connectorId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await s.db.query(`UPDATE bay SET lupd_dttm = '2026-11-23T01:00:00Z' WHERE "bayId" = 'B-2'`);
    expect((await carIn('B-1', 'BAY1234')).body.status).toBe('success');

    const card = async (connectorId: number) =>
      ((await v2(`?locId=${siteA}`)).body as QuickInfoAnswer).cpQuickInfoDTOS.find((c) => c.cpId === cp.A1 && c.connectorId === connectorId)!;
    const v1Info = async () => ((await v1(`?loc_id=${siteA}`)).body as V1QuickInfoAnswer).response.info;
    // The car in the bay of the running session is the session's car; a vacant bay's connector has no car.
    expect(await card(1)).toMatchObject({ bay: 'Bay 1', bayStatus: 'Occupied', carRegNo: 'BAY1234' });
    expect(await card(2)).toMatchObject({ bay: 'Bay 2', bayStatus: 'Vacant', carRegNo: null });
    let info = await v1Info();
    expect(info.cp_status.find((c) => c.cp_id === cp.A1)!.connector_status[1]).toMatchObject({
      connector_id: 2, bay: 'Bay 2', bayStatus: 'Vacant', bayLupdDttm: '2026-11-23 09:00:00',
    });
    expect(info.cp_status.find((c) => c.cp_id === cp.A1)!.connector_status[0]).toMatchObject({ bay: 'Bay 1', bayStatus: 'Occupied' });
    expect(info.acc_charging_status[0].car_reg_no).toBe('BAY1234');

    // A remote start request names its car: its plate wins over what the bay's camera read.
    await s.db.query(
      `INSERT INTO cp_rsr (cp_id, connector_id, status, max_charging_unit, duration, unit_in_minutes, lp, session_id)
       VALUES ($1, 1, 'Charging', 1, 30, 30, 'RSR888', $2)`, [cp.A1, running]);
    expect((await card(1)).carRegNo).toBe('RSR888');
    info = await v1Info();
    expect(info.acc_charging_status[0].car_reg_no).toBe('RSR888');
    // Connectors without a bay say so with nulls.
    expect(info.cp_status.find((c) => c.cp_id === cp.A3)!.connector_status[0]).toMatchObject({ bay: null, bayStatus: null, bayLupdDttm: null });
  });

  it('answers a bad or unknown site with 400, never 500', async () => {
    for (const q of ['?locId=abc', '?locId=-1', '?locId=1.5', '?locId=99999999999', '?locId=1&locId=2', '?loc_id=1', '?locId=999999']) {
      const res = await v2(q);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.body.fields).length, q).toBeGreaterThan(0);
    }
    expect((await v1('?loc_id=x')).body.fields).toEqual({ loc_id: 'invalid' });
    expect((await v1('?locId=1')).body.fields).toEqual({ locId: 'unknown_field' });
  });
});
