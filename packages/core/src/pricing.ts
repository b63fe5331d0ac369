import { ERROR_CODES } from './errors.ts';

/**
 * Pricing of a remote start request (spec part 2 §3, §4, §5, §9): which time slot of a charging
 * rate applies, what the booked units cost under the slot's price scheme or a cheaper campaign,
 * what vouchers take off, and the penalty for staying past the grace period.
 *
 * Pure: no I/O, no clock (the start instant and the finish instant are inputs). Money is integer
 * cents throughout; never a float.
 */

// ---- Input shapes (plain mirrors of packages/server/src/db/schema/money.ts) ----------------------

export interface PricingRate {
  /** Minutes per charging unit (charging_rate.unit). */
  unitMinutes: number;
  /** Minutes after the planned end before the penalty starts (charging_rate.gracing_period). */
  gracingPeriodMinutes: number;
  /** Cap on penalty units; null: no cap. */
  maxPenaltyUnit: number | null;
  /** Cap on booked units for every slot; null: no cap. */
  maxChargingUnit: number | null;
}

export interface PricingSlot {
  id: number;
  /** 'HH:mm', site-local, inclusive. */
  startTime: string;
  /** 'HH:mm', site-local, exclusive; '24:00' is the end of the day. Must be after startTime. */
  endTime: string;
  peak: 0 | 1;
  maxChargingUnit: number | null;
  /** Minutes per penalty unit; null: the slot charges no penalty. */
  penaltyUnit: number | null;
  /** Cents per penalty unit; null: 0. */
  penaltyFee: number | null;
  priceSchemeId: number | null;
  /** 1 = Monday .. 7 = Sunday; empty: every day. */
  weekday: number[];
}

export interface PricingSchemeSession {
  /** 1-based number of units. */
  session: number;
  /** Cents: the cumulative price of `session` units. */
  cash: number;
  point: number;
}

export interface PricingScheme {
  id: number;
  type: 'Fixed' | 'Custom';
  /** Cents per unit (used by Fixed). */
  fee: number;
  sessions: PricingSchemeSession[];
}

export type CampaignRuleTypeCode = 'DateExclude' | 'TimeInclude' | 'DayInclude';

export interface PricingCampaignRule {
  campaignRuleTypeCode: CampaignRuleTypeCode;
  /** A JSON string: ['yyyy-MM-dd', …], [{ start: 'HH:mm', end: 'HH:mm' }, …] or [1, '1-5', …]. */
  campaignRuleConfig: string;
}

export interface PricingCampaign {
  id: number;
  /** Cents per chargeable unit. */
  fee: number;
  maxChargingUnit: number | null;
  isAllCpLocFlag: 0 | 1;
  locIds: number[];
  rules: PricingCampaignRule[];
}

export interface RemoteStartPricingInput {
  rate: PricingRate;
  slots: PricingSlot[];
  /** Price schemes by id. */
  schemes: Record<number, PricingScheme> | ReadonlyMap<number, PricingScheme>;
  campaigns: PricingCampaign[];
  locId: number;
  /** Booked units (a positive integer). */
  units: number;
  /** Units paid by vouchers (the first ones; capped at units). */
  redeemVoucherSessions: number;
  start: Date;
  /** IANA zone of the site, e.g. 'Asia/Hong_Kong'. */
  timeZone: string;
  /** When charging actually finished, for the penalty; absent: no penalty. */
  actualFinished?: Date | null;
}

export const PRICE_SCHEME_SESSION_ERROR = 'priceSchemeAndMaxChargingUnitError';

export interface RemoteStartPricingOk {
  ok: true;
  slotId: number;
  peak: 0 | 1;
  /** The campaign whose price applied; null: the slot's price scheme. */
  campaignId: number | null;
  units: number;
  /** units − vouchers. */
  chargeableUnits: number;
  /** Cents. */
  fee: number;
  point: number;
  plannedEnd: Date;
  graceEnd: Date;
  penaltyUnits: number;
  /** Cents. */
  penaltyFee: number;
}

export interface RemoteStartPricingError {
  ok: false;
  /**
   * 10003 invalid units / voucher count, 10019 no slot or slot without scheme, 10018 above a
   * maxChargingUnit, 'priceSchemeAndMaxChargingUnitError' scheme lacks a session,
   * 'invalidStartTime' / 'invalidTimeZone' for unusable instant or zone.
   */
  errorCode: number | string;
}

export type RemoteStartPricingResult = RemoteStartPricingOk | RemoteStartPricingError;

// ---- Local time -------------------------------------------------------------------------------

