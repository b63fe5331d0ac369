import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from './allocator.ts';
import { LMS_MODES } from '@ev/core';
import type { Allocation, ChargerLoad, LmsMode, SiteLoad, ZoneLimits } from './types.ts';

// The rounding rules of allocator.ts, restated: limits round down, mins and counted draws round up.
const floorDa = (a: number) => (a > 0 ? Math.min(Math.floor(a * 10 + 1e-9), 1e12) : 0);
const ceilDa = (a: number) => (a > 0 ? Math.max(0, Math.min(Math.ceil(a * 10 - 1e-9), 1e12)) : 0);
/** A plain throw: vitest's expect costs too much at thousands of calls per property run. */
function must(ok: boolean, what: string, detail?: unknown): asserts ok {
  if (!ok) throw new Error(`${what}${detail === undefined ? '' : ': ' + JSON.stringify(detail)}`);
}
/** Outputs are whole deci-amperes. */
const da = (a: number) => {
  must(Math.abs(a * 10 - Math.round(a * 10)) < 1e-6, 'not a whole 0.1 A', a);
  return Math.round(a * 10);
};
const fifo = (a: ChargerLoad, b: ChargerLoad) => a.since - b.since || a.cpId - b.cpId;

/** Checks every property of one allocation against its input. */
function check(site: SiteLoad, out: Allocation[]): void {
  must(out.length === site.chargers.length && out.every((a, i) => a.cpId === site.chargers[i].cpId), 'one allocation per charger, in input order');
  const zones = new Map<number, ZoneLimits>();
  for (const z of site.zones) if (!zones.has(z.zoneId)) zones.set(z.zoneId, z);
  const siteCap = site.siteLimit === undefined ? Infinity : floorDa(site.siteLimit);
  const used = new Map<number, { counted: number; given: number }>();
  for (const id of zones.keys()) used.set(id, { counted: 0, given: 0 });
  const bounds = new Map<ChargerLoad, { min: number; max: number }>();
  const currents = new Map<ChargerLoad, number>();
  const siteUsed = { counted: 0, given: 0 };

  site.chargers.forEach((c, i) => {
    const a = out[i];
    const z = zones.get(c.zoneId);
    if (!z || !c.wants) return must(a.state === 'idle', 'idle: no car, or no known zone', a);
    const ownMax = Math.min(z.maxPerCharger, c.maxCurrent ?? Infinity);
    const u = used.get(c.zoneId)!;
    if (c.uncontrolled) {
      must(a.state === 'uncontrolled' && da(a.counted) === ceilDa(Math.max(ownMax, c.measured ?? 0)), 'uncontrolled, counted at max(max, measured)', a);
      u.counted += da(a.counted);
      siteUsed.counted += da(a.counted);
      return;
    }
    const max = floorDa(ownMax);
    const min = Math.max(1, site.mode === 'QUEUEING' ? max : ceilDa(z.minPerCharger));
    bounds.set(c, { min, max });
    must(a.state === 'charging' || a.state === 'queueing', 'charging or queueing', a);
    if (a.state !== 'charging') return;
    const cur = da(a.current);
    currents.set(c, cur);
    must(min <= cur && cur <= max, 'within [min, max]', { a, min, max });
    if (site.mode === 'QUEUEING') must(cur === max, 'QUEUEING: exactly max', { a, max });
    u.given += cur;
    siteUsed.given += cur;
  });

  // Limits: never exceeded, unless the uncontrolled alone do it; then nobody else gets current.
  for (const [id, u] of used) {
    const cap = floorDa(zones.get(id)!.maxAvailable);
    if (u.counted > cap) must(u.given === 0, 'uncontrolled over the zone: nobody else charges', { id, ...u });
    else must(u.given + u.counted <= cap, 'zone limit', { id, cap, ...u });
  }
  if (siteUsed.counted > siteCap) must(siteUsed.given === 0, 'uncontrolled over the site: nobody else charges', siteUsed);
  else must(siteUsed.given + siteUsed.counted <= siteCap, 'site limit', { siteCap, ...siteUsed });
  const siteLeft = siteCap - siteUsed.given - siteUsed.counted;

  const byIndex = new Map(site.chargers.map((c, i) => [c, out[i]]));
  const position = (c: ChargerLoad) => (byIndex.get(c) as { position?: number }).position;
  for (const [id, u] of used) {
    const zoneLeft = floorDa(zones.get(id)!.maxAvailable) - u.given - u.counted;
    const mine = [...bounds.keys()].filter((c) => c.zoneId === id).sort(fifo);
    const can = mine.filter((c) => bounds.get(c)!.max >= bounds.get(c)!.min);
    const never = mine.filter((c) => bounds.get(c)!.max < bounds.get(c)!.min);
    // FIFO: the charging ones are a prefix of the arrival order (an earlier one never queues while a
    // later one charges); queue positions 1..k in arrival order, those that can never charge last.
    const firstQueued = can.findIndex((c) => !currents.has(c));
    const queued = firstQueued < 0 ? [] : can.slice(firstQueued);
    [...queued, ...never].forEach((c, i) => must(position(c) === i + 1, 'FIFO queue', { zone: id, cpId: c.cpId, position: position(c), expected: i + 1 }));
    // Work-conserving: the head could not have started.
    if (queued.length > 0) {
      const b = bounds.get(queued[0])!;
      const need = site.mode === 'QUEUEING' ? b.max : b.min;
      must(need > zoneLeft || need > siteLeft, 'the head of the queue fits', { zone: id, cpId: queued[0].cpId, need, zoneLeft, siteLeft });
    }
    if (site.mode === 'QUEUEING') continue;
    // Nothing left unused while someone is below max: the binding limit has no deci-ampere spare
    // (stronger than "< 0.1 A per charger").
    const charging = can.filter((c) => currents.has(c));
    if (charging.some((c) => currents.get(c)! < bounds.get(c)!.max)) must(Math.min(zoneLeft, siteLeft) === 0, 'current left unused', { zone: id, zoneLeft, siteLeft });
    if (site.mode === 'DISTRIBUTION') {
      // Equal shares: two chargers of a zone differ by more than 0.1 A only if a bound forces it.
      for (const x of charging)
        for (const y of charging) {
          const cx = currents.get(x)!;
          const cy = currents.get(y)!;
          must(cx + 1 >= cy || cx === bounds.get(x)!.max || cy === bounds.get(y)!.min, 'unequal shares', { x: x.cpId, cx, y: y.cpId, cy });
        }
    }
  }
}

