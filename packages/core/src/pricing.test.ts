import { describe, expect, it } from 'vitest';
import {
  formatCents, localDateTime, parseMoneyToCents, priceRemoteStart,
  type PricingCampaign, type PricingRate, type PricingScheme, type PricingSlot, type RemoteStartPricingInput,
} from './pricing.ts';

const HK = 'Asia/Hong_Kong';
/** A Hong Kong wall-clock time (UTC+8, no DST) as an instant. */
const hk = (local: string): Date => new Date(`${local}+08:00`);

const rate: PricingRate = { unitMinutes: 15, gracingPeriodMinutes: 10, maxPenaltyUnit: null, maxChargingUnit: null };

const schemes: Record<number, PricingScheme> = {
  // Fixed: only session 1 counts (fee 600 cents, 2 points); the stored session-2 row is ignored.
  1: { id: 1, type: 'Fixed', fee: 600, sessions: [{ session: 1, cash: 600, point: 2 }, { session: 2, cash: 9999, point: 99 }] },
  // Custom: every session typed in; session 4 missing.
  2: { id: 2, type: 'Custom', fee: 0, sessions: [{ session: 1, cash: 500, point: 1 }, { session: 2, cash: 900, point: 2 }, { session: 3, cash: 1200, point: 3 }] },
  // Fixed peak scheme without any stored row: points 0.
  3: { id: 3, type: 'Fixed', fee: 800, sessions: [] },
};

const slot = (over: Partial<PricingSlot> & Pick<PricingSlot, 'id'>): PricingSlot => ({
  startTime: '00:00', endTime: '24:00', peak: 0, maxChargingUnit: null, penaltyUnit: 15, penaltyFee: 300,
  priceSchemeId: 1, weekday: [], ...over,
});

/** Off-peak 00:00-18:00 (Fixed 600, max 8 units, penalty 15 min / 300), peak 18:00-24:00 (Fixed 800, max 4, penalty 30 min / 500). */
const daySlots: PricingSlot[] = [
  slot({ id: 10, startTime: '00:00', endTime: '18:00', maxChargingUnit: 8 }),
  slot({ id: 11, startTime: '18:00', endTime: '24:00', peak: 1, priceSchemeId: 3, maxChargingUnit: 4, penaltyUnit: 30, penaltyFee: 500 }),
];

/** Monday 2026-11-23 10:00 in Hong Kong. */
const MON_10 = hk('2026-11-23T10:00:00');

const input = (over: Partial<RemoteStartPricingInput> = {}): RemoteStartPricingInput => ({
  rate, slots: daySlots, schemes, campaigns: [], locId: 5, units: 1, redeemVoucherSessions: 0,
  start: MON_10, timeZone: HK, ...over,
});

const ok = (over: Partial<RemoteStartPricingInput> = {}) => {
  const r = priceRemoteStart(input(over));
  if (!r.ok) throw new Error(`expected ok, got error ${r.errorCode}`);
  return r;
};
const errorOf = (over: Partial<RemoteStartPricingInput>) => {
  const r = priceRemoteStart(input(over));
  return r.ok ? 'ok' : r.errorCode;
};

describe('spec §9 sample', () => {
  it('a 15-minute (1-unit) session on a Fixed scheme of fee 600 costs 600 cents, shown 6.00', () => {
    const r = ok();
    expect(r).toEqual({
      ok: true, slotId: 10, peak: 0, campaignId: null, units: 1, chargeableUnits: 1, fee: 600, point: 2,
      plannedEnd: hk('2026-11-23T10:15:00'), graceEnd: hk('2026-11-23T10:25:00'), penaltyUnits: 0, penaltyFee: 0,
    });
    expect(formatCents(r.fee)).toBe('6.00');
  });
});

