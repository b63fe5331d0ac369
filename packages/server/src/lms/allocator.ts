/**
 * Load-management allocator: a pure function from one site's load (types.ts) to one Allocation per
 * charger, in input order. No I/O, no clock: the same input gives the same output, whatever the
 * order of the chargers in it.
 *
 * Per zone (the site limit, when given, bounds the sum over all zones as well):
 * 1. `wants: false` → idle. A charger whose zone is not in `zones` → idle: it is not managed (no
 *    zone limits to apply), and it counts against nothing.
 * 2. Uncontrolled chargers are counted first, at max(their max, measured): we cannot lower them,
 *    so their draw is taken off the zone's and the site's current before anyone else is served.
 *    If they alone exceed a limit, nobody else in that zone (or site) gets current.
 * 3. The others are served first come, first served: by `since`, ties by cpId (cpIds are unique).
 *    A charger's max is min(zone.maxPerCharger, its maxCurrent); its min is zone.minPerCharger in
 *    DISTRIBUTION/MIXED and its own max in QUEUEING (there min = max, so a 16 A charger in a 32 A
 *    QUEUEING zone charges at 16 A). A charger whose max is below its min can never charge: it
 *    queues, behind every charger that can (it does not block the queue it could never leave).
 *
 * Modes:
 * - QUEUEING: charging chargers get exactly their max. They start in arrival order while their max
 *   fits; the first that does not fit and everyone after it queue. Strict FIFO: a later, smaller
 *   charger does not jump a blocked head, so the head is next as soon as its max is free.
 * - DISTRIBUTION: as many of the earliest chargers as can each get their min charge; they share
 *   the zone's current equally (water-filling: each gets min(its max, level), the level using all
 *   the current). Every arrival slows the others down until the mins fill the zone.
 * - MIXED: the earliest arrivals get their max while that fits (as in QUEUEING); from the first
 *   one whose max does not fit, the next chargers share what is left (each at least its min), as
 *   in DISTRIBUTION; beyond that they queue. Unlike DISTRIBUTION, a later arrival never slows an
 *   earlier full-speed charger down: only the sharers at the tail share, and the chargers that
 *   would fit as sharers in DISTRIBUTION may queue here, because the full-speed ones hold their max.
 *
 * With a site limit, chargers of all zones are served in one arrival order against both their
 * zone's and the site's remainder; the queue and its blocking stay per zone (a blocked head in one
 * zone does not stop another zone). Sharing levels are then equal across zones as far as the zone
 * limits allow (max-min fair).
 *
 * Currents are integer deci-amperes inside (no float drift) and come out as amperes with one
 * decimal, as OCPP limits allow. Limits round down (never exceed one by rounding); mins and
 * counted draws round up (never charge below a min, never under-count a draw). A charging charger
 * always gets at least 0.1 A: a 0 A "charging" limit would only be a queue in disguise.
 */
import type { Allocation, ChargerLoad, SiteLoad, ZoneLimits } from './types.ts';

/** Keeps Infinity (an unbounded limit) out of the integer arithmetic: 10^11 A. */
const DA_CAP = 1e12;

/** Amperes to deci-amperes, rounded down: for limits. NaN and negatives count as 0. */
function floorDa(a: number): number {
  return a > 0 ? Math.min(Math.floor(a * 10 + 1e-9), DA_CAP) : 0;
}

/** Amperes to deci-amperes, rounded up: for mins and counted draws. */
function ceilDa(a: number): number {
  return a > 0 ? Math.max(0, Math.min(Math.ceil(a * 10 - 1e-9), DA_CAP)) : 0;
}

const FULL = 0;
const SHARE = 1;
const BLOCKED = 2;

interface Zone {
  limits: ZoneLimits;
  /** Deci-amperes not yet given (uncontrolled, full-speed chargers and sharers' mins taken off). */
  rem: number;
  phase: typeof FULL | typeof SHARE | typeof BLOCKED;
  sharers: Slot[];
  /** Could have started but did not fit, in arrival order. */
  queue: Slot[];
  /** Can never charge (max below min), in arrival order: queued after `queue`. */
  never: Slot[];
  /** Water-filling: the zone's own level (deci-amperes), its total at full fill. */
  level: number;
  full: number;
}

interface Slot {
  index: number;
  charger: ChargerLoad;
  zone: Zone;
  min: number;
  max: number;
  /** Deci-amperes given in sharing. */
  cur: number;
  /** 1 when the zone's fill gives this sharer one deci-ampere above the level. */
  extra: number;
}

