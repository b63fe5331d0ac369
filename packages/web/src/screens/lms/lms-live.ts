import dayjs from 'dayjs';
import { localName, type LmsCpStatus, type LmsInfo, type LmsLogEntry, type LmsMode, type LmsStatusUpdate, type LmsZoneStatus } from '@ev/core';

/** LMS socket states (spec part 1 §4). */
export type LmsSocketState = 'unknown' | 'connected' | 'disconnected';

/** What the socket has told about the user's sites: chargers by cp_no, zone totals by zone_id. */
export interface LmsLive {
  cps: Record<string, LmsCpStatus>;
  zones: Record<string, LmsZoneStatus>;
}

export const EMPTY_LIVE: LmsLive = { cps: {}, zones: {} };

/** Spec part 1 §9: the server's interval when above 500 ms, else 5000 ms. */
export const DEFAULT_REFRESH_MS = 5_000;
export function refreshInterval(intervalMs: number | null | undefined): number {
  return typeof intervalMs === 'number' && intervalMs > 500 ? intervalMs : DEFAULT_REFRESH_MS;
}

/** Reconnection delay after the nth failed attempt (0-based): 5 s doubling, capped at a minute. */
export function reconnectDelay(attempt: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempt), 60_000);
}

/**
 * Spec part 1 §4: a status of charging clears queue data; any other clears charge data. The server
 * should already send it so; the portal enforces it so that a merged partial update never mixes them.
 */
export function normalizeCp(cp: LmsCpStatus): LmsCpStatus {
  if (cp.status === 'charging') return { ...cp, queueing_pos: null, start_queueing_at: null };
  return {
    ...cp,
    distributed_current: null,
    start_tran_at: null,
    select_time: null,
    expected_end_at: null,
    // A queueing charger may hold a transaction waiting for current: its session stays reachable.
    session_id: cp.status === 'queueing' ? cp.session_id : null,
    curr_data: { current: null, meter: null, voltage: null },
  };
}

const normalizeAll = (cps: Record<string, LmsCpStatus>) =>
  Object.fromEntries(Object.entries(cps).map(([cpNo, cp]) => [cpNo, normalizeCp(cp)]));

/** A full update replaces the picture; a partial one is merged by cp_no (and zone_id). */
export function applyStatusUpdate(live: LmsLive, msg: LmsStatusUpdate): LmsLive {
  if (msg.full) return { cps: normalizeAll(msg.cp ?? {}), zones: { ...(msg.zones ?? {}) } };
  return { cps: { ...live.cps, ...normalizeAll(msg.cp ?? {}) }, zones: { ...live.zones, ...(msg.zones ?? {}) } };
}

/** Share (0-100) of a zone's maximum that is measured and that is handed out. */
export function zoneShares(zone: LmsZoneStatus | undefined): { measured: number; distributing: number } {
  if (!zone || !(zone.max_available_current > 0)) return { measured: 0, distributing: 0 };
  const pct = (a: number) => Math.max(0, Math.min(100, Math.round((a / zone.max_available_current) * 1000) / 10));
  return { measured: pct(zone.measured_current), distributing: pct(zone.distributing_current) };
}

/** Energy of the session in kWh with 3 decimals (spec §9: Wh / 1000). */
export const kwh = (wh: number | null | undefined): string => (typeof wh === 'number' ? (wh / 1000).toFixed(3) : '');

export type SiteMode = LmsMode | 'UNKNOWN';

export interface ChargerSlot {
  cp_no: string;
  cp_id: number;
  /** Absent while the socket has not reported the charger (or after a disconnection). */
  status?: LmsCpStatus;
}
export interface ZoneView {
  /** null: chargers of the site in no zone. */
  zone_id: number | null;
  name: string;
  totals?: LmsZoneStatus;
  chargers: ChargerSlot[];
}
export interface LocationView {
  loc_id: number;
  name: string;
  mode: SiteMode;
  zones: ZoneView[];
}

/** Where names come from when GET /api/lms_info does not answer: the option lists cp_locs and cp_zones. */
export interface FallbackNames {
  site: (locId: number) => string;
  zone: (zoneId: number) => string;
}

const byCpNo = (a: ChargerSlot, b: ChargerSlot) => a.cp_no.localeCompare(b.cp_no, undefined, { numeric: true });

/**
 * Locations → zones → chargers. With lms_info, its sites, zones and chargers give the layout (so it
 * stays while the socket is down); whatever the socket reports beyond it is added, so the screen is
 * right without lms_info too (then every mode is unknown).
 */