describe('price schemes', () => {
  it.each([
    [1, 600, 2, '10:15'], [2, 1200, 4, '10:30'], [3, 1800, 6, '10:45'], [4, 2400, 8, '11:00'], [8, 4800, 16, '12:00'],
  ])('Fixed: %i units cost %i cents and %i points (stored later rows ignored), planned end %s', (units, fee, point, end) => {
    const r = ok({ units });
    expect([r.fee, r.point, r.plannedEnd]).toEqual([fee, point, hk(`2026-11-23T${end}:00`)]);
  });

  it('Fixed without a session-1 row: n × fee cash, 0 points', () => {
    const r = ok({ units: 3, start: hk('2026-11-23T19:00:00') });
    expect([r.slotId, r.fee, r.point]).toEqual([11, 2400, 0]);
  });

  const customSlots = [slot({ id: 30, priceSchemeId: 2 })];
  it.each([[1, 500, 1], [2, 900, 2], [3, 1200, 3]])('Custom: %i units take the stored row: %i cents, %i points', (units, fee, point) => {
    const r = ok({ slots: customSlots, units });
    expect([r.fee, r.point]).toEqual([fee, point]);
  });

  it('Custom: a missing session for the booked units is priceSchemeAndMaxChargingUnitError', () => {
    expect(errorOf({ slots: customSlots, units: 4 })).toBe('priceSchemeAndMaxChargingUnitError');
    expect(errorOf({ slots: customSlots, units: 4, redeemVoucherSessions: 2 })).toBe('priceSchemeAndMaxChargingUnitError');
  });

  it('accepts the schemes as a Map too', () => {
    expect(ok({ units: 2, schemes: new Map(Object.entries(schemes).map(([k, v]) => [Number(k), v])) }).fee).toBe(1200);
  });
});

describe('local time and slot choice', () => {
  it.each([
    ['2026-11-23T15:59:00Z', '2026-11-23', '23:59', 1],
    ['2026-11-23T16:00:00Z', '2026-11-24', '00:00', 2],
    ['2026-11-29T15:59:59Z', '2026-11-29', '23:59', 7],
    ['2026-11-29T16:00:00Z', '2026-11-30', '00:00', 1],
  ])('%s in Hong Kong is %s %s, weekday %i', (iso, date, time, weekday) => {
    expect(localDateTime(new Date(iso), HK)).toEqual({ date, time, weekday });
  });

  it.each([
    ['17:59 takes the slot before', hk('2026-11-23T17:59:00'), 10, 0, 600],
    ['17:59:59 still the slot before', hk('2026-11-23T17:59:59'), 10, 0, 600],
    ['18:00 takes the slot starting 18:00', hk('2026-11-23T18:00:00'), 11, 1, 800],
    ['23:59 HK given in UTC (15:59Z): the evening slot', new Date('2026-11-23T15:59:00Z'), 11, 1, 800],
    ['00:00 HK given in UTC (16:00Z, previous UTC day): the morning slot', new Date('2026-11-23T16:00:00Z'), 10, 0, 600],
  ])('%s', (_label, start, slotId, peak, fee) => {
    const r = ok({ start });
    expect([r.slotId, r.peak, r.fee]).toEqual([slotId, peak, fee]);
  });

  const weekSlots = [
    slot({ id: 20, weekday: [1, 2, 3, 4, 5] }),
    slot({ id: 21, weekday: [6, 7], priceSchemeId: 3 }),
  ];
  it.each([
    ['Fri 23:59 HK (15:59Z Fri)', '2026-11-27T15:59:00Z', 20, 600],
    ['Sat 00:00 HK (16:00Z Fri)', '2026-11-27T16:00:00Z', 21, 800],
    ['Sun 23:59 HK (15:59Z Sun)', '2026-11-29T15:59:00Z', 21, 800],
    ['Mon 00:00 HK (16:00Z Sun)', '2026-11-29T16:00:00Z', 20, 600],
  ])('weekday-restricted slots follow the local weekday: %s', (_label, iso, slotId, fee) => {
    const r = ok({ slots: weekSlots, start: new Date(iso) });
    expect([r.slotId, r.fee]).toEqual([slotId, fee]);
  });

  it.each([
    ['no slot for the weekday', { slots: [slot({ id: 40, weekday: [1] })], start: hk('2026-11-24T10:00:00') }],
    ['no slot for the time (gap 18:00-24:00)', { slots: [daySlots[0]], start: hk('2026-11-23T20:00:00') }],
    ['a start at the exclusive end of the only slot', { slots: [daySlots[0]], start: hk('2026-11-23T18:00:00') }],
    ['no slots at all', { slots: [] }],
    ['slot without a price scheme', { slots: [slot({ id: 41, priceSchemeId: null })] }],
    ['slot naming an unknown scheme', { slots: [slot({ id: 42, priceSchemeId: 99 })] }],
    ['a slot whose end is not after its start never matches', { slots: [slot({ id: 43, startTime: '22:00', endTime: '06:00' })], start: hk('2026-11-23T23:00:00') }],
  ] as [string, Partial<RemoteStartPricingInput>][])('10019 (CpChargingRateMissing): %s', (_label, over) => {
    expect(errorOf(over)).toBe(10019);
  });
});

