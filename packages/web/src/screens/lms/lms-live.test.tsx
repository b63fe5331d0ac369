import { describe, expect, it } from 'vitest';
import { type LmsCpStatus, type LmsInfo, type LmsLogEntry, type LmsStatusUpdate, type MeResponse } from '@ev/core';
import { renderScreen } from '../../testing/render.tsx';
import { permissionsOf } from '../../app/session.tsx';
import { visibleMenu } from '../../app/layout/menu-items.ts';
import {
  appendLog, applyStatusUpdate, buildLayout, clearLog, EMPTY_LIVE, EMPTY_LOG, filterLog, kwh, logChargers, reconnectDelay,
  refreshInterval, setPaused, zoneShares,
} from './lms-live.ts';
import { ChargerCard } from './ChargerCard.tsx';
import LmsDashboardPage from './LmsDashboardPage.tsx';
import RealtimeLogPage from './RealtimeLogPage.tsx';

const cp = (over: Partial<LmsCpStatus>): LmsCpStatus => ({
  cp_id: 1, loc_id: 10, zone_id: 100, status: 'available', cp_status: 'Available', queueing_pos: null, start_queueing_at: null,
  distributed_current: null, start_tran_at: null, select_time: null, expected_end_at: null, session_id: null,
  curr_data: { current: null, meter: null, voltage: null }, uncontrolled: false, ...over,
});
const update = (full: boolean, cps: Record<string, LmsCpStatus>, interval_ms = 3000): LmsStatusUpdate => ({
  type: 'status_update', full, cp: cps, zones: { 100: { zone_id: 100, loc_id: 10, measured_current: 20, distributing_current: 32, max_available_current: 64 } }, interval_ms,
});
const charging = cp({
  cp_id: 1, status: 'charging', cp_status: 'Charging', distributed_current: 16, start_tran_at: '2026-05-01T02:00:00.000Z', select_time: 60,
  expected_end_at: '2026-05-01T03:00:00.000Z', session_id: 7, curr_data: { current: 15.5, meter: 12345, voltage: 230 },
});
const queueing = cp({ cp_id: 2, status: 'queueing', cp_status: 'Preparing', queueing_pos: 1, start_queueing_at: '2026-05-01T02:05:00.000Z' });
const entry = (id: number, over: Partial<LmsLogEntry> = {}): LmsLogEntry => ({
  id, at: '2026-05-01T02:00:00.000Z', loc_id: 10, cp_id: 1, cp_no: 'CP-1', level: 'info', kind: 'allocation', message: `line ${id}`, ...over,
});
const text = (html: string) => html.replace(/<[^>]+>/g, '|');

describe('LMS live state', () => {
  it('refreshes at the server interval above 500 ms, else every 5 s; reconnects after 5 s doubling up to a minute', () => {
    expect(refreshInterval(3000)).toBe(3000);
    expect(refreshInterval(500)).toBe(5000);
    expect(refreshInterval(0)).toBe(5000);
    expect(refreshInterval(undefined)).toBe(5000);
    expect([0, 1, 2, 3, 4, 10].map(reconnectDelay)).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
  });

  it('replaces the picture on a full update and merges a partial one by cp_no', () => {
    const full = applyStatusUpdate(EMPTY_LIVE, update(true, { 'CP-1': charging, 'CP-2': queueing }));
    expect(Object.keys(full.cps)).toEqual(['CP-1', 'CP-2']);
    const partial = applyStatusUpdate(full, update(false, { 'CP-2': { ...queueing, queueing_pos: 2 } }));
    expect(partial.cps['CP-1']).toEqual(charging);
    expect(partial.cps['CP-2'].queueing_pos).toBe(2);
    expect(applyStatusUpdate(partial, update(true, { 'CP-3': cp({ cp_id: 3 }) })).cps).toEqual({ 'CP-3': cp({ cp_id: 3 }) });
  });

  it('clears queue data when charging and charge data otherwise (spec §4)', () => {
    const mixed = { ...charging, queueing_pos: 3, start_queueing_at: '2026-05-01T01:00:00.000Z' };
    const live = applyStatusUpdate(EMPTY_LIVE, update(true, { a: mixed, b: { ...charging, status: 'available' }, c: { ...charging, status: 'queueing', queueing_pos: 1 } }));
    expect(live.cps.a).toMatchObject({ queueing_pos: null, start_queueing_at: null, distributed_current: 16 });
    expect(live.cps.b).toMatchObject({ distributed_current: null, start_tran_at: null, select_time: null, session_id: null, curr_data: { current: null, meter: null, voltage: null } });
    // A queueing charger's waiting session stays reachable.
    expect(live.cps.c).toMatchObject({ distributed_current: null, queueing_pos: 1, session_id: 7 });
  });

  it('gives the shares of the zone maximum and energy in kWh with 3 decimals', () => {
    expect(zoneShares({ zone_id: 1, loc_id: 1, measured_current: 20, distributing_current: 32, max_available_current: 64 })).toEqual({ measured: 31.3, distributing: 50 });
    expect(zoneShares({ zone_id: 1, loc_id: 1, measured_current: 80, distributing_current: 0, max_available_current: 64 }).measured).toBe(100);
    expect(zoneShares(undefined)).toEqual({ measured: 0, distributing: 0 });
    expect(kwh(12345)).toBe('12.345');
    expect(kwh(0)).toBe('0.000');
    expect(kwh(null)).toBe('');
  });
});

