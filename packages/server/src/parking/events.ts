import { ERROR_CODES } from '@ev/core';
import { z } from 'zod';
import type { AuthUser } from '../auth/session.ts';
import type { Database, Sql } from '../db/client.ts';
import type { HttpError } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { activeRsr, BAY_COLUMNS, occupiedByAnotherBay, type BayRow } from './bays.ts';

/** Refusals of a parking event besides the spec's 40006 (the codes the parking system is told, kept in bay_log.errorCode). */
export const PARKING_REFUSALS = {
  UNKNOWN_BAY: 'unknown_bay',
  CAR_NOT_IN: 'car_not_in',
  BAD_INPUT: 'bad_input',
} as const;

const text = (max: number) => z.string().trim().min(1).max(max);
export const ParkingEventBody = z.strictObject({
  event: z.enum(['in', 'out']),
  /** The parking system's id of the bay (bay.bayId). */
  bayId: text(100),
  /** The parking system's session of the car: the same for its in and its out. */
  sessionId: text(100),
  licensePlate: text(20).nullish(),
  brand: text(50).nullish(),
  /** A reference to the picture kept by the parking system (a URL or its own key), never the picture. */
  image: text(1000).nullish(),
  time: z.iso.datetime({ offset: true }),
});
export type ParkingEvent = z.output<typeof ParkingEventBody>;

/** The answer to an event: the bay's new status and the bay_log row, or a refusal (a spec code or PARKING_REFUSALS). */
export const ParkingAnswerSchema = z.object({
  status: z.enum(['success', 'error']),
  errorCode: z.union([z.int(), z.string()]).optional(),
  message: z.string().optional(),
  data: z.object({ bay: z.int(), status: z.string(), logId: z.int(), repeated: z.boolean().optional() }).optional(),
});
export type ParkingAnswer = z.output<typeof ParkingAnswerSchema>;

const refused = (errorCode: number | string, message: string): ParkingAnswer => ({ status: 'error', errorCode, message });
const clip = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : null);

interface LogEntry {
  sessionId: unknown;
  event: unknown;
  bay?: BayRow | null;
  bayUpdateStatus: string;
  relatedRsr?: number | null;
  licensePlate?: unknown;
  brand?: unknown;
  image?: unknown;
  inTime?: string | null;
  outTime?: string | null;
  answer: ParkingAnswer;
}

