import { PRICE_SCHEME_SESSION_ERROR } from '@ev/core';
import type { Sql } from '../db/client.ts';
import { badRequest } from '../http/errors.ts';

/**
 * The rules a charging rate's time slot (charging_rate_detail) keeps, so that the pricing
 * (core pricing.ts priceRemoteStart) finds exactly one slot for any start and can price every
 * unit the slot allows. Kept apart from the routes so the resource hook can use it without the
 * engine (no import cycle).
 */

export interface Slot {
  id?: number;
  chargingRateId: number;
  startTime: string;
  endTime: string;
  weekday: number[];
  maxChargingUnit: number | null;
  priceSchemeId: number | null;
}

const START = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'HH:mm' → minutes of the day; the end may be '24:00' (the end of the day); null when malformed. */
export function slotMinutes(hhmm: unknown, end: boolean): number | null {
  if (typeof hhmm !== 'string') return null;
  if (end && hhmm === '24:00') return 1440;
  const m = START.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Two slots clash when their [start, end) ranges meet on a day both run (no weekdays: every day). */
export function slotsOverlap(a: Pick<Slot, 'startTime' | 'endTime' | 'weekday'>, b: Pick<Slot, 'startTime' | 'endTime' | 'weekday'>): boolean {
  const sameDay = !a.weekday.length || !b.weekday.length || a.weekday.some((d) => b.weekday.includes(d));
  const [as, ae, bs, be] = [slotMinutes(a.startTime, false), slotMinutes(a.endTime, true), slotMinutes(b.startTime, false), slotMinutes(b.endTime, true)];
  if (as === null || ae === null || bs === null || be === null) return false;
  return sameDay && as < be && bs < ae;
}

/**
 * Checks a slot as it will be stored (the rate row locked, so two writers of one rate take turns):
 * HH:mm times with the end after the start; a live price scheme of the rate's site with at least
 * maxChargingUnit sessions; no overlap with the rate's other live slots. A 400 naming the fields.
 */
export async function checkSlot(sql: Sql, slot: Slot): Promise<void> {
  const fields: Record<string, string> = {};
  const errors: string[] = [];
  const [rate] = await sql.query<{ loc_id: number | null }>(
    `SELECT loc_id FROM charging_rate WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
    [slot.chargingRateId],
  );
  if (!rate) throw badRequest('chargingRateId: invalid', { chargingRateId: 'invalid' });

  const start = slotMinutes(slot.startTime, false);
  const end = slotMinutes(slot.endTime, true);
  if (start === null) fields.startTime = 'format_error';
  if (end === null || end === 0) fields.endTime = 'format_error';
  else if (start !== null && end <= start) fields.endTime = 'end_before_start';

  if (slot.priceSchemeId !== null) {
    const [scheme] = await sql.query<{ locId: number | null; sessions: number }>(
      `SELECT p."locId",
              (SELECT count(DISTINCT d.session)::int FROM price_scheme_detail d
                WHERE d."priceSchemeId" = p.id AND d.enable_flag = 1 AND d.session BETWEEN 1 AND p."maxChargingUnit") AS sessions
         FROM price_scheme p WHERE p.id = $1 AND p.deleted_at IS NULL`,
      [slot.priceSchemeId],
    );
    if (!scheme) fields.priceSchemeId = 'invalid';
    else if (scheme.locId !== rate.loc_id) fields.priceSchemeId = 'scheme_other_site';
    else if (slot.maxChargingUnit !== null && scheme.sessions < slot.maxChargingUnit) {
      fields.priceSchemeId = PRICE_SCHEME_SESSION_ERROR;
      errors.push(`The price scheme has ${scheme.sessions} sessions, fewer than maxChargingUnit ${slot.maxChargingUnit}`);
    }
  }

  if (!fields.startTime && !fields.endTime) {
    const others = await sql.query<Slot & { id: number }>(
      `SELECT id, "startTime", "endTime", weekday FROM charging_rate_detail
        WHERE "chargingRateId" = $1 AND deleted_at IS NULL AND id <> $2 ORDER BY "startTime", id`,
      [slot.chargingRateId, slot.id ?? 0],
    );
    const clash = others.find((o) => slotsOverlap(slot, o));
    if (clash) {
      fields.startTime = 'slot_overlap';
      errors.push(`Overlaps slot ${clash.id} (${clash.startTime}-${clash.endTime}${clash.weekday.length ? ` on ${clash.weekday.join(',')}` : ''})`);
    }
  }
  if (Object.keys(fields).length) {
    throw badRequest([...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), ...errors], fields);
  }
}