// ----- random sites -----

/** Amperes: mostly whole deci-amperes, tiny to huge, sometimes an arbitrary double. */
const amps = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 30 }).map((d) => d / 10) },
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 2000 }).map((d) => d / 10) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 10_000_000 }).map((d) => d / 10) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
);
const perCharger = fc.oneof(fc.constantFrom(6, 10, 16, 32), amps);

/** Zone currents: the amperes above, or room for a few dozen chargers. */
const zoneAmps = fc.oneof(amps, fc.integer({ min: 0, max: 5000 }).map((d) => d / 10));

const zoneArb = (zoneId: number): fc.Arbitrary<ZoneLimits> =>
  fc.record({ zoneId: fc.constant(zoneId), maxAvailable: zoneAmps, minPerCharger: fc.oneof(fc.constant(6), amps), maxPerCharger: perCharger });

/** Zone ids come from the site's zones, and now and then 7: a zone the site does not have. */
const chargerArb = (zoneIds: number[]): fc.Arbitrary<ChargerLoad> =>
  fc.record({
    cpId: fc.integer({ min: 1, max: 5000 }),
    zoneId: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...zoneIds) }, { weight: 1, arbitrary: fc.constant(7) }),
    wants: fc.integer({ min: 0, max: 9 }).map((n) => n > 1),
    since: fc.integer({ min: 0, max: 40 }), // few distinct times: ties by cpId happen
    maxCurrent: fc.option(perCharger, { nil: undefined }),
    measured: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 400 }).map((d) => d / 10) }, { weight: 1, arbitrary: amps }), { nil: undefined }),
    uncontrolled: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  });

