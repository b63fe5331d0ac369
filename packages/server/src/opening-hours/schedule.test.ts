import { describe, expect, it } from 'vitest';
import { instantOf, openingState, validOpeningTimes, type OpeningHourRule } from './schedule.ts';

const rule = (start_time: string, end_time: string, weekday: number[] = [], date_list: string[] = []): OpeningHourRule => ({
  start_time, end_time, weekday, date_list,
});
const HK = 'Asia/Hong_Kong';
const LONDON = 'Europe/London';

// [what, rule, zone, instant (ISO, UTC), open, next change (ISO, UTC) or null]
const CASES: [string, OpeningHourRule, string, string, boolean, string | null][] = [
  // 2026-11-23 is a Monday; Hong Kong is UTC+8 all year.
  ['before opening', rule('08:00', '20:00'), HK, '2026-11-22T23:59:00Z', false, '2026-11-23T00:00:00Z'],
  ['at opening (inclusive)', rule('08:00', '20:00'), HK, '2026-11-23T00:00:00Z', true, '2026-11-23T12:00:00Z'],
  ['at closing (exclusive)', rule('08:00', '20:00'), HK, '2026-11-23T12:00:00Z', false, '2026-11-24T00:00:00Z'],
  ['midnight start', rule('00:00', '06:00'), HK, '2026-11-22T16:00:00Z', true, '2026-11-22T22:00:00Z'],
  ['until 24:00', rule('18:00', '24:00'), HK, '2026-11-23T15:59:00Z', true, '2026-11-23T16:00:00Z'],
  ['all day every day never changes', rule('00:00', '24:00'), HK, '2026-11-23T05:00:00Z', true, null],
  ['overnight, evening part', rule('22:00', '06:00'), HK, '2026-11-23T15:00:00Z', true, '2026-11-23T22:00:00Z'],
  ['overnight, after midnight', rule('22:00', '06:00'), HK, '2026-11-23T17:00:00Z', true, '2026-11-23T22:00:00Z'],
  ['overnight, daytime closed', rule('22:00', '06:00'), HK, '2026-11-23T04:00:00Z', false, '2026-11-23T14:00:00Z'],
  // Weekdays: Monday to Friday; Saturday 2026-11-28 closed, opens Monday 2026-11-30.
  ['weekday limit, Friday open', rule('08:00', '20:00', [1, 2, 3, 4, 5]), HK, '2026-11-27T04:00:00Z', true, '2026-11-27T12:00:00Z'],
  ['weekday limit, Friday evening', rule('08:00', '20:00', [1, 2, 3, 4, 5]), HK, '2026-11-27T13:00:00Z', false, '2026-11-30T00:00:00Z'],
  ['weekday limit, Saturday', rule('08:00', '20:00', [1, 2, 3, 4, 5]), HK, '2026-11-28T04:00:00Z', false, '2026-11-30T00:00:00Z'],
  // An overnight span of Friday (5) runs into Saturday morning, Saturday not being listed.
  ['overnight from a listed day', rule('22:00', '06:00', [5]), HK, '2026-11-27T20:00:00Z', true, '2026-11-27T22:00:00Z'],
  ['dates only', rule('09:00', '17:00', [], ['2026-12-25']), HK, '2026-11-23T04:00:00Z', false, '2026-12-25T01:00:00Z'],
  ['on a listed date', rule('09:00', '17:00', [], ['2026-12-25']), HK, '2026-12-25T04:00:00Z', true, '2026-12-25T09:00:00Z'],
  ['past dates only: closed for good', rule('09:00', '17:00', [], ['2020-01-01']), HK, '2026-11-23T04:00:00Z', false, null],
  ['weekday and date both must match', rule('09:00', '17:00', [1], ['2026-12-25', '2026-12-28']), HK, '2026-12-24T04:00:00Z', false, '2026-12-28T01:00:00Z'],
  // London: clocks go forward 2026-03-29 01:00 UTC (01:00 → 02:00), back 2026-10-25 01:00 UTC (02:00 → 01:00).
  ['DST spring: opens 08:00 BST', rule('08:00', '20:00'), LONDON, '2026-03-29T06:00:00Z', false, '2026-03-29T07:00:00Z'],
  ['DST spring: day before 08:00 GMT', rule('08:00', '20:00'), LONDON, '2026-03-28T07:30:00Z', false, '2026-03-28T08:00:00Z'],
  ['DST spring: overnight shorter night', rule('22:00', '06:00'), LONDON, '2026-03-28T23:00:00Z', true, '2026-03-29T05:00:00Z'],
  ['DST spring: skipped 01:30 opens at the jump', rule('01:30', '05:00'), LONDON, '2026-03-29T00:30:00Z', false, '2026-03-29T01:00:00Z'],
  ['DST autumn: closes 20:00 GMT', rule('08:00', '20:00'), LONDON, '2026-10-25T12:00:00Z', true, '2026-10-25T20:00:00Z'],
  ['DST autumn: overnight longer night', rule('22:00', '06:00'), LONDON, '2026-10-24T22:00:00Z', true, '2026-10-25T06:00:00Z'],
  ['DST autumn: repeated 01:30 at its first occurrence', rule('01:30', '05:00'), LONDON, '2026-10-24T23:00:00Z', false, '2026-10-25T00:30:00Z'],
];

describe('opening hour schedule', () => {
  for (const [what, r, zone, at, open, next] of CASES) {
    it(what, () => {
      const state = openingState(r, zone, new Date(at));
      expect({ open: state.open, next: state.nextChange?.toISOString() ?? null }).toEqual({
        open,
        next: next === null ? null : new Date(next).toISOString(),
      });
    });
  }

  it('local wall time to instant across DST', () => {
    expect(new Date(instantOf(Date.UTC(2026, 2, 29), 3 * 60, LONDON)).toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(new Date(instantOf(Date.UTC(2026, 9, 25), 60, LONDON)).toISOString()).toBe('2026-10-25T00:00:00.000Z');
  });

  it('validates times and dates', () => {
    expect(validOpeningTimes('22:00', '06:00', true)).toEqual({});
    expect(validOpeningTimes('22:00', '06:00')).toEqual({ end_time: 'end_before_start' });
    expect(validOpeningTimes('06:00', '22:00', true)).toEqual({ end_time: 'next_day_end_after_start' });
    expect(validOpeningTimes('00:00', '24:00')).toEqual({});
    expect(validOpeningTimes('08:00', '08:00')).toEqual({ end_time: 'end_equals_start' });
    expect(validOpeningTimes('8:00', '25:00')).toEqual({ start_time: 'format_error', end_time: 'format_error' });
    expect(validOpeningTimes('24:00', '06:00')).toEqual({ start_time: 'format_error' });
  });
});