export function allocate(site: SiteLoad): Allocation[] {
  const queueing = site.mode === 'QUEUEING';
  const out: Allocation[] = new Array(site.chargers.length);
  const zones = new Map<number, Zone>();
  for (const limits of site.zones) {
    if (zones.has(limits.zoneId)) continue; // zoneIds are unique; the first one wins if not
    const phase = site.mode === 'DISTRIBUTION' ? SHARE : FULL;
    zones.set(limits.zoneId, { limits, rem: floorDa(limits.maxAvailable), phase, sharers: [], queue: [], never: [], level: 0, full: 0 });
  }
  let siteRem = site.siteLimit === undefined ? Infinity : floorDa(site.siteLimit);

  const wanting: Slot[] = [];
  site.chargers.forEach((charger, index) => {
    const zone = zones.get(charger.zoneId);
    if (!zone || !charger.wants) {
      out[index] = { cpId: charger.cpId, state: 'idle' };
      return;
    }
    const ownMax = Math.min(zone.limits.maxPerCharger, charger.maxCurrent ?? Infinity);
    if (charger.uncontrolled) {
      const counted = ceilDa(Math.max(ownMax, charger.measured ?? 0));
      zone.rem -= counted;
      siteRem -= counted;
      out[index] = { cpId: charger.cpId, state: 'uncontrolled', counted: counted / 10 };
      return;
    }
    const max = floorDa(ownMax);
    const min = Math.max(1, queueing ? max : ceilDa(zone.limits.minPerCharger));
    wanting.push({ index, charger, zone, min, max, cur: 0, extra: 0 });
  });
  wanting.sort((a, b) => a.charger.since - b.charger.since || a.charger.cpId - b.charger.cpId);

  // Admission, one arrival order over the site.
  const sharers: Slot[] = [];
  for (const s of wanting) {
    const z = s.zone;
    if (s.max < s.min) {
      z.never.push(s);
      continue;
    }
    if (z.phase === FULL) {
      if (s.max <= z.rem && s.max <= siteRem) {
        z.rem -= s.max;
        siteRem -= s.max;
        out[s.index] = { cpId: s.charger.cpId, state: 'charging', current: s.max / 10 };
        continue;
      }
      z.phase = queueing ? BLOCKED : SHARE;
    }
    if (z.phase === SHARE) {
      if (s.min <= z.rem && s.min <= siteRem) {
        z.rem -= s.min;
        siteRem -= s.min;
        z.sharers.push(s);
        sharers.push(s);
        continue;
      }
      z.phase = BLOCKED; // strict FIFO: everyone after the blocked head queues too
    }
    z.queue.push(s);
  }

  if (sharers.length > 0) share(zones, sharers, siteRem);
  for (const s of sharers) out[s.index] = { cpId: s.charger.cpId, state: 'charging', current: s.cur / 10 };
  for (const z of zones.values()) {
    let position = 0;
    for (const s of z.queue) out[s.index] = { cpId: s.charger.cpId, state: 'queueing', position: ++position };
    for (const s of z.never) out[s.index] = { cpId: s.charger.cpId, state: 'queueing', position: ++position };
  }
  return out;
}

/** A sharer's current at water level x. */
function at(s: Slot, x: number): number {
  return x <= s.min ? s.min : x >= s.max ? s.max : x;
}

function sumAt(list: Slot[], x: number): number {
  let sum = 0;
  for (const s of list) sum += at(s, x);
  return sum;
}

/** Largest x in [lo, hi) with f(x) <= cap, given f(lo) <= cap < f(hi) and f non-decreasing. */
function largestWithin(lo: number, hi: number, cap: number, f: (x: number) => number): number {
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (f(mid) <= cap) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Water-filling of the sharers (their mins already taken off `zone.rem` and `siteRem`): first each
 * zone on its own, then, if the zones' fills exceed the site's remainder, one level for the site
 * with each zone's level capped at its own. Deci-amperes a level cannot split evenly go one each to
 * the earliest arrivals, so nothing is left unused while a sharer is below its max.
 */
function share(zones: Map<number, Zone>, sharers: Slot[], siteRem: number): void {
  let total = 0;
  let siteCap = siteRem;
  for (const z of zones.values()) {
    if (z.sharers.length === 0) continue;
    let mins = 0;
    let top = 0;
    for (const s of z.sharers) {
      mins += s.min;
      top = Math.max(top, s.max);
    }
    const cap = z.rem + mins;
    siteCap += mins;
    if (sumAt(z.sharers, top) <= cap) {
      z.level = top; // everyone at max
      z.full = sumAt(z.sharers, top);
    } else {
      z.level = largestWithin(0, top, cap, (x) => sumAt(z.sharers, x));
      let left = cap - sumAt(z.sharers, z.level);
      for (const s of z.sharers) {
        if (left === 0) break;
        if (s.min <= z.level && z.level < s.max) {
          s.extra = 1;
          left--;
        }
      }
      z.full = cap;
    }
    total += z.full;
  }

  if (total <= siteCap) {
    for (const s of sharers) s.cur = at(s, s.zone.level) + s.extra;
    return;
  }
  // The site binds: one level L for all zones, each zone's level capped at its own fill.
  const active = [...zones.values()].filter((z) => z.sharers.length > 0);
  const siteAt = (x: number) => {
    let sum = 0;
    for (const z of active) sum += x > z.level ? z.full : sumAt(z.sharers, x);
    return sum;
  };
  const hi = Math.max(...active.map((z) => z.level)) + 1;
  const level = largestWithin(0, hi, siteCap, siteAt);
  let left = siteCap - siteAt(level);
  for (const s of sharers) {
    const z = s.zone;
    if (level > z.level) s.cur = at(s, z.level) + s.extra;
    else {
      s.cur = at(s, level);
      // The ones that would rise at level + 1 get the remainder, earliest first.
      const rises = z.level > level ? s.min <= level && level < s.max : s.extra === 1;
      if (left > 0 && rises) {
        s.cur++;
        left--;
      }
    }
  }
}