const siteArb = (mode?: LmsMode): fc.Arbitrary<SiteLoad> =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 })
    .chain((ids) =>
      fc.record({
        mode: mode ? fc.constant(mode) : fc.constantFrom(...LMS_MODES),
        siteLimit: fc.option(zoneAmps, { nil: undefined }),
        zones: fc.tuple(...ids.map(zoneArb)),
        // size 'max': lengths spread over 0..60 instead of clustering near 0
        chargers: fc.uniqueArray(chargerArb(ids), { selector: (c) => c.cpId, maxLength: 60, size: 'max' }),
      }),
    );

type Event =
  | { kind: 'arrive'; zonePick: number; maxCurrent?: number }
  | { kind: 'leave' | 'uncontrolled' | 'controlled'; pick: number; measured?: number };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ kind: fc.constant('arrive' as const), zonePick: fc.nat(), maxCurrent: fc.option(perCharger, { nil: undefined }) }),
  fc.record({ kind: fc.constantFrom('leave' as const, 'uncontrolled' as const, 'controlled' as const), pick: fc.nat(), measured: fc.option(amps, { nil: undefined }) }),
);

/** Applies one event; returns the new site (the old one is left as it was). */
function apply(site: SiteLoad, e: Event): SiteLoad {
  const chargers = site.chargers.map((c) => ({ ...c }));
  if (e.kind === 'arrive') {
    const cpId = Math.max(0, ...chargers.map((c) => c.cpId)) + 1;
    const since = Math.max(0, ...chargers.map((c) => c.since)) + 1;
    const z = site.zones[e.zonePick % (site.zones.length + 1)]; // now and then none: an unknown zone
    chargers.push({ cpId, zoneId: z ? z.zoneId : 7, wants: true, since, maxCurrent: e.maxCurrent });
  } else if (chargers.length > 0) {
    const i = e.pick % chargers.length;
    if (e.kind === 'leave' && e.pick % 2 === 0) chargers.splice(i, 1); // gone from the input
    else if (e.kind === 'leave') chargers[i].wants = false; // still listed, unplugged
    else if (e.kind === 'uncontrolled') Object.assign(chargers[i], { uncontrolled: true, measured: e.measured });
    else chargers[i].uncontrolled = false;
  }
  return { ...site, chargers };
}

const current = (a: Allocation | undefined) => (a?.state === 'charging' ? a.current : undefined);

describe('allocate: properties', () => {
  for (const mode of LMS_MODES) {
    it(`${mode}: limits, bounds, FIFO, work-conserving`, () => {
      fc.assert(fc.property(siteArb(mode), (site) => check(site, allocate(site))), { numRuns: 1000 });
    });
  }

  it('is deterministic: shuffling the chargers gives the same allocation per cpId', () => {
    fc.assert(
      fc.property(siteArb(), fc.array(fc.double({ noNaN: true }), { minLength: 60, maxLength: 60 }), (site, keys) => {
        const shuffled = site.chargers.map((c, i) => ({ c, k: keys[i] })).sort((a, b) => a.k - b.k).map((x) => x.c);
        const byId = (out: Allocation[]) => new Map(out.map((a) => [a.cpId, a]));
        expect(byId(allocate({ ...site, chargers: shuffled }))).toEqual(byId(allocate(site)));
      }),
      { numRuns: 1000 },
    );
  });

  it('holds over event sequences; an arrival never stops a charging charger', () => {
    fc.assert(
      fc.property(siteArb(), fc.array(eventArb, { maxLength: 30 }), (start, events) => {
        let site = start;
        let out = allocate(site);
        check(site, out);
        for (const e of events) {
          const next = apply(site, e);
          const nextOut = allocate(next);
          check(next, nextOut);
          if (e.kind === 'arrive') {
            const after = new Map(nextOut.map((a) => [a.cpId, a]));
            for (const a of out) {
              if (a.state !== 'charging') continue;
              expect(after.get(a.cpId)!.state).toBe('charging');
              if (site.mode === 'QUEUEING') expect(current(after.get(a.cpId))).toBe(a.current);
            }
          }
          site = next;
          out = nextOut;
        }
      }),
      { numRuns: 400 },
    );
  });
});