describe('LMS dashboard layout', () => {
  const names = { site: (id: number) => `Site ${id}`, zone: (id: number) => `Zone ${id}` };
  const info: LmsInfo = {
    mode: { 10: 'QUEUEING', 20: 'UNKNOWN' },
    cp_locs: [{ loc_id: 10, address: 'Harbour Mall', address_chi: '海港商場', lms_profile_id: 1 }, { loc_id: 20, address: 'Airport', address_chi: null, lms_profile_id: null }],
    cp_zones: [{ zone_id: 100, loc_id: 10, name: 'B1 Zone', name_chi: 'B1 區', max_physical_current_limit: 100, zone_max_available_current: 64, max_charging_current: 32, min_charging_current: 32 }],
    cps: [
      { cp_id: 1, cp_no: 'CP-1', name: 'one', loc_id: 10, zone_id: 100, enable_flag: 1 },
      { cp_id: 5, cp_no: 'CP-10', name: 'ten', loc_id: 10, zone_id: 100, enable_flag: 1 },
      { cp_id: 9, cp_no: 'CP-9', name: 'nine', loc_id: 10, zone_id: null, enable_flag: 1 },
    ],
    relation: { loc: {} },
    profile: { location: {} },
  };

  it('follows lms_info (sites, mode, zones, chargers) and keeps it while the socket says nothing', () => {
    const layout = buildLayout(EMPTY_LIVE, info, names, 'zh-TW');
    expect(layout.map((l) => [l.name, l.mode])).toEqual([['Airport', 'UNKNOWN'], ['海港商場', 'QUEUEING']]);
    const mall = layout[1];
    expect(mall.zones.map((z) => [z.zone_id, z.name, z.chargers.map((c) => c.cp_no)])).toEqual([[100, 'B1 區', ['CP-1', 'CP-10']], [null, '', ['CP-9']]]);
    expect(mall.zones[0].chargers[0].status).toBeUndefined();
  });

  it('names sites and zones in the reader\'s language, the other one where it is blank', () => {
    const zoneNames = (lms: LmsInfo, lang: 'en' | 'zh-TW') => buildLayout(EMPTY_LIVE, lms, names, lang).flatMap((l) => l.zones.map((z) => z.name));
    expect(buildLayout(EMPTY_LIVE, info, names, 'en').map((l) => l.name)).toEqual(['Airport', 'Harbour Mall']);
    expect(zoneNames(info, 'en')).toEqual(['B1 Zone', '']);
    const unnamed = { ...info, cp_zones: info.cp_zones.map((z) => ({ ...z, name: '' })) };
    expect(zoneNames(unnamed, 'en')).toEqual(['B1 區', '']);
  });

  it('puts the socket statuses in, the socket winning on placement; without lms_info the socket alone gives the layout', () => {
    const live = applyStatusUpdate(EMPTY_LIVE, update(true, { 'CP-1': charging, 'CP-9': { ...queueing, cp_id: 9 } }));
    const withInfo = buildLayout(live, info, names, 'en')[1];
    expect(withInfo.name).toBe('Harbour Mall');
    expect(withInfo.zones[0].totals?.max_available_current).toBe(64);
    expect(withInfo.zones[0].chargers.map((c) => [c.cp_no, c.status?.status])).toEqual([['CP-1', 'charging'], ['CP-9', 'queueing'], ['CP-10', undefined]]);
    // CP-9 is in zone 100 now: the group of chargers in no zone is gone.
    expect(withInfo.zones.map((z) => z.zone_id)).toEqual([100]);

    const alone = buildLayout(live, undefined, names, 'en');
    expect(alone).toHaveLength(1);
    expect(alone[0]).toMatchObject({ loc_id: 10, name: 'Site 10', mode: 'UNKNOWN' });
    expect(alone[0].zones.map((z) => [z.name, z.chargers.map((c) => c.cp_no)])).toEqual([['Zone 100', ['CP-1', 'CP-9']]]);
  });
});

