import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { DEFAULT_REQUEST_TYPES } from '@ev/core';

/** The OCPP log and session lists: the cp_no filter, and the fleet view's sessions. */
describe('charging lists over HTTP', () => {
  let s: TestServer;
  let token: string;
  let locId: number;
  const cpIds: Record<string, number> = {};
  const sessionIds: Record<string, number> = {};
  const get = (path: string) => s.api('GET', path, { token });
  const ids = (res: { body: any }, id: string) => res.body.dataset.content.map((r: any) => r[id]);

  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
    locId = await addSite(s.db);
    for (const cpNo of ['SIM001', 'SIM002', 'OTHER_1']) cpIds[cpNo] = await addCharger(s.db, cpNo, { locId });
    // Messages of each charger, plus one with a literal % in no charger's number.
    for (const [cpNo, cpId] of Object.entries(cpIds)) {
      await s.db.query(
        `INSERT INTO cp_requests (request_type, cp_id, cp_no, request_data) SELECT 6, $1, $2, '{}'::jsonb FROM generate_series(1, 3)`,
        [cpId, cpNo],
      );
    }
    // SIM001: one driver's session and one fleet (account) session; SIM002: one fleet session.
    const session = async (name: string, cpNo: string, accountId: number | null, minutesAgo: number) => {
      const [row] = await s.db.query(
        `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, account_id, session_start_time, start_meter)
         VALUES ($1, $2, $3, $4, 1, $5, $6, now() - make_interval(mins => $7), 0) RETURNING session_id`,
        [Object.keys(sessionIds).length + 1, cpIds[cpNo], cpNo, locId, `TAG-${name}`, accountId, minutesAgo],
      );
      sessionIds[name] = row.session_id;
    };
    await session('driver', 'SIM001', null, 30);
    await session('fleet1', 'SIM001', 7, 20);
    await session('fleet2', 'SIM002', 8, 10);
  });
  afterAll(() => s.close());

  it('filters the message log by cp_no: contains, case-insensitive, like cp_id', async () => {
    const exact = await get('/api/cp_requests?cp_no=SIM001&request_type=&size=50');
    expect(exact.status).toBe(200);
    expect(exact.body.dataset.totalElements).toBe(3);
    expect(new Set(exact.body.dataset.content.map((r: any) => r.cp_id))).toEqual(new Set([cpIds.SIM001]));
    const byId = await get(`/api/cp_requests?cp_id=${cpIds.SIM001}&request_type=&size=50`);
    expect(ids(exact, 'req_id')).toEqual(ids(byId, 'req_id'));

    const part = await get('/api/cp_requests?cp_no=sim0&request_type=&size=50');
    expect(part.body.dataset.totalElements).toBe(6);
    expect(new Set(part.body.dataset.content.map((r: any) => r.cp_no))).toEqual(new Set(['SIM001', 'SIM002']));
    // _ and % are characters, not wildcards.
    expect((await get('/api/cp_requests?cp_no=R_1&request_type=')).body.dataset.totalElements).toBe(3);
    expect((await get('/api/cp_requests?cp_no=S_M&request_type=')).body.dataset.totalElements).toBe(0);
    expect((await get('/api/cp_requests?cp_no=%25&request_type=')).body.dataset.totalElements).toBe(0);
    // With the other filters, the default request types included (6 is Heartbeat, among them or not).
    const both = await get(`/api/cp_requests?cp_no=sim&cp_id=${cpIds.SIM002}&request_type=6`);
    expect(new Set(both.body.dataset.content.map((r: any) => r.cp_no))).toEqual(new Set(['SIM002']));
    expect((await get('/api/cp_requests?cp_no=SIM001&cp_no=SIM002')).status).toBe(400);
  });

  it('reads the default request-type filter through the type index, which leaves out Heartbeat and MeterValues', async () => {
    // The index is partial (request_type NOT IN (6, 11, 105, 106)): PostgreSQL uses it only where it can prove
    // the filter fits. Seq scans off, so the small test table cannot hide which index it would take.
    const plan = (types: number[]) => s.db.tx(async (sql) => {
      await sql.query('SET LOCAL enable_seqscan = off');
      const rows = await sql.query(`EXPLAIN SELECT count(*) FROM cp_requests t WHERE t.request_type = ANY($1::int[])`, [types]);
      return rows.map((r: any) => r['QUERY PLAN']).join('\n');
    });
    expect(await plan(DEFAULT_REQUEST_TYPES)).toContain('cp_requests_type_idx');
    expect(await plan([1])).toContain('cp_requests_type_idx');
    expect(await plan([11])).not.toContain('cp_requests_type_idx');
    expect(await plan([1, 6])).not.toContain('cp_requests_type_idx');
    // Heartbeats (the rows above) are still found through the list's filter.
    expect((await get(`/api/cp_requests?cp_id=${cpIds.SIM001}&request_type=6`)).body.dataset.totalElements).toBe(3);
  });

  it('filters the message log by time through the BRIN index, 512 pages a range', async () => {
    const cpId = await addCharger(s.db, 'TIMED_1', { locId });
    await s.db.query(
      `INSERT INTO cp_requests (request_type, cp_id, cp_no, request_data, cre_dttm)
       SELECT 1, $1, 'TIMED_1', '{}'::jsonb, now() - make_interval(days => d) FROM unnest(ARRAY[0, 2, 2, 5]) d`,
      [cpId],
    );
    const day = 86400;
    const now = Math.floor(Date.now() / 1000);
    const between = (from: number, to: number) => get(`/api/cp_requests?cp_id=${cpId}&request_type=&cre_dttm=${from}&cre_dttm=${to}`);
    expect((await between(now - 3 * day, now - day)).body.dataset.totalElements).toBe(2);
    expect((await between(now - 6 * day, now - 4 * day)).body.dataset.totalElements).toBe(1);
    expect((await between(now - 9 * day, now - 7 * day)).body.dataset.totalElements).toBe(0);
    // Sequential and plain index scans off: the time condition alone must be able to use the BRIN index.
    const plan = await s.db.tx(async (sql) => {
      await sql.query('SET LOCAL enable_seqscan = off');
      await sql.query('SET LOCAL enable_indexscan = off');
      const rows = await sql.query(`EXPLAIN SELECT count(*) FROM cp_requests t WHERE t.cre_dttm >= $1 AND t.cre_dttm < $2`, [
        new Date((now - 3 * day) * 1000), new Date((now - day) * 1000)]);
      return rows.map((r: any) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('cp_requests_cre_dttm_idx');
    // 128 pages a range overflowed autovacuum's queue of summary requests above ~9,000 MeterValues/s (schema/ocpp.ts).
    const [index] = await s.db.query(`SELECT array_to_string(reloptions, ',') AS options FROM pg_class WHERE relname = 'cp_requests_cre_dttm_idx'`);
    expect(index.options.split(',')).toEqual(expect.arrayContaining(['autosummarize=true', 'pages_per_range=512']));
  });

  it('matches a message by the number the charger had then and has now', async () => {
    // A charger renamed after its messages: the old rows keep their number and are no longer "SIM002".
    await s.db.query(`UPDATE cps SET cp_no = 'SIM902' WHERE cp_id = $1`, [cpIds.SIM002]);
    try {
      expect((await get('/api/cp_requests?cp_no=SIM002&request_type=')).body.dataset.totalElements).toBe(0);
      expect((await get('/api/cp_requests?cp_no=SIM902&request_type=')).body.dataset.totalElements).toBe(0);
      expect((await get('/api/cp_requests?cp_no=SIM&request_type=')).body.dataset.totalElements).toBe(6);
    } finally {
      await s.db.query(`UPDATE cps SET cp_no = 'SIM002' WHERE cp_id = $1`, [cpIds.SIM002]);
    }
  });

  it('filters the session lists by cp_no and cp_id', async () => {
    for (const key of ['cp_sessions', 'cp_sessions_all']) {
      const res = await get(`/api/${key}?cp_no=sim001`);
      expect(res.status, key).toBe(200);
      expect(new Set(ids(res, 'session_id')), key).toEqual(new Set([sessionIds.driver, sessionIds.fleet1]));
      const byId = await get(`/api/${key}?cp_id=${cpIds.SIM001}`);
      expect(new Set(ids(byId, 'session_id')), key).toEqual(new Set(ids(res, 'session_id')));
      expect((await get(`/api/${key}?cp_no=OTHER`)).body.dataset.totalElements, key).toBe(0);
    }
    const fleet = await get('/api/kmb_cp_sessions?cp_no=SIM001');
    expect(ids(fleet, 'session_id')).toEqual([sessionIds.fleet1]);
  });

  it('kmb_cp_sessions lists only the sessions of fleet accounts', async () => {
    const all = await get('/api/cp_sessions');
    expect(ids(all, 'session_id')).toEqual([sessionIds.fleet2, sessionIds.fleet1, sessionIds.driver]);
    const fleet = await get('/api/kmb_cp_sessions');
    expect(fleet.status).toBe(200);
    expect(ids(fleet, 'session_id')).toEqual([sessionIds.fleet2, sessionIds.fleet1]); // newest start first
    expect(fleet.body.dataset.totalElements).toBe(2);
    expect(ids(await get('/api/kmb_cp_sessions?account_id=8'), 'session_id')).toEqual([sessionIds.fleet2]);
    expect((await get(`/api/kmb_cp_sessions/${sessionIds.fleet1}`)).body.account_id).toBe(7);
    // A driver's session is not one of the fleet view's records (403, as any record a hook's
    // visibleTo keeps from the user: engine.ts throwMissing only looks whether the row exists).
    expect((await get(`/api/kmb_cp_sessions/${sessionIds.driver}`)).status).toBe(403);
    expect((await get(`/api/cp_sessions/${sessionIds.driver}`)).status).toBe(200);
  });
});
