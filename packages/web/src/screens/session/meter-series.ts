import dayjs from 'dayjs';
import { requestTypeId } from '@ev/core';

/** The charger requests a session's pop-view reads: its start, its meter values and its stop. */
export const SESSION_REQUEST_TYPES = ['StartTransaction', 'MeterValues', 'StopTransaction'] as const;
export type SessionRequestType = (typeof SESSION_REQUEST_TYPES)[number];

/** A 2.0.1 station says all three in TransactionEvents (its eventType tells which) and MeterValues. */
const TRANSACTION_EVENT = requestTypeId('TransactionEvent', 'in', 'ocpp2.0.1')!;
const EVENT_TYPES: Record<string, SessionRequestType> = { Started: 'StartTransaction', Updated: 'MeterValues', Ended: 'StopTransaction' };

const TYPE_BY_ID = new Map<number | undefined, SessionRequestType>([
  ...SESSION_REQUEST_TYPES.map((action) => [requestTypeId(action, 'in'), action] as const),
  [requestTypeId('MeterValues', 'in', 'ocpp2.0.1'), 'MeterValues'],
]);

/** Rows fetched for one session (spec part 1 §7, §9: session meter-reading fetch 50000 rows). */
export const SESSION_METER_FETCH = 50_000;

/** The query of GET /api/cp_requests for a session's readings, oldest first. */
export const sessionMeterQuery = (sessionId: number) => ({
  session_id: sessionId,
  // The spec's call names the 1.6 types; a 2.0.1 station's rows are asked by id (their labels carry the version).
  type: [...SESSION_REQUEST_TYPES, requestTypeId('MeterValues', 'in', 'ocpp2.0.1'), TRANSACTION_EVENT].join(','),
  size: SESSION_METER_FETCH,
  order: 'asc',
  sort_by: 'req_id',
});

/** The fields of a cp_requests row the pop-view reads. */
export interface SessionRequestRow {
  req_id: number;
  request_type: number | null;
  cre_dttm: string | null;
  /** Energy register, Wh (StartTransaction: meterStart; StopTransaction: meterStop). */
  energy: number | string | null;
  voltage: number | string | null;
  ampere: number | string | null;
  /** Read for a 2.0.1 TransactionEvent only: its eventType. */
  request_data?: { eventType?: string } | null;
}

/** One reading: time in ms, energy in kWh, voltage, current; null where the row holds none. */
export interface MeterPoint {
  key: number;
  type: SessionRequestType | null;
  time: number | null;
  kwh: number | null;
  v: number | null;
  a: number | null;
}

function typeOf(r: SessionRequestRow): SessionRequestType | null {
  if (r.request_type === TRANSACTION_EVENT) return EVENT_TYPES[r.request_data?.eventType ?? ''] ?? null;
  return TYPE_BY_ID.get(r.request_type ?? undefined) ?? null;
}

const num = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/**
 * cp_requests rows into readings, in the order given (req_id ascending: the order the central
 * system received them). Energy is divided by 1000 (Wh → kWh). Rows with no value at all (a
 * MeterValues of SoC only, say) are left out.
 */
export function meterPoints(rows: readonly SessionRequestRow[]): MeterPoint[] {
  const points: MeterPoint[] = [];
  for (const r of rows) {
    const wh = num(r.energy);
    const point: MeterPoint = {
      key: r.req_id,
      type: typeOf(r),
      time: r.cre_dttm ? dayjs(r.cre_dttm).valueOf() : null,
      kwh: wh === null ? null : wh / 1000,
      v: num(r.voltage),
      a: num(r.ampere),
    };
    if (point.kwh !== null || point.v !== null || point.a !== null) points.push(point);
  }
  return points;
}

/** The chart's three series as [time ms, value] pairs, skipping readings without that value or without a time. */
export function chartSeries(points: readonly MeterPoint[]): Record<'kwh' | 'a' | 'v', [number, number][]> {
  const series = (key: 'kwh' | 'a' | 'v') =>
    points.filter((p) => p.time !== null && Number.isFinite(p.time) && p[key] !== null).map((p): [number, number] => [p.time!, p[key]!]);
  return { kwh: series('kwh'), a: series('a'), v: series('v') };
}

/** Meter-table cells: energy in kWh with 3 decimals (spec part 1 §9), V and A as received; '' where absent. */
export function tableCells(p: MeterPoint): { time: string; kwh: string; v: string; a: string } {
  return {
    time: p.time === null || !Number.isFinite(p.time) ? '' : dayjs(p.time).format('YYYY-MM-DD HH:mm:ss'),
    kwh: p.kwh === null ? '' : p.kwh.toFixed(3),
    v: p.v === null ? '' : String(p.v),
    a: p.a === null ? '' : String(p.a),
  };
}

/** Whether the charger sent any meter value during the session (start and stop alone do not count). */
export const hasMeterValues = (points: readonly MeterPoint[]) => points.some((p) => p.type === 'MeterValues');