export function buildLayout(live: LmsLive, info: LmsInfo | undefined, names: FallbackNames, lang: 'en' | 'zh-TW'): LocationView[] {
  const locs = new Map<number, LocationView>();
  const zoneOf = new Map<string, ZoneView>();
  const location = (locId: number): LocationView => {
    let loc = locs.get(locId);
    if (!loc) {
      loc = { loc_id: locId, name: names.site(locId), mode: info?.mode[String(locId)] ?? 'UNKNOWN', zones: [] };
      locs.set(locId, loc);
    }
    return loc;
  };
  const zone = (locId: number, zoneId: number | null, name?: string): ZoneView => {
    const key = `${locId}/${zoneId ?? ''}`;
    let z = zoneOf.get(key);
    if (!z) {
      z = { zone_id: zoneId, name: name ?? (zoneId === null ? '' : names.zone(zoneId)), chargers: [] };
      zoneOf.set(key, z);
      location(locId).zones.push(z);
    }
    return z;
  };
  for (const site of info?.cp_locs ?? []) {
    location(site.loc_id).name = localName(lang, site.address, site.address_chi);
  }
  for (const z of info?.cp_zones ?? []) zone(z.loc_id, z.zone_id, localName(lang, z.name, z.name_chi));
  for (const z of Object.values(live.zones)) zone(z.loc_id, z.zone_id).totals = z;
  // The socket's placement wins over lms_info's: it is the newer (a charger moved to another zone).
  const slots = new Map<string, { loc_id: number; zone_id: number | null; slot: ChargerSlot }>();
  for (const cp of info?.cps ?? []) slots.set(cp.cp_no, { loc_id: cp.loc_id, zone_id: cp.zone_id, slot: { cp_no: cp.cp_no, cp_id: cp.cp_id } });
  for (const [cpNo, cp] of Object.entries(live.cps)) {
    slots.set(cpNo, { loc_id: cp.loc_id, zone_id: cp.zone_id, slot: { cp_no: cpNo, cp_id: cp.cp_id, status: cp } });
  }
  for (const s of slots.values()) zone(s.loc_id, s.zone_id).chargers.push(s.slot);

  const out = [...locs.values()].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  for (const loc of out) {
    // Zoned first by name, the chargers in no zone last.
    loc.zones.sort((a, b) => (a.zone_id === null ? 1 : 0) - (b.zone_id === null ? 1 : 0) || a.name.localeCompare(b.name, undefined, { numeric: true }));
    for (const z of loc.zones) z.chargers.sort(byCpNo);
  }
  return out;
}

/** The realtime log's lines, newest first, at most MAX_LOG_LINES; while paused new lines wait in `held`. */
export const MAX_LOG_LINES = 2_000;
export interface LogState {
  lines: LmsLogEntry[];
  held: LmsLogEntry[];
  paused: boolean;
}
export const EMPTY_LOG: LogState = { lines: [], held: [], paused: false };

// The server numbers its lines from 1 again after a restart: a line is its id and its time.
const lineKey = (e: LmsLogEntry) => `${e.id}@${e.at}`;
const newestFirst = (a: LmsLogEntry, b: LmsLogEntry) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1);

/** Adds a batch, without the lines already there (the server resends its recent lines after a reconnection). */
function merge(into: LmsLogEntry[], entries: LmsLogEntry[], known: Set<string>, max: number): LmsLogEntry[] {
  const fresh = entries.filter((e) => !known.has(lineKey(e)));
  if (!fresh.length) return into;
  return [...fresh, ...into].sort(newestFirst).slice(0, max);
}

export function appendLog(log: LogState, entries: LmsLogEntry[], max = MAX_LOG_LINES): LogState {
  const known = new Set([...log.lines, ...log.held].map(lineKey));
  if (log.paused) return { ...log, held: merge(log.held, entries, known, max) };
  return { ...log, lines: merge(log.lines, entries, known, max) };
}

export function setPaused(log: LogState, paused: boolean, max = MAX_LOG_LINES): LogState {
  if (paused) return { ...log, paused };
  return { lines: [...log.held, ...log.lines].sort(newestFirst).slice(0, max), held: [], paused };
}

export const clearLog = (log: LogState): LogState => ({ ...EMPTY_LOG, paused: log.paused });

export interface LogFilter {
  locId?: number;
  cpNo?: string;
}
export function filterLog(lines: LmsLogEntry[], { locId, cpNo }: LogFilter): LmsLogEntry[] {
  return lines.filter((e) => (locId === undefined || e.loc_id === locId) && (cpNo === undefined || e.cp_no === cpNo));
}

/** The chargers named in the lines (for the charger filter), of one site when one is chosen. */
export function logChargers(lines: LmsLogEntry[], locId?: number): string[] {
  const names = new Set<string>();
  for (const e of lines) if (e.cp_no && (locId === undefined || e.loc_id === locId)) names.add(e.cp_no);
  return [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

/** ISO times of the socket shown as the portal shows dates (spec §9), empty when absent. */
export const timeText = (iso: string | null | undefined): string => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');
