import { ERROR_CODES } from '@ev/core';
import type { Sql } from '../db/client.ts';
import { memberAccount } from './authorization.ts';

/** What a remote start's form says, as checked on every charger (with or without a charging rate). */
export interface StartForm {
  connectorId: number;
  lp?: string | number | null;
  entryTime?: string | number | null;
  bayId?: string | number | null;
  memberId?: string | number | null;
  startCode?: string | number | null;
}

/** The form once accepted: the account its member ID names and the car's entry time. */
export interface CheckedStart {
  accountId: number | null;
  inTime: Date | null;
}

const text = (v: unknown) => (v == null || String(v).trim() === '' ? null : String(v).trim());

/** A car cannot have entered later than now; a few minutes allow for the parking system's clock. */
const ENTRY_CLOCK_SKEW_MS = 5 * 60_000;

const ENTRY_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds a time zone is ahead of UTC at an instant. */
function zoneOffset(at: number, timeZone: string): number {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second) - Math.floor(at / 1000) * 1000;
}

/**
 * The entry time of the car: 'YYYY-MM-DD HH:mm[:ss]' in the sites' time zone (as getLp answers it) or
 * an ISO time with its offset. Null when malformed, not a calendar date or in the future (spec 30001).
 */
export function parseEntryTime(raw: string, timeZone: string, now = Date.now()): Date | null {
  const m = ENTRY_TIME.exec(raw);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  let at: number;
  if (m[7] === 'Z') at = wall;
  else if (m[7]) {
    const sign = m[7][0] === '-' ? -1 : 1;
    const [oh, om] = [Number(m[7].slice(1, 3)), Number(m[7].slice(-2))];
    at = wall - sign * (oh * 60 + om) * 60_000;
  } else {
    at = wall - zoneOffset(wall - zoneOffset(wall, timeZone), timeZone);
  }
  return at > now + ENTRY_CLOCK_SKEW_MS ? null : new Date(at);
}

/**
 * The rules of a remote start's form, the same on every charger and for every caller (the portal, a
 * third-party app), answered with the spec's codes: 30001 entry time, 40006 a bay that is not the
 * connector's, 30003 no plate where the charger reads plates (its LPRS setting), 10014 a member ID
 * that names no account allowed here, 10004 a start code that is not the last four digits of that
 * account's mobile number. The duration (10003) is checked before the charger is looked up.
 */
export async function checkStartForm(sql: Sql, cp: { cp_id: number; loc_id: number }, form: StartForm, timeZone: string): Promise<CheckedStart | { errorCode: number }> {
  let inTime: Date | null = null;
  const entry = text(form.entryTime);
  if (entry) {
    inTime = parseEntryTime(entry, timeZone);
    if (!inTime) return { errorCode: ERROR_CODES.ENTRY_TIME };
  }
  const givenBay = text(form.bayId);
  if (givenBay) {
    const [bay] = await sql.query<{ id: number; bayId: string }>(
      `SELECT id, "bayId" FROM bay WHERE "cpId" = $1 AND "connectorId" = $2 AND deleted_at IS NULL ORDER BY id LIMIT 1`,
      [cp.cp_id, form.connectorId],
    );
    if (!bay || (bay.bayId !== givenBay && String(bay.id) !== givenBay)) return { errorCode: ERROR_CODES.BAY_OCCUPIED };
  }
  if (!text(form.lp)) {
    const [lprs] = await sql.query(`SELECT 1 FROM cp_config WHERE cp_id = $1 AND current = 1 AND config_json->'LPRS'->>'Value' = 'Yes'`, [cp.cp_id]);
    if (lprs) return { errorCode: ERROR_CODES.LICENSE_PLATE };
  }
  const account = await memberAccount(sql, form.memberId, cp.loc_id);
  if (account === 'refused') return { errorCode: ERROR_CODES.MEMBER_INVALID };
  if (account?.mobile && text(form.startCode) !== account.mobile.slice(-4)) return { errorCode: ERROR_CODES.MOBILE_LAST4 };
  return { accountId: account?.accountId ?? null, inTime };
}

/**
 * Spec 10017: the connector says no cable is in it. A socket charger (its current configuration's
 * Type is Socket) charges through the driver's own cable, so an Available connector has none; a
 * charger with a tethered cable (Type Cable) or without a configuration starts and waits for the plug.
 */
export async function cableMissing(sql: Sql, cpId: number, status: string | null): Promise<boolean> {
  if (status !== 'Available') return false;
  const [socket] = await sql.query(`SELECT 1 FROM cp_config WHERE cp_id = $1 AND current = 1 AND config_json->'Type'->>'Value' = 'Socket'`, [cpId]);
  return !!socket;
}
