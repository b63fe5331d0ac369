import { expect, it } from 'vitest';
import { ChargingProfiles, type ChargingProfile } from './charging-profiles.ts';

const HOUR = 3_600_000;
const t0 = Date.parse('2025-01-01T00:00:00Z');

function profile(over: Partial<ChargingProfile> & { periods?: Array<[number, number]>; unit?: 'A' | 'W' }): ChargingProfile {
  const { periods = [[0, 16]], unit = 'A', ...rest } = over;
  return {
    chargingProfileId: 1, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
    chargingSchedule: { chargingRateUnit: unit, chargingSchedulePeriod: periods.map(([startPeriod, limit]) => ({ startPeriod, limit })) },
    ...rest,
  };
}

it('the highest stack level in force wins, and a lower one takes over when it expires', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  p.set(0, profile({ chargingProfileId: 1, stackLevel: 0, periods: [[0, 16]] }), t0);
  p.set(1, profile({ chargingProfileId: 2, stackLevel: 3, periods: [[0, 8]], chargingSchedule: undefined as never }), t0);
  p.set(1, { ...profile({ chargingProfileId: 2, stackLevel: 3, periods: [[0, 8]] }), chargingSchedule: { chargingRateUnit: 'A', duration: 3600, chargingSchedulePeriod: [{ startPeriod: 0, limit: 8 }] } }, t0);
  expect(p.limitA(1, undefined, 1, t0 + 1000)).toBe(8);
  expect(p.limitA(1, undefined, 1, t0 + 2 * HOUR)).toBe(16);
  expect(p.limitA(2, undefined, 1, t0)).toBe(16);
});

it('follows schedule periods, converts watts and applies a TxProfile only to its transaction', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 3 });
  p.set(1, profile({ chargingProfilePurpose: 'TxProfile', chargingProfileKind: 'Relative', unit: 'W', periods: [[0, 13_800], [600, 6_900]] }), t0);
  expect(p.limitA(1, undefined, 1, t0)).toBeUndefined();
  const tx = { transactionId: 5, startedAt: t0 };
  expect(p.limitA(1, tx, 1, t0 + 1000)).toBe(20);
  expect(p.limitA(1, tx, 1, t0 + 601_000)).toBe(10);
  p.endTransaction(1);
  expect(p.size).toBe(0);
});

it('shares the charge point maximum among drawing connectors and clears by criteria', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  p.set(0, profile({ chargingProfileId: 9, chargingProfilePurpose: 'ChargePointMaxProfile', periods: [[0, 40]] }), t0);
  p.set(0, profile({ chargingProfileId: 3, periods: [[0, 32]] }), t0);
  expect(p.limitA(1, undefined, 1, t0)).toBe(32);
  expect(p.limitA(1, undefined, 2, t0)).toBe(20);
  expect(p.clear({ chargingProfilePurpose: 'ChargePointMaxProfile' })).toBe(1);
  expect(p.clear({ id: 42 })).toBe(0);
  expect(p.limitA(1, undefined, 2, t0)).toBe(32);
});

it('a daily recurring profile repeats every day', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  p.set(0, profile({
    chargingProfileKind: 'Recurring', recurrencyKind: 'Daily',
    chargingSchedule: { startSchedule: new Date(t0).toISOString(), chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }, { startPeriod: 8 * 3600, limit: 20 }] },
  }), t0);
  expect(p.limitA(1, undefined, 1, t0 + 3 * 24 * HOUR + HOUR)).toBe(10);
  expect(p.limitA(1, undefined, 1, t0 + 3 * 24 * HOUR + 9 * HOUR)).toBe(20);
});

it('clearing by id removes that profile whatever the other criteria say (OCPP 1.6 §5.5)', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  p.set(1, profile({ chargingProfileId: 5, stackLevel: 2, periods: [[0, 10]] }), t0);
  p.set(1, profile({ chargingProfileId: 6, stackLevel: 3, periods: [[0, 12]] }), t0);
  expect(p.clear({ id: 5, connectorId: 2, stackLevel: 9 })).toBe(1);
  expect(p.clear({ id: 5 })).toBe(0);
  expect(p.clear({ connectorId: 1, stackLevel: 2 })).toBe(0);
  expect(p.clear({ connectorId: 1, chargingProfilePurpose: 'TxDefaultProfile' })).toBe(1);
  expect(p.size).toBe(0);
});

it('the composite schedule steps where the stacked profiles change, capped by the charger\'s maximum', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  p.set(0, profile({ chargingProfileId: 1, stackLevel: 0, periods: [[0, 16], [600, 10]] }), t0);
  // A higher stack level in force for its 300 s only, from 120 s.
  p.set(1, { ...profile({ chargingProfileId: 2, stackLevel: 4, periods: [[0, 6]] }),
    chargingSchedule: { chargingRateUnit: 'A', duration: 300, startSchedule: new Date(t0 + 120_000).toISOString(), chargingSchedulePeriod: [{ startPeriod: 0, limit: 6 }] } }, t0);
  expect(p.composite(1, undefined, 1, t0, 900, 32)).toEqual([
    { startPeriod: 0, limit: 16 }, { startPeriod: 120, limit: 6 }, { startPeriod: 420, limit: 16 }, { startPeriod: 600, limit: 10 },
  ]);
  expect(p.composite(1, undefined, 1, t0, 60, 12)).toEqual([{ startPeriod: 0, limit: 12 }]);
  expect(new ChargingProfiles({ voltage: 230, phases: 1 }).composite(1, undefined, 1, t0, 60, 32)).toEqual([{ startPeriod: 0, limit: 32 }]);
});

it('a daily recurring profile repeats in the composite schedule', () => {
  const p = new ChargingProfiles({ voltage: 230, phases: 1 });
  const start = new Date(t0 - 3_600_000).toISOString();
  p.set(0, { ...profile({ chargingProfileId: 3 }), chargingProfileKind: 'Recurring', recurrencyKind: 'Daily',
    chargingSchedule: { chargingRateUnit: 'A', startSchedule: start, chargingSchedulePeriod: [{ startPeriod: 0, limit: 8 }, { startPeriod: 7200, limit: 20 }] } }, t0);
  expect(p.composite(1, undefined, 1, t0, 86_400, 32)).toEqual([
    { startPeriod: 0, limit: 8 }, { startPeriod: 3600, limit: 20 }, { startPeriod: 82_800, limit: 8 },
  ]);
});