describe('units', () => {
  it.each([0, -1, 1.5, Number.NaN])('units %s → 10003', (units) => {
    expect(errorOf({ units })).toBe(10003);
  });
  it.each([-1, 0.5])('voucher count %s → 10003', (redeemVoucherSessions) => {
    expect(errorOf({ redeemVoucherSessions })).toBe(10003);
  });
  it.each([
    ['8 units fit the slot max 8', { units: 8 }, 'ok'],
    ['9 units exceed the slot max 8', { units: 9 }, 10018],
    ['5 units exceed the peak slot max 4', { units: 5, start: hk('2026-11-23T19:00:00') }, 10018],
    ['3 units fit the rate max 3', { units: 3, rate: { ...rate, maxChargingUnit: 3 } }, 'ok'],
    ['4 units exceed the rate max 3', { units: 4, rate: { ...rate, maxChargingUnit: 3 } }, 10018],
  ] as [string, Partial<RemoteStartPricingInput>, number | string][])('%s', (_label, over, expected) => {
    expect(errorOf(over)).toBe(expected);
  });
});

describe('campaigns', () => {
  const camp = (over: Partial<PricingCampaign> = {}): PricingCampaign => ({
    id: 7, fee: 100, maxChargingUnit: null, isAllCpLocFlag: 1, locIds: [], rules: [], ...over,
  });
  const rule = (campaignRuleTypeCode: 'DateExclude' | 'TimeInclude' | 'DayInclude', config: unknown) =>
    ({ campaignRuleTypeCode, campaignRuleConfig: typeof config === 'string' ? config : JSON.stringify(config) });
  // 2 units on Monday 10:00: scheme 1200 cents; campaign fee 100 → 200 cents when it applies.
  const applied = (c: PricingCampaign, over: Partial<RemoteStartPricingInput> = {}) => {
    const r = ok({ units: 2, campaigns: [c], ...over });
    expect(r.fee).toBe(r.campaignId === null ? (over.units ?? 2) * 600 : 100 * r.chargeableUnits);
    return r.campaignId === 7;
  };

  it.each([
    ['all sites, no rules', camp(), true],
    ['site listed', camp({ isAllCpLocFlag: 0, locIds: [4, 5] }), true],
    ['site not listed', camp({ isAllCpLocFlag: 0, locIds: [6] }), false],
    ['DateExclude: today excluded', camp({ rules: [rule('DateExclude', ['2026-11-23'])] }), false],
    ['DateExclude: another day', camp({ rules: [rule('DateExclude', ['2026-11-24'])] }), true],
    ['DateExclude: short entries dropped', camp({ rules: [rule('DateExclude', ['', 'x', '2026-11-22'])] }), true],
    ['DateExclude: empty list', camp({ rules: [rule('DateExclude', [])] }), true],
    ['DateExclude: not JSON', camp({ rules: [rule('DateExclude', 'not json')] }), false],
    ['DateExclude: not a list', camp({ rules: [rule('DateExclude', '{"dates":[]}')] }), false],
    ['TimeInclude: inside [10:00, 11:00)', camp({ rules: [rule('TimeInclude', [{ start: '10:00', end: '11:00' }])] }), true],
    ['TimeInclude: end exclusive [09:00, 10:00)', camp({ rules: [rule('TimeInclude', [{ start: '09:00', end: '10:00' }])] }), false],
    ['TimeInclude: later range', camp({ rules: [rule('TimeInclude', [{ start: '10:01', end: '12:00' }])] }), false],
    ['TimeInclude: one of several ranges', camp({ rules: [rule('TimeInclude', [{ start: '06:00', end: '08:00' }, { start: '09:59', end: '10:01' }])] }), true],
    ['TimeInclude: range wrapping midnight', camp({ rules: [rule('TimeInclude', [{ start: '22:00', end: '11:00' }])] }), true],
    ['TimeInclude: entry lacking end dropped', camp({ rules: [rule('TimeInclude', [{ start: '00:00' }])] }), false],
    ['TimeInclude: entry with empty start dropped', camp({ rules: [rule('TimeInclude', [{ start: '', end: '24:00' }])] }), false],
    ['TimeInclude: malformed entry ignored, good one used', camp({ rules: [rule('TimeInclude', [{ start: 'x', end: '24:00' }, null, 5, { start: '00:00', end: '24:00' }])] }), true],
    ['TimeInclude: empty list', camp({ rules: [rule('TimeInclude', [])] }), false],
    ['TimeInclude: truncated JSON', camp({ rules: [rule('TimeInclude', '[{"start":')] }), false],
    ['DayInclude: [1]', camp({ rules: [rule('DayInclude', [1])] }), true],
    ['DayInclude: ["1"]', camp({ rules: [rule('DayInclude', ['1'])] }), true],
    ['DayInclude: [2, "3"]', camp({ rules: [rule('DayInclude', [2, '3'])] }), false],
    ['DayInclude: not a list', camp({ rules: [rule('DayInclude', '"1-5"')] }), false],
    ['DayInclude: garbage', camp({ rules: [rule('DayInclude', 'garbage')] }), false],
    ['every rule must pass', camp({ rules: [rule('DayInclude', ['1-5']), rule('DateExclude', ['2026-11-23'])] }), false],
    ['all rules pass', camp({ rules: [rule('DayInclude', ['1-5']), rule('DateExclude', ['2026-12-25']), rule('TimeInclude', [{ start: '08:00', end: '18:00' }])] }), true],
    ['units within campaign max 2', camp({ maxChargingUnit: 2 }), true],
  ] as [string, PricingCampaign, boolean][])('%s → applies: %s', (_label, c, expected) => {
    expect(applied(c)).toBe(expected);
  });

  it('units above the campaign max: scheme price', () => {
    const r = ok({ units: 3, campaigns: [camp({ maxChargingUnit: 2 })] });
    expect([r.campaignId, r.fee]).toEqual([null, 1800]);
  });

  // Mon 2026-11-23, Sat 2026-11-28, Sun 2026-11-29 at 10:00 HK.
  it.each([
    ['1-5', '2026-11-23', true], ['1-5', '2026-11-28', false], ['1-5', '2026-11-29', false],
    ['1-6', '2026-11-28', true], ['1-6', '2026-11-29', false],
    ['1-7', '2026-11-29', true], ['1-7', '2026-11-23', true],
    ['6', '2026-11-28', true], ['7', '2026-11-28', false], ['0-9', '2026-11-23', false],
  ])('DayInclude ["%s"] on %s → applies: %s', (shorthand, day, expected) => {
    expect(applied(camp({ rules: [rule('DayInclude', [shorthand])] }), { start: hk(`${day}T10:00:00`) })).toBe(expected);
  });

  it('DateExclude and TimeInclude use the local (Hong Kong) date and time of a UTC instant', () => {
    // 2026-11-23T16:30Z is 2026-11-24 00:30 in Hong Kong.
    const start = new Date('2026-11-23T16:30:00Z');
    expect(applied(camp({ rules: [rule('DateExclude', ['2026-11-24'])] }), { start })).toBe(false);
    expect(applied(camp({ rules: [rule('DateExclude', ['2026-11-23'])] }), { start })).toBe(true);
    expect(applied(camp({ rules: [rule('TimeInclude', [{ start: '00:00', end: '01:00' }])] }), { start })).toBe(true);
  });

  it.each([
    ['the cheapest of several campaigns', [camp({ id: 1, fee: 500 }), camp({ id: 2, fee: 300 }), camp({ id: 3, fee: 400 })], 2, 600],
    ['a campaign priced like the scheme: the scheme', [camp({ id: 1, fee: 600 })], null, 1200],
    ['a campaign dearer than the scheme: the scheme', [camp({ id: 1, fee: 700 })], null, 1200],
    ['equal campaigns: the earlier', [camp({ id: 8, fee: 300 }), camp({ id: 9, fee: 300 })], 8, 600],
    ['a cheaper campaign that does not apply is skipped', [camp({ id: 1, fee: 0, isAllCpLocFlag: 0, locIds: [9] }), camp({ id: 2, fee: 550 })], 2, 1100],
    ['a free campaign', [camp({ id: 4, fee: 0 })], 4, 0],
  ] as [string, PricingCampaign[], number | null, number][])('cheapest wins: %s', (_label, campaigns, campaignId, fee) => {
    const r = ok({ units: 2, campaigns });
    expect([r.campaignId, r.fee, r.point]).toEqual([campaignId, fee, 4]);
  });
});

