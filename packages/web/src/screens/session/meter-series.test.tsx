import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { getResource } from '@ev/core';
import { renderScreen as render } from '../../testing/render.tsx';
import { chartSeries, hasMeterValues, meterPoints, sessionMeterQuery, tableCells, type SessionRequestRow } from './meter-series.ts';
import type { Permissions } from '../../app/session.tsx';
import { popView } from '../../resources/overrides/index.ts';
import SessionPopView from './SessionPopView.tsx';

const rows: SessionRequestRow[] = [
  { req_id: 10, request_type: 4, cre_dttm: '2026-05-01 10:00:00', energy: 1_000_000, voltage: null, ampere: null },
  { req_id: 11, request_type: 11, cre_dttm: '2026-05-01 10:15:00', energy: '1002345', voltage: 229.5, ampere: '15.9' },
  { req_id: 12, request_type: 11, cre_dttm: '2026-05-01 10:30:00', energy: null, voltage: null, ampere: null },
  { req_id: 13, request_type: 11, cre_dttm: '2026-05-01 10:45:00', energy: null, voltage: 230, ampere: 16 },
  { req_id: 14, request_type: 5, cre_dttm: '2026-05-01 11:00:00', energy: 1_004_000.4, voltage: null, ampere: null },
];
const text = (html: string) => html.replace(/<[^>]+>/g, '|');

describe('session meter readings', () => {
  it('asks for the start, meter values and stop of one session, 50000 rows oldest first', () => {
    expect(sessionMeterQuery(7)).toEqual({ session_id: 7, type: 'StartTransaction,MeterValues,StopTransaction,106,104', size: 50_000, order: 'asc', sort_by: 'req_id' });
  });

  it('read a 2.0.1 station\'s TransactionEvents as start, meter values and stop by their eventType', () => {
    const event = (req_id: number, eventType: string, energy: number) =>
      ({ req_id, request_type: 104, cre_dttm: '2026-05-01 10:00:00', energy, voltage: null, ampere: null, request_data: { eventType } });
    const points = meterPoints([event(1, 'Started', 1000), event(2, 'Updated', 1500), { ...event(3, '', 1600), request_type: 106 }, event(4, 'Ended', 2000)]);
    expect(points.map((p) => p.type)).toEqual(['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction']);
    expect(hasMeterValues(meterPoints([event(1, 'Started', 1000), event(4, 'Ended', 2000)]))).toBe(false);
  });

  it('turn rows into readings in kWh, leaving out rows without any value', () => {
    const points = meterPoints(rows);
    expect(points.map((p) => p.key)).toEqual([10, 11, 13, 14]);
    expect(points.map((p) => p.type)).toEqual(['StartTransaction', 'MeterValues', 'MeterValues', 'StopTransaction']);
    expect(points[1]).toMatchObject({ kwh: 1002.345, v: 229.5, a: 15.9, time: dayjs('2026-05-01 10:15:00').valueOf() });
    expect(points[2].kwh).toBeNull();
    expect(hasMeterValues(points)).toBe(true);
    expect(hasMeterValues(meterPoints([rows[0], rows[4]]))).toBe(false);
    expect(meterPoints([])).toEqual([]);
  });

  it('make one chart series per quantity, without gaps as points', () => {
    const s = chartSeries(meterPoints(rows));
    const at = (time: string) => dayjs(`2026-05-01 ${time}`).valueOf();
    expect(s.kwh).toEqual([[at('10:00:00'), 1000], [at('10:15:00'), 1002.345], [at('11:00:00'), 1004.0004]]);
    expect(s.v).toEqual([[at('10:15:00'), 229.5], [at('10:45:00'), 230]]);
    expect(s.a).toEqual([[at('10:15:00'), 15.9], [at('10:45:00'), 16]]);
    expect(chartSeries([{ key: 1, type: null, time: null, kwh: 1, v: null, a: null }]).kwh).toEqual([]);
  });

  it('show energy in the table in kWh with 3 decimals', () => {
    const cells = meterPoints(rows).map(tableCells);
    expect(cells.map((c) => c.kwh)).toEqual(['1000.000', '1002.345', '', '1004.000']);
    expect(cells[1]).toEqual({ time: '2026-05-01 10:15:00', kwh: '1002.345', v: '229.5', a: '15.9' });
  });
});

describe('session pop-view', () => {
  const record = {
    session_id: 5, cp_no: 'SIM-9', connector_id: 1, connector_name: 'Left', id_tag: 'TAG-1',
    session_start_time: '2026-05-01 10:00:00', session_end_time: '2026-05-01 11:00:00',
    total_pw_consume: 4000, running_pw_consume: 4000, total_charge_time: 3600, stop_reason: 'Local',
  };
  it('shows the summary in both languages, the readings to users who may read charger requests', async () => {
    const def = getResource('cp_sessions_all')!;
    const en = text(await render('en', <SessionPopView def={def} record={record} />));
    for (const cell of ['SIM-9', '1 · Left', 'TAG-1', '2026-05-01 10:00:00', '4.000', '01:00:00', 'Meter readings', 'Total Energy Consumed', 'Stop Reason']) {
      expect(en).toContain(`|${cell}|`);
    }
    const zh = text(await render('zh-TW', <SessionPopView def={def} record={record} />));
    for (const cell of ['電錶讀數', '總用電量', '停止原因', '識別卡號']) expect(zh).toContain(`|${cell}|`);
    const noRequests = text(await render('en', <SessionPopView def={def} record={record} />, ['READ_CP_SESSIONS_ALL']));
    expect(noRequests).toContain('Meter readings are shown to users who may read charger requests.');
  });

  it('shows a running session with its energy so far and a duration up to now', async () => {
    const def = getResource('cp_sessions')!;
    const start = dayjs().subtract(90, 'minute').format('YYYY-MM-DD HH:mm:ss');
    const running = { ...record, session_start_time: start, session_end_time: null, total_pw_consume: null, running_pw_consume: 1500, total_charge_time: null, stop_reason: null };
    const en = text(await render('en', <SessionPopView def={def} record={running} />));
    expect(en).toContain('|Energy Consumed So Far|');
    expect(en).toContain('|1.500|');
    expect(en).toMatch(/\|01:(29|30):\d\d\|/);
  });
});

describe('pop-view overrides', () => {
  it('give the three session lists the session pop-view, other resources the generic details', () => {
    const perms = {} as Permissions;
    for (const key of ['cp_sessions', 'cp_sessions_all', 'kmb_cp_sessions']) expect(popView(getResource(key)!, { session_id: 1 }, perms)).toBeTruthy();
    for (const key of ['users', 'cps', 'cp_requests']) expect(popView(getResource(key)!, {}, perms)).toBeUndefined();
  });
});