describe('LMS realtime log', () => {
  it('keeps the newest first, without lines it already has, up to the cap', () => {
    let log = appendLog(EMPTY_LOG, [entry(1), entry(2)]);
    log = appendLog(log, [entry(2), entry(3)]);
    expect(log.lines.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(appendLog(log, [entry(4), entry(5)], 4).lines.map((e) => e.id)).toEqual([5, 4, 3, 2]);
    // After a server restart its numbering starts again: a later line with a known id is still new.
    const restarted = appendLog(log, [entry(1, { at: '2026-05-01T03:00:00.000Z', message: 'after restart' })]);
    expect(restarted.lines.map((e) => e.message)).toEqual(['after restart', 'line 3', 'line 2', 'line 1']);
  });

  it('holds new lines while paused and shows them on resume; clear keeps the pause', () => {
    let log = setPaused(appendLog(EMPTY_LOG, [entry(1)]), true);
    log = appendLog(log, [entry(2), entry(1)]);
    expect(log.lines.map((e) => e.id)).toEqual([1]);
    expect(log.held.map((e) => e.id)).toEqual([2]);
    log = setPaused(log, false);
    expect(log).toMatchObject({ paused: false, held: [] });
    expect(log.lines.map((e) => e.id)).toEqual([2, 1]);
    expect(clearLog(setPaused(log, true))).toEqual({ lines: [], held: [], paused: true });
  });

  it('filters by site and charger and lists the chargers seen', () => {
    const lines = [entry(3, { loc_id: 20, cp_no: 'CP-B' }), entry(2, { cp_no: null }), entry(1)];
    expect(filterLog(lines, { locId: 10 }).map((e) => e.id)).toEqual([2, 1]);
    expect(filterLog(lines, { cpNo: 'CP-B' }).map((e) => e.id)).toEqual([3]);
    expect(filterLog(lines, {}).length).toBe(3);
    expect(logChargers(lines)).toEqual(['CP-1', 'CP-B']);
    expect(logChargers(lines, 10)).toEqual(['CP-1']);
  });
});

describe('LMS screens', () => {
  const me = (privileges: string[]): MeResponse => ({
    id: 2, name: 'Op', username: 'op', max_role_level: 1, role: 'site_operator', roles: ['site_operator'], home_screen: 'CpList', privileges,
  });

  it('are in the sidebar for READ_LMS_DASHBOARD and READ_REALTIME_LOG', () => {
    expect(visibleMenu(permissionsOf(me(['READ_LMS_DASHBOARD', 'READ_REALTIME_LOG'])))).toEqual([{ group: 'lms', items: ['lms/dashboard', 'realtime/log'] }]);
    expect(visibleMenu(permissionsOf(me(['READ_REALTIME_LOG'])))).toEqual([{ group: 'lms', items: ['realtime/log'] }]);
  });

  it('show a charging card with its figures, and a queueing one with its place, in both languages', async () => {
    const card = (slot: Parameters<typeof ChargerCard>[0]['slot']) => <ChargerCard slot={slot} onOpen={() => {}} />;
    const html = await renderScreen('en', card({ cp_no: 'CP-1', cp_id: 1, status: { ...charging, uncontrolled: true } }));
    const en = text(html);
    for (const s of ['CP-1', 'Charging', 'Distributed current', '16 A', 'Live current', '15.5 A', 'Energy (kWh)', '12.345', '230 V', 'Selected charging time', '60 min', 'Expected end time']) {
      expect(en).toContain(s);
    }
    expect(html).toContain('data-testid="lms-uncontrolled"');
    const zh = text(await renderScreen('zh-TW', card({ cp_no: 'CP-2', cp_id: 2, status: queueing })));
    for (const s of ['排隊中', '排隊位置', '開始排隊時間', '準備中']) expect(zh).toContain(s);
    expect(zh).not.toContain('已分配電流');
    expect(text(await renderScreen('en', card({ cp_no: 'CP-3', cp_id: 3 })))).toContain('No status');
  });

  it('open only with their privilege', async () => {
    expect(text(await renderScreen('en', <LmsDashboardPage />, ['READ_LMS_DASHBOARD']))).toContain('LMS Dashboard');
    expect(text(await renderScreen('en', <LmsDashboardPage />, ['READ_REALTIME_LOG']))).toContain('You do not have permission');
    const log = text(await renderScreen('zh-TW', <RealtimeLogPage />, ['READ_REALTIME_LOG']));
    for (const s of ['暫停', '清除', '所有地點']) expect(log).toContain(s);
  });
});