describe('vouchers', () => {
  it.each([
    [3, 0, 3, 1800, 6], [3, 1, 2, 1200, 4], [3, 2, 1, 600, 2], [3, 3, 0, 0, 0], [3, 5, 0, 0, 0],
  ])('%i units, %i vouchers: %i chargeable, %i cents, %i points; planned end still 45 min', (units, redeemVoucherSessions, chargeable, fee, point) => {
    const r = ok({ units, redeemVoucherSessions });
    expect([r.units, r.chargeableUnits, r.fee, r.point, r.plannedEnd]).toEqual([units, chargeable, fee, point, hk('2026-11-23T10:45:00')]);
  });

  it('Custom: the price of the chargeable units is the row of that session', () => {
    const r = ok({ slots: [slot({ id: 30, priceSchemeId: 2 })], units: 3, redeemVoucherSessions: 1 });
    expect([r.chargeableUnits, r.fee, r.point]).toEqual([2, 900, 2]);
  });

  it('a campaign prices the chargeable units only; all vouchers: 0 and no campaign', () => {
    const c: PricingCampaign = { id: 7, fee: 100, maxChargingUnit: null, isAllCpLocFlag: 1, locIds: [], rules: [] };
    const r1 = ok({ units: 3, redeemVoucherSessions: 1, campaigns: [c] });
    expect([r1.campaignId, r1.fee]).toEqual([7, 200]);
    const r2 = ok({ units: 3, redeemVoucherSessions: 3, campaigns: [c] });
    expect([r2.campaignId, r2.fee, r2.point]).toEqual([null, 0, 0]);
  });
});

