/**
 * When an opening hour is open, in a time zone: pure, no I/O and no clock (the caller gives the instant).
 *
 * A day counts when its weekday is listed (none listed: every weekday) and its date is listed (none
 * listed: every date). On such a day the charger is open from start_time to end_time, local time.
 * An end before the start is an overnight span: it ends the next day (22:00–06:00 on Friday runs
 * into Saturday morning, whatever Saturday's own rules); the form takes one only with ends_next_day
 * (validOpeningTimes). End "24:00" is the end of the day; an end equal to the start is refused. Local times that a DST change
 * skips (01:30 in London on the last Sunday of March) take effect at the first instant after the
 * jump; times it repeats (01:30 on the last Sunday of October) at their first occurrence.
 */

export interface OpeningHourRule {
  start_time: string;
  end_time: string;
  /** 1 (Monday) to 7 (Sunday); empty: every weekday. */
  weekday: readonly number[];
  /** yyyy-MM-dd; empty: every date. */
  date_list: readonly string[];
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;
/** How far ahead the next change is looked for: the portal's date picker covers 700 days. */
const HORIZON_DAYS = 800;

/** Minutes after midnight of an HH:mm (end "24:00" allowed), or undefined when malformed. */
export function minutesOf(time: string, isEnd = false): number | undefined {
  if (isEnd && time === '24:00') return 24 * 60;
  const m = HHMM.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * The field errors of a start and end time (message keys), empty when valid. The end must be after the start
 * (spec part 2 §5) unless the operator chose that it ends the next day: then it must be before the start (a span
 * of less than a day), so that a mistyped 18:00–08:00 is refused, never silently taken as overnight.
 */
export function validOpeningTimes(start: unknown, end: unknown, endsNextDay = false): Record<string, string> {
  const errors: Record<string, string> = {};
  const s = typeof start === 'string' ? minutesOf(start) : undefined;
  const e = typeof end === 'string' ? minutesOf(end, true) : undefined;
  if (s === undefined) errors.start_time = 'format_error';
  if (e === undefined) errors.end_time = 'format_error';
  else if (s === undefined) return errors;
  // Equal times would mean either never or always open: 00:00–24:00 says always.
  else if (e === s) errors.end_time = 'end_equals_start';
  else if (endsNextDay && e > s) errors.end_time = 'next_day_end_after_start';
  else if (!endsNextDay && e < s) errors.end_time = 'end_before_start';
  return errors;
}

interface LocalParts {
  y: number;
  m: number;
  d: number;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and minute of an instant in a time zone. */
function localParts(ms: number, timeZone: string): LocalParts & { seconds: number } {
  const p = Object.fromEntries(formatter(timeZone).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), minutes: Number(p.hour) * 60 + Number(p.minute), seconds: Number(p.second) };
}

/** Offset of the zone from UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d) + p.minutes * 60_000 + p.seconds * 1000;
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a wall-clock time (day as a UTC-midnight ms, plus minutes) in a zone: its first
 * occurrence when repeated, the first instant after the gap when skipped.
 */
export function instantOf(dayUtcMs: number, minutes: number, timeZone: string): number {
  const wall = dayUtcMs + minutes * 60_000;
  // The offsets a few hours either side cover any DST change of that day.
  const candidates = [...new Set([offsetAt(wall - DAY_MS / 2, timeZone), offsetAt(wall + DAY_MS / 2, timeZone)])]
    .map((off) => wall - off)
    .filter((t) => wall - offsetAt(t, timeZone) === t)
    .sort((a, b) => a - b);
  if (candidates.length) return candidates[0];
  // Skipped by a jump forward: the jump's instant is where both offsets meet.
  const before = offsetAt(wall - DAY_MS / 2, timeZone);
  // Offsets change on a whole second: search in seconds.
  let lo = (wall - before - DAY_MS / 2) / 1000;
  let hi = (wall - before + DAY_MS / 2) / 1000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid * 1000, timeZone) === before) lo = mid;
    else hi = mid;
  }
  return hi * 1000;
}

/** ISO weekday (1 Monday … 7 Sunday) of a day given as UTC-midnight ms. */
function weekdayOf(dayUtcMs: number): number {
  return new Date(dayUtcMs).getUTCDay() || 7;
}

function dayCounts(rule: OpeningHourRule, dayUtcMs: number): boolean {
  if (rule.weekday.length && !rule.weekday.includes(weekdayOf(dayUtcMs))) return false;
  return !rule.date_list.length || rule.date_list.includes(new Date(dayUtcMs).toISOString().slice(0, 10));
}

/** The open span [from, to) of a day, when the day counts. */
function spanOf(rule: OpeningHourRule, dayUtcMs: number, timeZone: string): [number, number] | undefined {
  const start = minutesOf(rule.start_time);
  const end = minutesOf(rule.end_time, true);
  if (start === undefined || end === undefined || start === end || !dayCounts(rule, dayUtcMs)) return undefined;
  const endDay = end > start ? dayUtcMs : dayUtcMs + DAY_MS;
  return [instantOf(dayUtcMs, start, timeZone), instantOf(endDay, end, timeZone)];
}

export interface OpeningState {
  open: boolean;
  /** When it next opens or closes; null when it never changes within the horizon. */
  nextChange: Date | null;
}

/** Whether the rule is open at `at`, and when that next changes. */
export function openingState(rule: OpeningHourRule, timeZone: string, at: Date): OpeningState {
  const now = at.getTime();
  const p = localParts(now, timeZone);
  const today = Date.UTC(p.y, p.m - 1, p.d);
  // Spans in order from yesterday (an overnight span may still run), merged where they touch.
  const spans: [number, number][] = [];
  const changes: number[] = [];
  let open = false;
  for (let i = -1; i <= HORIZON_DAYS; i++) {
    const span = spanOf(rule, today + i * DAY_MS, timeZone);
    if (!span) continue;
    const last = spans[spans.length - 1];
    if (last && span[0] <= last[1]) {
      last[1] = Math.max(last[1], span[1]);
      continue;
    }
    spans.push(span);
    // A separate span starting after now bounds the answer: nothing later can come first.
    if (span[0] > now) break;
  }
  // A span running to the horizon's end does not end there: it is open as far as we look.
  const horizonEnd = today + HORIZON_DAYS * DAY_MS;
  for (const [from, to] of spans) {
    if (from <= now && now < to) open = true;
    if (from > now) changes.push(from);
    if (to > now && to < horizonEnd) changes.push(to);
  }
  const next = changes.filter((t) => t > now).sort((a, b) => a - b)[0];
  return { open, nextChange: next === undefined ? null : new Date(next) };
}
