import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { addCharger, eventually } from '../testing/ocpp-support.ts';
import { cutoffFor, RotationJob } from './rotation.ts';
import { localHour } from './index.ts';

const NOW = new Date('2026-06-15T12:00:00Z');
const monthsAgo = (m: number, days = 0) => new Date(cutoffFor(NOW, m).getTime() - days * 86_400_000);

describe('data rotation', () => {
  let s: TestServer;
  let cpId: number;
  beforeAll(async () => {
    s = await startTestServer();
    cpId = await addCharger(s.db, 'ROT-1');
  });
  afterAll(() => s.close());

  const setItem = (item: string, period: number, enabled: 0 | 1) =>
    s.db.query(`UPDATE data_rotation_setup SET period_month = $2, is_enabled = $3 WHERE item = $1`, [item, period, enabled]);
  const requests = (times: Date[]) =>
    s.db.query(`INSERT INTO cp_requests (request_type, cp_id, cp_no, cre_dttm) SELECT 1, $1, 'ROT-1', unnest($2::timestamptz[])`, [cpId, times]);
  const meterValues = (times: Date[], sessionId: number | null = null) =>
    s.db.query(`INSERT INTO cp_meter_values (session_id, cp_id, connector_id, ts, cre_dttm) SELECT $1, $2, 1, t, t FROM unnest($3::timestamptz[]) t`, [sessionId, cpId, times]);
  const session = async (tran: number, start: Date, end: Date | null) => {
    const [row] = await s.db.query(
      `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, connector_id, id_tag, session_start_time, session_end_time, start_meter)
       VALUES ($1, $2, 'ROT-1', 1, 'TAG', $3, $4, 0) RETURNING session_id`,
      [tran, cpId, start, end],
    );
    return row.session_id as number;
  };
  const n = async (table: string) => (await s.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  beforeEach(async () => {
    for (const t of ['cp_requests', 'cp_meter_values', 'cp_sessions']) await s.db.query(`DELETE FROM ${t}`);
    for (const item of ['cp_request', 'cp_session', 'cp_meter_value', 'transaction']) await setItem(item, 12, 0);
    await s.db.query(`UPDATE data_rotation_setup SET last_run_dttm = NULL, last_deleted = NULL`);
  });

  it('deletes only charger messages older than the period, in batches, and records the run', async () => {
    // In arrival order as chargers write them: 23 rows 13 months back and older, one an hour before the
    // cutoff (old), one a day after it and 7 newer ones (kept).
    await requests(Array.from({ length: 23 }, (_, i) => monthsAgo(13, 23 - i)));
    await requests([monthsAgo(12, 1 / 24), monthsAgo(12, -1)]);
    await requests(Array.from({ length: 7 }, (_, i) => monthsAgo(11, 7 - i)));
    await meterValues([monthsAgo(24), monthsAgo(24)]);
    await setItem('cp_request', 12, 1);
    const job = new RotationJob(s.db, { batchSize: 5, pauseMs: 0, now: () => NOW });
    const [report] = (await job.start())!;
    expect(report).toMatchObject({ item: 'cp_request', deleted: 24 });
    expect(report.statements).toBeGreaterThanOrEqual(5);
    expect(await n('cp_requests')).toBe(8);
    const [{ oldest }] = await s.db.query(`SELECT min(cre_dttm) AS oldest FROM cp_requests`);
    expect(new Date(oldest).getTime()).toBeGreaterThanOrEqual(cutoffFor(NOW, 12).getTime());
    // Disabled items are untouched: their data stays and their row records no run.
    expect(await n('cp_meter_values')).toBe(2);
    const rows = await s.db.query(`SELECT item, last_run_dttm, last_deleted FROM data_rotation_setup ORDER BY item`);
    expect(rows.map((r) => [r.item, r.last_deleted, r.last_run_dttm && new Date(r.last_run_dttm).toISOString()])).toEqual([
      ['cp_meter_value', null, null],
      ['cp_request', 24, NOW.toISOString()],
      ['cp_session', null, null],
      ['transaction', null, null],
    ]);
  });

  it('deletes finished sessions with their readings and unfinished transactions by their own periods', async () => {
    const oldOpen = await session(3, monthsAgo(40, 1), null);
    const oldDone = await session(1, monthsAgo(40), monthsAgo(40));
    const newDone = await session(2, monthsAgo(30), monthsAgo(30));
    const newOpen = await session(4, monthsAgo(1), null);
    await meterValues([monthsAgo(40), monthsAgo(40), monthsAgo(40)], oldDone);
    await meterValues([monthsAgo(30)], newDone);
    await meterValues([monthsAgo(40), monthsAgo(40)], oldOpen);
    await meterValues([monthsAgo(1)], newOpen);
    await setItem('cp_session', 36, 1);
    await setItem('transaction', 36, 1);
    const reports = (await new RotationJob(s.db, { batchSize: 10, pauseMs: 0, now: () => NOW }).start())!;
    expect(reports.map((r) => [r.item, r.deleted])).toEqual([['cp_session', 4], ['transaction', 3]]);
    expect((await s.db.query(`SELECT session_id FROM cp_sessions ORDER BY session_id`)).map((r) => r.session_id)).toEqual([newDone, newOpen]);
    expect((await s.db.query(`SELECT DISTINCT session_id FROM cp_meter_values ORDER BY session_id`)).map((r) => r.session_id)).toEqual([newDone, newOpen]);
  });

  it('trims meter readings by their own period', async () => {
    await meterValues([monthsAgo(13), monthsAgo(13), monthsAgo(2)]);
    await setItem('cp_meter_value', 12, 1);
    const [report] = (await new RotationJob(s.db, { batchSize: 1, pauseMs: 0, now: () => NOW }).start())!;
    expect([report.deleted, await n('cp_meter_values')]).toEqual([2, 1]);
  });

  it('never runs twice at once', async () => {
    await requests(Array.from({ length: 20 }, (_, i) => monthsAgo(13, 20 - i)));
    await setItem('cp_request', 12, 1);
    const job = new RotationJob(s.db, { batchSize: 2, pauseMs: 5, now: () => NOW });
    const first = job.start();
    expect(first).toBeDefined();
    expect(job.start()).toBeUndefined();
    expect((await first!)[0].deleted).toBe(20);
    expect(job.running).toBe(false);
  });

  it('runs now from the API for holders of EDIT_DATA_ROTATION_SETUP, audited', async () => {
    await requests([new Date(Date.now() - 400 * 86_400_000)]);
    await setItem('cp_request', 12, 1);
    const reader = await userWith(s, 'rot-reader', ['READ_DATA_ROTATION_SETUP']);
    expect((await s.api('POST', '/api/data_rotation_setup/run', { token: reader })).status).toBe(403);
    const token = await userWith(s, 'rot-admin', ['READ_DATA_ROTATION_SETUP', 'EDIT_DATA_ROTATION_SETUP']);
    expect((await s.api('POST', '/api/data_rotation_setup/run', { token })).body).toEqual({ status: 'success' });
    const done = await eventually(async () => {
      const res = await s.api('GET', '/api/data_rotation_setup/run', { token });
      return !res.body.running && res.body.lastReport ? res.body : undefined;
    }, 30_000);
    expect(done.lastReport[0]).toMatchObject({ item: 'cp_request', deleted: 1 });
    const [log] = await s.db.query(`SELECT action, target, cre_user FROM portal_action_log WHERE target = 'data_rotation_setup' ORDER BY id DESC LIMIT 1`);
    expect(log).toEqual({ action: 'COMMAND', target: 'data_rotation_setup', cre_user: 'rot-admin' });
  });

  it('edits a period through the engine: 1 to 120 months, no create or delete', async () => {
    const token = await userWith(s, 'rot-editor', ['READ_DATA_ROTATION_SETUP', 'EDIT_DATA_ROTATION_SETUP', 'CREATE_DATA_ROTATION_SETUP', P.DELETE]);
    const list = await s.api('GET', '/api/data_rotation_setup', { token });
    expect(list.body.dataset.content.map((r: any) => r.item)).toEqual(['cp_request', 'cp_session', 'cp_meter_value', 'transaction']);
    const id = list.body.dataset.content[0].id;
    expect((await s.api('PUT', `/api/data_rotation_setup/${id}`, { token, body: { period_month: 121, is_enabled: 1 } })).body.fields).toEqual({ period_month: 'max' });
    expect((await s.api('PUT', `/api/data_rotation_setup/${id}`, { token, body: { period_month: 0, is_enabled: 1 } })).status).toBe(400);
    expect((await s.api('PUT', `/api/data_rotation_setup/${id}`, { token, body: { period_month: 6, is_enabled: 1 } })).status).toBe(200);
    expect((await s.api('POST', '/api/data_rotation_setup', { token, body: { period_month: 6, is_enabled: 1 } })).status).toBe(405);
    expect((await s.api('DELETE', `/api/data_rotation_setup/${id}`, { token })).status).toBe(405);
    const options = await s.api('GET', '/api/options?opts=data_rotation_item', { token, headers: { 'accept-language': 'zh-TW' } });
    expect(options.status).toBe(200);
  });

  it('finds the nightly hour in APP_TIMEZONE', () => {
    expect(localHour(new Date('2026-06-14T19:30:00Z'), 'Asia/Hong_Kong')).toEqual(['2026-06-15', 3]);
    expect(localHour(new Date('2026-06-15T03:10:00Z'), 'UTC')).toEqual(['2026-06-15', 3]);
  });
});