describe('penalty', () => {
  // Start Mon 10:00, 2 units of 15 min: planned end 10:30, grace (10 min) end 10:40. Off-peak slot: 15 min per unit, 300 cents.
  it.each([
    ['not finished', undefined, 0, 0],
    ['finished before the planned end', hk('2026-11-23T10:20:00'), 0, 0],
    ['finished within the grace period', hk('2026-11-23T10:39:59'), 0, 0],
    ['finished exactly at the grace end', hk('2026-11-23T10:40:00'), 0, 0],
    ['one second over', hk('2026-11-23T10:40:01'), 1, 300],
    ['one minute over', hk('2026-11-23T10:41:00'), 1, 300],
    ['exactly one penalty unit over', hk('2026-11-23T10:55:00'), 1, 300],
    ['one minute into the second unit', hk('2026-11-23T10:56:00'), 2, 600],
    ['80 minutes over: ceil(80/15) = 6', hk('2026-11-23T12:00:00'), 6, 1800],
  ] as [string, Date | undefined, number, number][])('%s → %i units, %i cents', (_label, actualFinished, units, fee) => {
    const r = ok({ units: 2, actualFinished });
    expect([r.plannedEnd, r.graceEnd]).toEqual([hk('2026-11-23T10:30:00'), hk('2026-11-23T10:40:00')]);
    expect([r.penaltyUnits, r.penaltyFee]).toEqual([units, fee]);
  });

  const late = hk('2026-11-23T12:00:00');
  it.each([
    ['capped by maxPenaltyUnit 4', { rate: { ...rate, maxPenaltyUnit: 4 } }, 4, 1200],
    ['cap above the count', { rate: { ...rate, maxPenaltyUnit: 10 } }, 6, 1800],
    ['cap 0', { rate: { ...rate, maxPenaltyUnit: 0 } }, 0, 0],
    ['slot without a penalty fee: units counted, 0 cents', { slots: [slot({ id: 50, penaltyFee: null })] }, 6, 0],
    ['slot without a penalty unit: no penalty', { slots: [slot({ id: 51, penaltyUnit: null })] }, 0, 0],
  ] as [string, Partial<RemoteStartPricingInput>, number, number][])('%s', (_label, over, units, fee) => {
    const r = ok({ units: 2, actualFinished: late, ...over });
    expect([r.penaltyUnits, r.penaltyFee]).toEqual([units, fee]);
  });

  it('uses the start slot: peak 30-minute units at 500 cents, grace period 0', () => {
    // 18:00 + 1 unit = 18:15, grace end 18:15; finished 18:50 → 35 min over → ceil(35/30) = 2 units.
    const r = ok({ start: hk('2026-11-23T18:00:00'), rate: { ...rate, gracingPeriodMinutes: 0 }, actualFinished: hk('2026-11-23T18:50:00') });
    expect([r.slotId, r.graceEnd, r.penaltyUnits, r.penaltyFee]).toEqual([11, hk('2026-11-23T18:15:00'), 2, 1000]);
  });
});

