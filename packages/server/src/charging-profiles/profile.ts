import { z } from 'zod';
import { DEFAULT_PROFILE_ID, STACK_LEVEL, TX_PROFILE_ID } from '../lms/charger-limits.ts';

/**
 * A charging profile as the API takes it (issue 29): the OCPP 1.6 csChargingProfiles in flatter
 * words, turned into the OCPP shape by toOcppProfile. Used by the set route and by remote start.
 */

/** Load management's own stack level and profile ids (a TxProfile's is TX_PROFILE_ID + its connector). */
export const LMS_STACK_LEVEL = STACK_LEVEL;
export const isLmsProfileId = (id: number) => id === DEFAULT_PROFILE_ID || (id > TX_PROFILE_ID && id < TX_PROFILE_ID + 100);

export const PURPOSES = ['ChargePointMaxProfile', 'TxDefaultProfile', 'TxProfile'] as const;
export type Purpose = (typeof PURPOSES)[number];

const int32 = z.number().int().min(0).max(2 ** 31 - 1);
/** OCPP 1.6 limits have one decimal. */
const limit = z.number().min(0).max(1_000_000).multipleOf(0.1);
const dateTime = z.string().datetime({ offset: true });

export const Period = z.strictObject({
  startPeriod: int32.default(0).describe('Seconds from the start of the schedule; the first period starts at 0'),
  limit: limit.describe('A or W, as unit says'),
  numberPhases: z.number().int().min(1).max(3).optional(),
});

export const ProfileInput = z.strictObject({
  chargingProfileId: int32.min(1).describe('The profile id; one of the same id on the charger is replaced'),
  stackLevel: int32.max(100).describe(`Higher wins; ${LMS_STACK_LEVEL} is load management's own`),
  kind: z.enum(['Absolute', 'Recurring', 'Relative']),
  recurrency: z.enum(['Daily', 'Weekly']).optional().describe('Required for Recurring'),
  unit: z.enum(['A', 'W']),
  periods: z.array(Period).min(1).max(48).describe('Ordered by startPeriod, the first at 0'),
  duration: int32.min(1).optional().describe('Seconds; the last period lasts until the profile ends when absent'),
  startSchedule: dateTime.optional().describe('Start of an Absolute or Recurring schedule; when the profile is installed when absent'),
  validFrom: dateTime.optional(),
  validTo: dateTime.optional(),
}).superRefine((p, ctx) => {
  if (p.kind === 'Recurring' && !p.recurrency) ctx.addIssue({ code: 'custom', path: ['recurrency'], message: 'A Recurring profile needs recurrency (Daily or Weekly)' });
  if (p.kind !== 'Recurring' && p.recurrency) ctx.addIssue({ code: 'custom', path: ['recurrency'], message: 'Only a Recurring profile has a recurrency' });
  if (p.kind === 'Relative' && p.startSchedule) ctx.addIssue({ code: 'custom', path: ['startSchedule'], message: 'A Relative profile starts with the transaction: no startSchedule' });
  if (p.periods[0].startPeriod !== 0) ctx.addIssue({ code: 'custom', path: ['periods', 0, 'startPeriod'], message: 'The first period starts at 0' });
  p.periods.forEach((x, i) => {
    if (i > 0 && x.startPeriod <= p.periods[i - 1].startPeriod) ctx.addIssue({ code: 'custom', path: ['periods', i, 'startPeriod'], message: 'Periods must start in increasing order' });
  });
  if (p.validFrom && p.validTo && Date.parse(p.validFrom) >= Date.parse(p.validTo)) ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validTo must be after validFrom' });
});
export type ProfileInput = z.infer<typeof ProfileInput>;

/** A refusal of a manual profile that would take load management's place, or null. */
export function lmsClash(p: Pick<ProfileInput, 'stackLevel' | 'chargingProfileId'>): { field: string; message: string } | null {
  if (p.stackLevel === LMS_STACK_LEVEL) return { field: 'stackLevel', message: `Stack level ${LMS_STACK_LEVEL} belongs to load management: choose another` };
  if (isLmsProfileId(p.chargingProfileId)) return { field: 'chargingProfileId', message: 'Profile ids 1000 and 2001-2099 belong to load management: choose another' };
  return null;
}

/** The OCPP csChargingProfiles of an API profile. */
export function toOcppProfile(p: ProfileInput, purpose: Purpose, transactionId?: number): Record<string, unknown> {
  return {
    chargingProfileId: p.chargingProfileId,
    ...(transactionId !== undefined ? { transactionId } : {}),
    stackLevel: p.stackLevel,
    chargingProfilePurpose: purpose,
    chargingProfileKind: p.kind,
    ...(p.recurrency ? { recurrencyKind: p.recurrency } : {}),
    ...(p.validFrom ? { validFrom: p.validFrom } : {}),
    ...(p.validTo ? { validTo: p.validTo } : {}),
    chargingSchedule: {
      ...(p.duration !== undefined ? { duration: p.duration } : {}),
      ...(p.startSchedule ? { startSchedule: p.startSchedule } : {}),
      chargingRateUnit: p.unit,
      chargingSchedulePeriod: p.periods,
    },
  };
}