// ----- examples -----

const zone = (maxAvailable: number, minPerCharger = 6, maxPerCharger = 32, zoneId = 1): ZoneLimits => ({ zoneId, maxAvailable, minPerCharger, maxPerCharger });
const car = (cpId: number, since: number, more: Partial<ChargerLoad> = {}): ChargerLoad => ({ cpId, zoneId: 1, wants: true, since, ...more });
/** Short form: a current, 'q<position>', 'idle' or 'u<counted>'. */
const brief = (site: SiteLoad) => {
  const out = allocate(site);
  check(site, out);
  return out.map((a) => (a.state === 'charging' ? a.current : a.state === 'queueing' ? `q${a.position}` : a.state === 'idle' ? 'idle' : `u${a.counted}`));
};

describe('allocate: QUEUEING examples', () => {
  const fixed16 = (cpId: number, since: number) => car(cpId, since, { maxCurrent: 16 });
  it('32 A zone, three 16 A chargers: two charge, the third queues at 1; one leaves, the head starts', () => {
    const site: SiteLoad = { mode: 'QUEUEING', zones: [zone(32)], chargers: [fixed16(1, 1), fixed16(2, 2), fixed16(3, 3)] };
    expect(brief(site)).toEqual([16, 16, 'q1']);
    expect(brief({ ...site, chargers: site.chargers.slice(1) })).toEqual([16, 16]);
    expect(brief({ ...site, chargers: [{ ...site.chargers[0], wants: false }, ...site.chargers.slice(1)] })).toEqual(['idle', 16, 16]);
  });
  it('strict FIFO: a smaller later charger does not jump the blocked head', () => {
    const site: SiteLoad = { mode: 'QUEUEING', zones: [zone(32)], chargers: [car(1, 1, { maxCurrent: 20 }), car(2, 2), car(3, 3, { maxCurrent: 10 })] };
    expect(brief(site)).toEqual([20, 'q1', 'q2']);
  });
  it('ties on since are broken by cpId, whatever the input order', () => {
    const site: SiteLoad = { mode: 'QUEUEING', zones: [zone(32)], chargers: [car(9, 5, { maxCurrent: 16 }), car(4, 5, { maxCurrent: 20 })] };
    expect(brief(site)).toEqual(['q1', 20]);
  });
  it('uncontrolled chargers count at max(their max, measured) first', () => {
    const site: SiteLoad = { mode: 'QUEUEING', zones: [zone(48)], chargers: [fixed16(1, 5), car(2, 9, { maxCurrent: 16, uncontrolled: true, measured: 20 })] };
    expect(brief(site)).toEqual([16, 'u20']);
    expect(brief({ ...site, zones: [zone(30)] })).toEqual(['q1', 'u20']);
    // No maxCurrent: counted at the zone's maxPerCharger; alone above the zone: nobody else charges.
    expect(brief({ ...site, zones: [zone(10)], chargers: [fixed16(1, 5), car(2, 9, { uncontrolled: true })] })).toEqual(['q1', 'u32']);
  });
  it('unknown zone and no car are idle', () => {
    expect(brief({ mode: 'QUEUEING', zones: [zone(32)], chargers: [car(1, 1, { zoneId: 7 }), car(2, 2, { wants: false })] })).toEqual(['idle', 'idle']);
  });
  it('site limit: one arrival order over the zones, each zone blocking only itself', () => {
    const site: SiteLoad = {
      mode: 'QUEUEING',
      siteLimit: 40,
      zones: [zone(32, 6, 32, 1), zone(32, 6, 32, 2)],
      chargers: [fixed16(1, 1), fixed16(2, 2), car(3, 3, { zoneId: 2, maxCurrent: 16 }), car(4, 4, { zoneId: 2, maxCurrent: 8 })],
    };
    expect(brief(site)).toEqual([16, 16, 'q1', 'q2']);
    expect(brief({ ...site, chargers: [fixed16(1, 1), fixed16(2, 2), car(4, 4, { zoneId: 2, maxCurrent: 8 })] })).toEqual([16, 16, 8]);
  });
});