describe('money text', () => {
  it.each([
    [600, '6.00'], [0, '0.00'], [1, '0.01'], [5, '0.05'], [99, '0.99'], [100, '1.00'], [-5, '-0.05'],
    [-305, '-3.05'], [123450, '1234.50'], [-100000, '-1000.00'], [9007199254740991, '90071992547409.91'], [9007199254740899, '90071992547408.99'],
  ])('formatCents(%i) = %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])('formatCents(%s) throws', (v) => {
    expect(() => formatCents(v)).toThrow(RangeError);
  });

  it.each([
    ['6', 600], ['6.5', 650], ['6.00', 600], [6.5, 650], [6, 600], ['0.29', 29], [0.29, 29], ['1.15', 115], [1.15, 115],
    ['4.35', 435], [4.35, 435], [0.07, 7], ['0.1', 10], ['1234.50', 123450], [' 12.34 ', 1234], ['-3.05', -305], [-3.05, -305],
    ['+2', 200], ['0', 0], [0, 0], ['-0', 0], ['007.5', 750],
    ['6.005', null], [6.005, null], ['abc', null], ['', null], ['   ', null], ['6.', null], ['.5', null], ['1e3', null],
    [1e21, null], [Number.NaN, null], [Number.POSITIVE_INFINITY, null], ['1,000', null], ['6.5.0', null], ['--1', null],
    ['99999999999999999999', null],
  ] as [string | number, number | null][])('parseMoneyToCents(%j) = %s', (text, cents) => {
    expect(parseMoneyToCents(text)).toBe(cents);
  });

  it.each(['0.29', '1.15', '6.00', '-3.05', '1234.50'])('round trip %s', (text) => {
    expect(formatCents(parseMoneyToCents(text) ?? Number.NaN)).toBe(text);
  });
});