async function writeLog(sql: Sql, e: LogEntry): Promise<number> {
  const status = e.event === 'in' ? 'In' : e.event === 'out' ? 'Out' : null;
  const [row] = await sql.query<{ id: number }>(
    `INSERT INTO bay_log ("sessionId", status, "requestStatus", "bayUpdateStatus", "relatedRsr", "bayId", brand, "licensePlate",
       "imageLocalPath", "locId", "mallId", "inTime", "outTime", "errorCode", response)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      clip(e.sessionId, 100), status, e.answer.status === 'success' ? 'Accepted' : 'Refused', e.bayUpdateStatus, e.relatedRsr ?? null,
      e.bay?.id ?? null, clip(e.brand, 50), clip(e.licensePlate, 20), clip(e.image, 1000), e.bay?.locId ?? null, e.bay?.mallId ?? null,
      e.inTime ?? null, e.outTime ?? null, e.answer.errorCode === undefined ? null : String(e.answer.errorCode), JSON.stringify(e.answer),
    ],
  );
  return row.id;
}

/** The accepted In of the car now in the bay (its latest), if any. */
async function lastAcceptedIn(sql: Sql, bayId: number): Promise<{ sessionId: string } | undefined> {
  const [row] = await sql.query<{ sessionId: string }>(
    `SELECT "sessionId" FROM bay_log WHERE "bayId" = $1 AND status = 'In' AND "requestStatus" = 'Accepted' ORDER BY id DESC LIMIT 1`,
    [bayId],
  );
  return row;
}

/**
 * Bad input of an event (the route's body schema refused it, 400): still kept in bay_log, with
 * whatever could be read of it, as a refusal that changed nothing.
 */
export async function logBadParkingEvent(db: Database, body: unknown, err: HttpError): Promise<void> {
  const raw = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors = Array.isArray(err.body.errors) ? (err.body.errors as string[]).join('; ') : err.message;
  const { sessionId, event, licensePlate, brand, image } = raw;
  await writeLog(db, { sessionId, event, licensePlate, brand, image, bayUpdateStatus: 'Unchanged', answer: refused(PARKING_REFUSALS.BAD_INPUT, errors) });
}

/**
 * One event of the parking system (spec part 2 §3, §4), as the route's body schema read it: a car in
 * occupies the bay with its plate, brand, entry time and image; a car out vacates it. Every event is
 * kept in bay_log, accepted or refused (bad input: logBadParkingEvent); a refusal changes nothing
 * else. The same sessionId and event again answers as the first time and changes nothing. `actor`
 * names the app in the audit log.
 */
export async function recordParkingEvent(db: Database, actor: string, ev: ParkingEvent): Promise<ParkingAnswer> {
  return db.tx(async (sql) => {
    // Locked: a repeated event arriving twice at once is seen as a repeat by the second.
    const [bay] = await sql.query<BayRow>(`SELECT ${BAY_COLUMNS} FROM bay WHERE "bayId" = $1 AND deleted_at IS NULL FOR UPDATE`, [ev.bayId]);
    const base = {
      sessionId: ev.sessionId, event: ev.event, licensePlate: ev.licensePlate, brand: ev.brand, image: ev.image, bay,
      inTime: ev.event === 'in' ? ev.time : null, outTime: ev.event === 'out' ? ev.time : null,
    };
    if (!bay) {
      const answer = refused(PARKING_REFUSALS.UNKNOWN_BAY, `No bay ${ev.bayId}`);
      await writeLog(sql, { ...base, bayUpdateStatus: 'Unchanged', answer });
      return answer;
    }
    const [repeat] = await sql.query<{ response: string }>(
      `SELECT response FROM bay_log WHERE "bayId" = $1 AND "sessionId" = $2 AND status = $3 AND "requestStatus" = 'Accepted' ORDER BY id LIMIT 1`,
      [bay.id, ev.sessionId, ev.event === 'in' ? 'In' : 'Out'],
    );
    if (repeat) {
      const first = JSON.parse(repeat.response) as ParkingAnswer;
      return { ...first, data: { ...first.data!, repeated: true } };
    }
    const rsr = await activeRsr(sql, bay.cpId, bay.connectorId);
    const logged = { ...base, relatedRsr: rsr?.rsr_id ?? null };

    let refusal: ParkingAnswer | null = null;
    if (ev.event === 'in' && (await occupiedByAnotherBay(sql, bay))) {
      refusal = refused(ERROR_CODES.BAY_OCCUPIED, 'The charger is occupied by another bay');
    } else if (ev.event === 'out' && (bay.status !== 'Occupied' || (await lastAcceptedIn(sql, bay.id))?.sessionId !== ev.sessionId)) {
      refusal = refused(PARKING_REFUSALS.CAR_NOT_IN, `No car of session ${ev.sessionId} is in bay ${ev.bayId}`);
    }
    if (refusal) {
      await writeLog(sql, { ...logged, bayUpdateStatus: 'Unchanged', answer: refusal });
      return refusal;
    }

    const [after] = await sql.query<BayRow>(
      ev.event === 'in'
        ? `UPDATE bay SET status = 'Occupied', "licensePlate" = $2, brand = $3, "inTime" = $4, image = $5, "outTime" = NULL, lupd_dttm = now()
            WHERE id = $1 RETURNING ${BAY_COLUMNS}`
        : `UPDATE bay SET status = 'Vacant', "outTime" = $2, lupd_dttm = now() WHERE id = $1 RETURNING ${BAY_COLUMNS}`,
      ev.event === 'in' ? [bay.id, ev.licensePlate ?? null, ev.brand ?? null, ev.time, ev.image ?? null] : [bay.id, ev.time],
    );
    const answer: ParkingAnswer = { status: 'success', data: { bay: bay.id, status: after.status, logId: 0 } };
    // The log id is part of the answer, so the answer is written once the id is known.
    const logId = await writeLog(sql, { ...logged, bayUpdateStatus: after.status, inTime: after.inTime, outTime: after.outTime, answer });
    answer.data!.logId = logId;
    await sql.query(`UPDATE bay_log SET response = $2 WHERE id = $1`, [logId, JSON.stringify(answer)]);
    // An app has no user row (id kept null): its name says who it was.
    await writeAudit(sql, { id: null, username: actor } as unknown as Pick<AuthUser, 'id' | 'username'>, { action: 'UPDATE', target: 'bay', targetId: bay.id, oldData: bay, newData: after, remark: `parking ${ev.event} ${ev.sessionId}` });
    return answer;
  });
}