describe('allocate: DISTRIBUTION examples', () => {
  it('32 A shared equally; the odd 0.1 A go to the earliest', () => {
    const site: SiteLoad = { mode: 'DISTRIBUTION', zones: [zone(32)], chargers: [car(1, 1), car(2, 2), car(3, 3)] };
    expect(brief(site)).toEqual([10.7, 10.7, 10.6]);
  });
  it('as many as get their 6 A min charge; the rest queue', () => {
    const chargers = [1, 2, 3, 4, 5, 6].map((i) => car(i, i));
    expect(brief({ mode: 'DISTRIBUTION', zones: [zone(32)], chargers })).toEqual([6.4, 6.4, 6.4, 6.4, 6.4, 'q1']);
    expect(brief({ mode: 'DISTRIBUTION', zones: [zone(32)], chargers: chargers.slice(1) })).toEqual([6.4, 6.4, 6.4, 6.4, 6.4]);
  });
  it('water-filling: a charger capped below the level leaves its share to the others', () => {
    const site: SiteLoad = { mode: 'DISTRIBUTION', zones: [zone(32)], chargers: [car(1, 1, { maxCurrent: 8 }), car(2, 2), car(3, 3)] };
    expect(brief(site)).toEqual([8, 12, 12]);
    expect(brief({ ...site, zones: [zone(100)] })).toEqual([8, 32, 32]);
  });
  it('a charger whose own max is under the zone min queues behind, without blocking', () => {
    const site: SiteLoad = { mode: 'DISTRIBUTION', zones: [zone(12)], chargers: [car(1, 1, { maxCurrent: 4 }), car(2, 2), car(3, 3), car(4, 4)] };
    expect(brief(site)).toEqual(['q2', 6, 6, 'q1']);
  });
  it('site limit: one level across zones, each zone capped at its own', () => {
    const site: SiteLoad = {
      mode: 'DISTRIBUTION',
      siteLimit: 30,
      zones: [zone(32, 6, 32, 1), zone(8, 6, 32, 2)],
      chargers: [car(1, 1), car(2, 2), car(3, 3, { zoneId: 2 })],
    };
    expect(brief(site)).toEqual([11, 11, 8]);
    expect(brief({ ...site, zones: [zone(32, 6, 32, 1), zone(32, 6, 32, 2)] })).toEqual([10, 10, 10]);
  });
});

describe('allocate: MIXED examples', () => {
  const site: SiteLoad = { mode: 'MIXED', zones: [zone(40, 6, 16)], chargers: [car(1, 1), car(2, 2), car(3, 3), car(4, 4)] };
  it('the earliest at full speed, the next shares what is left, the rest queue', () => {
    expect(brief(site)).toEqual([16, 16, 8, 'q1']);
    // DISTRIBUTION would slow everyone down instead.
    expect(brief({ ...site, mode: 'DISTRIBUTION' })).toEqual([10, 10, 10, 10]);
  });
  it('a full-speed charger leaves: the sharer moves up to full speed, the head of the queue shares', () => {
    expect(brief({ ...site, chargers: site.chargers.slice(1) })).toEqual([16, 16, 8]);
  });
  it('several sharers water-fill the remainder', () => {
    const wide: SiteLoad = { ...site, zones: [zone(50, 6, 16)], chargers: [...site.chargers, car(5, 5)] };
    expect(brief(wide)).toEqual([16, 16, 16, 'q1', 'q2']);
    expect(brief({ ...wide, zones: [zone(45, 6, 16)] })).toEqual([16, 16, 6.5, 6.5, 'q1']);
  });
});
