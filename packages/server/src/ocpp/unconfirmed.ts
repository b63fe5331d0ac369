import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { P, readPrivilege, type StopReason } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import { finishRsr } from '../rsr/finish.ts';
import { closedAtLastMeter } from './transactions.ts';

/**
 * Sessions that never end. A charger that loses its connection as a transaction starts may come
 * back without ever sending that StopTransaction; its session would run for ever. Once the charger
 * shows the session is over — the connector reports Available after the start (OCPP 1.6 has no
 * transaction in that state), or the charger boots (a reboot ends every transaction) — the session
 * is flagged unconfirmed (unconfirmed_since, unconfirmed_reason). It still counts as running: a
 * StopTransaction queued by the charger may follow, and closes it as usual. An operator may close
 * it (POST /api/cp_sessions/{id}/close), and app_config unconfirmed_auto_close_hours closes it by
 * itself (housekeeping/unconfirmed-sessions.ts). A new StartTransaction on the connector closes it
 * at once (transactions.ts). Preparing is not taken as a sign: some chargers report it just after
 * their StartTransaction.
 */

/** Flags the connector's running sessions (every connector's at a boot) that started before `at`. */
export async function flagUnconfirmed(sql: Sql, cpId: number, connectorId: number | null, at: string, reason: 'Available' | 'Boot'): Promise<void> {
  await sql.query(
    `UPDATE cp_sessions SET unconfirmed_since = $3, unconfirmed_reason = $4, lupd_dttm = now()
      WHERE cp_id = $1 AND ($2::int IS NULL OR connector_id = $2) AND session_end_time IS NULL
        AND unconfirmed_since IS NULL AND session_start_time < $3`,
    [cpId, connectorId, at, reason],
  );
}

export interface ClosedSession {
  session_id: number;
  tran_id: number;
  cp_id: number;
  session_end_time: Date;
  end_meter: number;
  total_pw_consume: number;
  unconfirmed_since: Date | null;
  unconfirmed_reason: string | null;
}

/**
 * Closes a running session without its StopTransaction, audited, and finishes its remote start
 * request (RSR) as a stop would. It ends when the charger showed it was over (unconfirmed_since),
 * else now. Null when it had already ended. A StopTransaction arriving later is still answered and
 * logged, and leaves the closed session as it is (transactions.ts closes only running ones).
 */
export async function closeSession(
  app: FastifyInstance,
  sessionId: number,
  close: { reason: Extract<StopReason, 'ClosedByOperator' | 'ClosedUnconfirmed'>; note: string; user?: AuthUser },
): Promise<ClosedSession | null> {
  const closed = await app.db.tx(async (sql) => {
    const [row] = await sql.query<ClosedSession>(
      `UPDATE cp_sessions s SET ${closedAtLastMeter('coalesce(s.unconfirmed_since, now())')}, stop_reason = $2, stop_note = $3
        WHERE session_id = $1 AND session_end_time IS NULL
        RETURNING session_id, tran_id, cp_id, session_end_time, end_meter, total_pw_consume, unconfirmed_since, unconfirmed_reason`,
      [sessionId, close.reason, close.note],
    );
    if (!row) return null;
    await writeAudit(sql, close.user, {
      action: 'UPDATE',
      target: 'cp_sessions',
      targetId: sessionId,
      oldData: { session_end_time: null, unconfirmed_since: row.unconfirmed_since, unconfirmed_reason: row.unconfirmed_reason },
      newData: { session_end_time: row.session_end_time, end_meter: row.end_meter, total_pw_consume: row.total_pw_consume, stop_reason: close.reason, stop_note: close.note },
      remark: close.user ? 'close' : 'auto-close',
    });
    return row;
  });
  if (!closed) return null;
  const [rsr] = await app.db.query<{ rsr_id: number }>(
    `SELECT rsr_id FROM cp_rsr WHERE cp_id = $1 AND tran_id = $2 AND status IN ('Charging', 'UnderPenalty') ORDER BY rsr_id DESC LIMIT 1`,
    [closed.cp_id, closed.tran_id],
  );
  if (rsr) await finishRsr(app, { rsrId: rsr.rsr_id, at: new Date(closed.session_end_time), reason: close.reason, note: close.note });
  return closed;
}

const SESSION_LISTS = ['cp_sessions', 'cp_sessions_all'];
const CloseBody = z.strictObject({ reason: z.string().trim().min(1).max(500) });
const ClosedAnswer = z.object({
  status: z.literal('success'),
  data: z.object({
    session_id: z.number(),
    tran_id: z.number(),
    cp_id: z.number(),
    session_end_time: z.date(),
    end_meter: z.number(),
    total_pw_consume: z.number(),
    unconfirmed_since: z.date().nullable(),
    unconfirmed_reason: z.string().nullable(),
  }) satisfies z.ZodType<ClosedSession>,
});

/**
 * POST /api/{cp_sessions|cp_sessions_all}/{id}/close {reason}: an operator closes a running session
 * the charger never stopped (EDIT_CLOSE_SESSION, and reading the list it is closed from). A session
 * outside the user's sites is not found; one already ended is refused (409 session_already_ended).
 */
export function closeSessionRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const key of SESSION_LISTS) {
    app.post(`/api/${key}/:id/close`, {
      schema: { params: idParams, body: CloseBody, response: { 200: ClosedAnswer } },
      config: { doc: { summary: 'Close a running session without its StopTransaction', privileges: [readPrivilege(key), P.CLOSE_SESSION] } },
    }, async (req) => {
      const user = requirePrivileges(req, readPrivilege(key), P.CLOSE_SESSION);
      const { id } = req.params;
      const { reason } = req.body;
      const [session] = await app.db.query<{ loc_id: number | null; session_end_time: Date | null }>(
        `SELECT loc_id, session_end_time FROM cp_sessions WHERE session_id = $1`,
        [id],
      );
      if (!session || !(user.allSites || (session.loc_id !== null && user.siteIds.includes(session.loc_id)))) throw notFound('No such session');
      const closed = session.session_end_time ? null : await closeSession(app, id, { reason: 'ClosedByOperator', note: reason, user });
      if (!closed) throw new HttpError(409, { errors: ['session_already_ended'], fields: {}, message: 'The session has already ended' });
      return { status: 'success' as const, data: closed };
    });
  }
}