export interface LocalDateTime {
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
  /** 1 = Monday .. 7 = Sunday */
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The site-local date, time (minutes truncated: seconds ignored) and weekday of an instant. */
export function localDateTime(instant: Date, timeZone: string): LocalDateTime {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23',
  });
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(instant)) parts[p.type] = p.value;
  // Some engines print midnight as '24' even under h23: normalise.
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${hour}:${parts.minute}`, weekday: WEEKDAYS[parts.weekday] ?? 0 };
}

/** 'HH:mm' → minutes of the day (0..1440; '24:00' only as 1440); null when malformed. */
function minutesOf(hhmm: unknown): number | null {
  if (typeof hhmm !== 'string') return null;
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return null;
  return h * 60 + min;
}

// ---- Campaign rules ---------------------------------------------------------------------------

function parseJsonArray(text: string): unknown[] | null {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** Weekdays named by a DayInclude entry: 3, '3', '1-5' (any a-b within 1..7); [] when unknown. */
function daysOf(entry: unknown): number[] {
  if (typeof entry === 'number') return Number.isInteger(entry) && entry >= 1 && entry <= 7 ? [entry] : [];
  if (typeof entry !== 'string') return [];
  const s = entry.trim();
  const single = /^[1-7]$/.exec(s);
  if (single) return [Number(s)];
  const range = /^([1-7])\s*-\s*([1-7])$/.exec(s);
  if (!range) return [];
  const a = Number(range[1]);
  const b = Number(range[2]);
  const out: number[] = [];
  for (let d = a; d <= b; d++) out.push(d);
  return out;
}

/**
 * Whether one rule lets the campaign apply at this local time. A config that is not a JSON array
 * fails the rule (never throws). Per §5, date entries of length ≤ 1 and time entries lacking start
 * or end are dropped; other unusable entries are ignored. An include list left empty fails; an
 * empty exclude list passes.
 */
export function campaignRulePasses(rule: PricingCampaignRule, local: LocalDateTime): boolean {
  const list = parseJsonArray(rule.campaignRuleConfig);
  if (!list) return false;
  switch (rule.campaignRuleTypeCode) {
    case 'DateExclude': {
      const dates = list.filter((d): d is string => typeof d === 'string' && d.length > 1).map((d) => d.trim());
      return !dates.includes(local.date);
    }
    case 'TimeInclude': {
      const now = minutesOf(local.time);
      if (now === null) return false;
      return list.some((r) => {
        if (typeof r !== 'object' || r === null) return false;
        const { start, end } = r as { start?: unknown; end?: unknown };
        if (!start || !end) return false;
        const s = minutesOf(start);
        const e = minutesOf(end);
        if (s === null || e === null || s === e) return false;
        // [start, end), end exclusive; a range whose end is before its start wraps past midnight.
        return s < e ? now >= s && now < e : now >= s || now < e;
      });
    }
    case 'DayInclude':
      return list.some((d) => daysOf(d).includes(local.weekday));
    default:
      return false;
  }
}

/** The site matches and every rule passes. */
export function campaignApplies(c: PricingCampaign, locId: number, local: LocalDateTime): boolean {
  const siteOk = c.isAllCpLocFlag === 1 || c.locIds.includes(locId);
  return siteOk && c.rules.every((r) => campaignRulePasses(r, local));
}

// ---- Price scheme -----------------------------------------------------------------------------

/**
 * Cash and points of n units. Fixed: n × fee cash, n × (session 1's point, 0 without a row);
 * other stored rows are ignored. Custom: the stored row of session n; null when missing.
 */
export function schemeSessionPrice(scheme: PricingScheme, n: number): { cash: number; point: number } | null {
  if (n === 0) return { cash: 0, point: 0 };
  if (scheme.type === 'Fixed') {
    const first = scheme.sessions.find((s) => s.session === 1);
    return { cash: n * scheme.fee, point: n * (first?.point ?? 0) };
  }
  const row = scheme.sessions.find((s) => s.session === n);
  return row ? { cash: row.cash, point: row.point } : null;
}

function schemeById(schemes: RemoteStartPricingInput['schemes'], id: number): PricingScheme | undefined {
  if (schemes instanceof Map) return (schemes as ReadonlyMap<number, PricingScheme>).get(id);
  return (schemes as Record<number, PricingScheme>)[id];
}

// ---- The price of a remote start ----------------------------------------------------------------

const MINUTE_MS = 60_000;

/**
 * Order of checks: units (10003), vouchers (10003), start/zone, slot (10019), max units (10018),
 * scheme sessions ('priceSchemeAndMaxChargingUnitError').
 *
 * - Slot: the first detail whose [startTime, endTime) holds the local HH:mm of the start and
 *   whose weekday list holds the local weekday (or is empty).
 * - Vouchers pay the first units: chargeable = units − min(vouchers, units).
 * - Price: the scheme's price of the chargeable units (its row for the booked units must exist
 *   too); each applicable campaign (site + all rules, units ≤ its maxChargingUnit when set) costs
 *   fee × chargeable units. The cheapest wins; ties go to the scheme, then the earlier campaign.
 *   Points are always the scheme's points of the chargeable units.
 * - Planned end = start + units × unitMinutes; grace end = planned end + gracing period.
 * - Penalty only when actualFinished is strictly after grace end: ceil(overtime / penaltyUnit
 *   minutes) units (a part unit counts whole), capped at rate.maxPenaltyUnit when set, times the
 *   slot's penaltyFee (0 when null). A slot without a penaltyUnit charges no penalty units.
 */
export function priceRemoteStart(input: RemoteStartPricingInput): RemoteStartPricingResult {
  const { rate, units } = input;
  if (!Number.isInteger(units) || units < 1) return { ok: false, errorCode: ERROR_CODES.INVALID_DURATION };
  const vouchers = input.redeemVoucherSessions;
  if (!Number.isInteger(vouchers) || vouchers < 0) return { ok: false, errorCode: ERROR_CODES.INVALID_DURATION };
  if (Number.isNaN(input.start.getTime())) return { ok: false, errorCode: 'invalidStartTime' };

  let local: LocalDateTime;
  try {
    local = localDateTime(input.start, input.timeZone);
  } catch {
    return { ok: false, errorCode: 'invalidTimeZone' };
  }
  const now = minutesOf(local.time);

  const slot = input.slots.find((d) => {
    const s = minutesOf(d.startTime);
    const e = minutesOf(d.endTime);
    if (now === null || s === null || e === null || e <= s) return false;
    return now >= s && now < e && (d.weekday.length === 0 || d.weekday.includes(local.weekday));
  });
  if (!slot || slot.priceSchemeId === null) return { ok: false, errorCode: ERROR_CODES.RATE_MISSING };
  const scheme = schemeById(input.schemes, slot.priceSchemeId);
  if (!scheme) return { ok: false, errorCode: ERROR_CODES.RATE_MISSING };

  if ((slot.maxChargingUnit !== null && units > slot.maxChargingUnit) || (rate.maxChargingUnit !== null && units > rate.maxChargingUnit)) {
    return { ok: false, errorCode: ERROR_CODES.MAX_SESSION };
  }

  const chargeableUnits = units - Math.min(vouchers, units);
  const booked = schemeSessionPrice(scheme, units);
  const charged = schemeSessionPrice(scheme, chargeableUnits);
  if (!booked || !charged) return { ok: false, errorCode: PRICE_SCHEME_SESSION_ERROR };

  let fee = charged.cash;
  let campaignId: number | null = null;
  for (const c of input.campaigns) {
    if (c.maxChargingUnit !== null && units > c.maxChargingUnit) continue;
    if (!campaignApplies(c, input.locId, local)) continue;
    const price = c.fee * chargeableUnits;
    if (price < fee) {
      fee = price;
      campaignId = c.id;
    }
  }

  const startMs = input.start.getTime();
  const plannedEndMs = startMs + units * rate.unitMinutes * MINUTE_MS;
  const graceEndMs = plannedEndMs + rate.gracingPeriodMinutes * MINUTE_MS;

  let penaltyUnits = 0;
  const finished = input.actualFinished;
  if (finished && !Number.isNaN(finished.getTime()) && finished.getTime() > graceEndMs && slot.penaltyUnit !== null && slot.penaltyUnit > 0) {
    const unitMs = slot.penaltyUnit * MINUTE_MS;
    penaltyUnits = Math.ceil((finished.getTime() - graceEndMs) / unitMs);
    if (rate.maxPenaltyUnit !== null) penaltyUnits = Math.min(penaltyUnits, Math.max(0, rate.maxPenaltyUnit));
  }

  return {
    ok: true,
    slotId: slot.id,
    peak: slot.peak,
    campaignId,
    units,
    chargeableUnits,
    fee,
    point: charged.point,
    plannedEnd: new Date(plannedEndMs),
    graceEnd: new Date(graceEndMs),
    penaltyUnits,
    penaltyFee: penaltyUnits * (slot.penaltyFee ?? 0),
  };
}

// ---- Money text ---------------------------------------------------------------------------------

/** Integer cents → '6.00', '-3.05', '1234.50' (no grouping). Throws on a non-integer. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`formatCents: not an integer number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const frac = abs % 100;
  const whole = (abs - frac) / 100; // an exact quotient: no float rounding
  return `${sign}${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

/**
 * '6' | '6.5' | '6.00' | 6.5 → 600 | 650 | 600 | 650 by string digits (no float maths); an optional
 * leading sign and surrounding spaces are allowed. More than 2 decimals, exponents, empty or other
 * text, non-finite numbers and amounts beyond safe integers → null.
 */
export function parseMoneyToCents(text: string | number): number | null {
  let s: string;
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) return null;
    s = String(text); // shortest round-trip form: 0.29 → '0.29'
  } else if (typeof text === 'string') {
    s = text.trim();
  } else {
    return null;
  }
  const m = /^([+-]?)(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const whole = Number(m[2]);
  const frac = Number((m[3] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + frac;
  if (!Number.isSafeInteger(cents)) return null;
  return m[1] === '-' && cents !== 0 ? -cents : cents;
}
