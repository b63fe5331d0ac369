import { ERROR_CODES, getResource, OPEN_RESERVATION_STATUSES, type ActionResult, type ReservationStatus } from '@ev/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest } from '../http/errors.ts';
import { createRecord, getRecord } from '../resources/engine.ts';
import { commandableCharger, connected, sendCommand } from '../ocpp/routes.ts';
import { OPEN } from './parent.ts';

const def = getResource('reservations')!;
const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });
/** What a charger may answer ReserveNow (OCPP 1.6 ReservationStatus). */
const CHARGER_ANSWERS = new Set<string>(['Accepted', 'Faulted', 'Occupied', 'Rejected', 'Unavailable']);

/**
 * A date and time as an instant: with its offset (…Z, …+08:00) as it says, without one in the portal's
 * time zone (the form's YYYY-MM-DD HH:mm:ss, as lists show dates). Anything else is left to the engine's check.
 */
async function instant(sql: Sql, value: unknown, timeZone: string): Promise<unknown> {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value.replace(' ', 'T')))) return value;
  if (/(Z|[+-]\d\d:?\d\d)$/i.test(value.trim())) return new Date(value).toISOString();
  const [row] = await sql.query<{ at: Date }>(`SELECT ($1::timestamp AT TIME ZONE $2) AS at`, [value, timeZone]);
  return new Date(row.at).toISOString();
}

/**
 * A new reservation: stored Pending (the engine validates it, the hook checks charger, connector, card and
 * expiry, the action log has the CREATE), then ReserveNow with the row id as reservationId, then the row takes
 * the charger's answer. Success only when the charger Accepted; otherwise the spec's errorCode with the
 * charger's answer in data. A charger that is not connected is refused before anything is stored.
 */
export async function reserve(app: FastifyInstance, log: FastifyBaseLogger, user: AuthUser, body: Record<string, unknown>): Promise<ActionResult> {
  const cp = await commandableCharger(app, user, Number(body.cp_id));
  if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
  if (cp.enable_flag !== 1) return refused(ERROR_CODES.CP_ACTIVATION);
  if (!(await connected(app, cp.cp_id))) return refused(ERROR_CODES.CP_OFFLINE);
  const input = { ...body, expiry_dttm: await instant(app.db, body.expiry_dttm, app.config.timeZone) };
  const created = await createRecord(app.db, def, input, user, app.config.timeZone);
  const id = Number(created.reservation_id);
  const [row] = await app.db.query<{ connector_id: number; id_tag: string; parent_id_tag: string | null; expiry_dttm: Date }>(
    `SELECT connector_id, id_tag, parent_id_tag, expiry_dttm FROM reservations WHERE reservation_id = $1`,
    [id],
  );
  const params = {
    connectorId: row.connector_id,
    expiryDate: new Date(row.expiry_dttm).toISOString(),
    idTag: row.id_tag,
    reservationId: id,
    ...(row.parent_id_tag ? { parentIdTag: row.parent_id_tag } : {}),
  };
  const result = await sendCommand(app, log, user, cp, 'ReserveNow', params);
  const said = (result.data as { status?: unknown } | undefined)?.status;
  const answer = typeof said === 'string' ? said : (result.message ?? 'No answer');
  // No answer (timeout, disconnected) holds nothing for sure: Rejected, with why in the answer.
  const status: ReservationStatus = typeof said === 'string' && CHARGER_ANSWERS.has(said) ? (said as ReservationStatus) : 'Rejected';
  await app.db.query(
    `UPDATE reservations SET status = $2, answer = $3, ended_dttm = CASE WHEN $2 = 'Accepted' THEN NULL ELSE now() END, lupd_dttm = now()
      WHERE reservation_id = $1 AND status = 'Pending'`,
    [id, status, answer],
  );
  const data = await getRecord(app.db, def, id, user, app.config.timeZone);
  return result.status === 'success' ? { status: 'success', data } : { ...result, data: { ...data, answer } };
}

/**
 * Cancels an open reservation (CancelReservation). Accepted: the reservation is Cancelled. Rejected (the
 * charger holds no such reservation) leaves it as it is and answers the charger's word.
 */
export async function cancel(app: FastifyInstance, log: FastifyBaseLogger, user: AuthUser, id: number): Promise<ActionResult> {
  const [r] = await app.db.query<{ cp_id: number; status: string }>(`SELECT cp_id, status FROM reservations WHERE reservation_id = $1`, [id]);
  const cp = r ? await commandableCharger(app, user, r.cp_id) : null;
  if (!r || !cp) return refused(ERROR_CODES.CP_NOT_FOUND);
  if (!OPEN_RESERVATION_STATUSES.includes(r.status as ReservationStatus)) throw badRequest('status: not_editable', { status: 'not_editable' });
  const result = await sendCommand(app, log, user, cp, 'CancelReservation', { reservationId: id });
  if (result.status === 'success') {
    await app.db.query(
      `UPDATE reservations SET status = 'Cancelled', ended_dttm = now(), lupd_dttm = now() WHERE reservation_id = $1 AND ${OPEN}`,
      [id],
    );
  }
  return result;
}

/**
 * A StartTransaction ends the reservation it names (reservationId of this charger), or else an open one of
 * this charger held for the same card on that connector or any: Used, linked to the session.
 */
export async function useOnStart(sql: Sql, cpId: number, p: { connectorId: number; idTag: string; reservationId?: number }, transactionId: number): Promise<number | null> {
  const [used] = await sql.query<{ reservation_id: number }>(
    `UPDATE reservations r SET status = 'Used', ended_dttm = now(), lupd_dttm = now(),
            session_id = (SELECT session_id FROM cp_sessions WHERE cp_id = $1 AND tran_id = $4 ORDER BY session_id DESC LIMIT 1)
      WHERE r.reservation_id = (
        SELECT reservation_id FROM reservations
         WHERE cp_id = $1 AND ${OPEN}
           AND (reservation_id = $5 OR ($5::int IS NULL AND upper(id_tag) = upper($3) AND connector_id IN (0, $2)))
         ORDER BY reservation_id LIMIT 1)
      RETURNING r.reservation_id`,
    [cpId, p.connectorId, p.idTag, transactionId, p.reservationId ?? null],
  );
  return used?.reservation_id ?? null;
}

/** Open reservations whose expiry has come: Expired (the charger ends them by itself at the same time). */
export async function expireReservations(sql: Sql, now = new Date()): Promise<number> {
  const rows = await sql.query(
    `UPDATE reservations SET status = 'Expired', ended_dttm = expiry_dttm, lupd_dttm = now()
      WHERE ${OPEN} AND expiry_dttm <= $1 RETURNING reservation_id`,
    [now.toISOString()],
  );
  return rows.length;
}
