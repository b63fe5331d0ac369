import type { MeterRow } from './batch-writer.ts';
import { cardStatus } from './authorization.ts';
import type { HandlerContext, MessageHandler } from './handler-types.ts';
import { int32 } from './protocol.ts';
import { latest, readings, type MeterValue, type Reading } from './meter-values.ts';

/** An idTag is accepted at start if a card allows it here or the portal just asked for it (remote start). */
export async function idTagStatus({ cs, conn }: HandlerContext, idTag: string) {
  const cpId = conn.charger.cpId;
  // A remote start links the account its member ID named, else the card's holder (if any).
  if (cs.remoteStarts.has(cpId, idTag)) {
    return { status: 'Accepted' as const, accountId: cs.remoteStarts.accountOf(cpId, idTag) ?? (await cardStatus(cs.db, conn.charger, idTag)).accountId };
  }
  return cardStatus(cs.db, conn.charger, idTag);
}

/** A value for a bigint column, or null when a charger sends something no meter can show. */
const int8 = (n: number | null) => (n !== null && Math.abs(n) <= Number.MAX_SAFE_INTEGER ? n : null);

function meterRows(ctx: HandlerContext, sessionId: number | null, connectorId: number | null, rs: Reading[]): MeterRow[] {
  const cpId = ctx.conn.charger.cpId;
  const out: MeterRow[] = [];
  for (const r of rs) {
    out.push({ session_id: sessionId, cp_id: cpId, connector_id: connectorId, ts: r.ts, energy: int8(r.energy), voltage: r.voltage, ampere: r.ampere, soc: r.soc });
  }
  return out;
}

/**
 * The SET of a session closed by the central system at `end` (a SQL expression): the energy is the
 * last meter reading it had (its start reading when none came), the SoC its last one.
 */
export const closedAtLastMeter = (end: string) => `session_end_time = ${end}, end_meter = coalesce(s.energy, s.start_meter),
  total_pw_consume = greatest(coalesce(s.energy, s.start_meter) - s.start_meter, 0),
  running_pw_consume = greatest(coalesce(s.energy, s.start_meter) - s.start_meter, 0),
  total_charge_time = greatest(extract(epoch FROM (${end} - s.session_start_time)), 0)::int,
  end_soc = (SELECT round(m.soc)::smallint FROM cp_meter_values m
              WHERE m.session_id = s.session_id AND m.soc IS NOT NULL ORDER BY m.ts DESC LIMIT 1),
  lupd_dttm = now()`;

/**
 * Creates the session. The transactionId is the session id. A StartTransaction sent again (the
 * charger lost our answer, or replays its offline queue) with the same connector, idTag and
 * timestamp finds the session it created the first time and gets the same transactionId; the
 * unique index makes that hold under concurrency too. A session still running on the connector
 * lost its StopTransaction: it is closed first, at the new start, with the energy last metered.
 * A remote start with a duration gives the session its planned end (see planned-stops.ts).
 * A start whose idTag is refused still gets its transactionId (OCPP 1.6 §4.8), but its session is
 * recorded closed at its start, with the refusal, so it is never taken for a running session.
 * Called for a 2.0.1 TransactionEvent (v201/transaction-event.ts), p also carries the charger's own
 * ocppTransactionId, and withoutIdToken for a transaction that started before an idToken was given.
 */
export const startTransaction: MessageHandler = async (ctx, p) => {
  const { cs, conn } = ctx;
  const { cpId, cpNo, locId } = conn.charger;
  const connectorId = int32('connectorId', p.connectorId)!;
  const startDate = new Date(p.timestamp);
  const start = startDate.toISOString();
  const key = [cpId, connectorId, p.idTag, start];
  const minutes = cs.remoteStarts.takeMinutes(cpId, p.idTag);
  const plannedEnd = minutes ? new Date(startDate.getTime() + minutes * 60_000).toISOString() : null;
  // A 2.0.1 transaction may start before anyone is identified (cable plugged in): its idToken comes later (v201/).
  const { status, accountId } = p.withoutIdToken ? { status: 'Accepted', accountId: null } : await idTagStatus(ctx, p.idTag);
  const { session, stale } = await cs.db.tx(async (sql) => {
    const stale = await sql.query<{ session_id: number; tran_id: number }>(
      `UPDATE cp_sessions s SET ${closedAtLastMeter('$3::timestamptz')}, stop_reason = 'Other', stop_note = $4
        WHERE cp_id = $1 AND connector_id = $2 AND session_end_time IS NULL AND session_start_time < $3
        RETURNING session_id, tran_id`,
      [cpId, connectorId, start, 'No StopTransaction received: closed when the next StartTransaction on the connector began'],
    );
    let [session] = await sql.query(
      `WITH id AS (SELECT nextval(pg_get_serial_sequence('cp_sessions', 'session_id'))::int AS v)
       INSERT INTO cp_sessions (session_id, tran_id, cp_id, connector_id, id_tag, session_start_time, cp_no, loc_id,
                                start_meter, planned_end_dttm, id_tag_status, account_id, connector_name,
                                session_end_time, end_meter, total_pw_consume, total_charge_time, stop_reason, stop_note,
                                ocpp_transaction_id)
       SELECT v, v, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
              (SELECT connector_name FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2),
              r.end_time, r.end_meter, r.zero, r.zero, r.reason, r.note, $11::text
         FROM id
         LEFT JOIN (SELECT $4::timestamptz AS end_time, $7::int8 AS end_meter, 0 AS zero, 'DeAuthorized' AS reason,
                           'idTag ' || $9 || ' at StartTransaction: refused, not charged' AS note) r ON $9 <> 'Accepted'
       ON CONFLICT (cp_id, connector_id, id_tag, session_start_time) DO NOTHING
       RETURNING session_id, tran_id`,
      [...key, cpNo, locId, int8(p.meterStart) ?? 0, plannedEnd, status, accountId, p.ocppTransactionId ?? null],
    );
    session ??= (
      await sql.query(
        `SELECT session_id, tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = $2 AND id_tag = $3 AND session_start_time = $4`,
        key,
      )
    )[0];
    return { session, stale };
  });
  for (const old of stale) {
    conn.forgetTransaction(old.tran_id);
    cs.log.warn({ cpNo, connectorId, tranId: old.tran_id, newTranId: session.tran_id }, 'OCPP session without StopTransaction closed by a new start');
  }
  conn.rememberTransaction(session.tran_id, { sessionId: session.session_id, connectorId });
  return {
    response: { transactionId: session.tran_id, idTagInfo: { status } },
    row: { session_id: session.session_id, tran_id: session.tran_id, cre_dttm: startDate, energy: int8(p.meterStart) },
  };
};

/** The session of a transactionId of this charger (another charger's id is unknown here). */
async function findSession(ctx: HandlerContext, tranId: number): Promise<{ sessionId: number; connectorId: number } | null> {
  const known = ctx.conn.knownTransaction(tranId);
  if (known) return known;
  const [row] = await ctx.cs.db.query(
    `SELECT session_id, connector_id FROM cp_sessions WHERE tran_id = $1 AND cp_id = $2 ORDER BY session_id DESC LIMIT 1`,
    [tranId, ctx.conn.charger.cpId],
  );
  return row ? { sessionId: row.session_id, connectorId: row.connector_id } : null;
}

/**
 * Closes the session with the meter reading and time the charger reports. A stop for a
 * transaction we do not know (started under another central system, or its start was lost) is
 * still answered and recorded in cp_requests with its transactionId, never dropped. A session
 * refused at its start takes the reading too (a charger may go on charging; OCPP 1.6
 * StopTransactionOnInvalidId), keeping its refusal as the reason (a 2.0.1 transaction whose idToken
 * was refused after its start has none: it takes the stop's). The stop confirms a session flagged
 * unconfirmed (unconfirmed.ts); one the central system already closed is left as it is.
 */
export const stopTransaction: MessageHandler = async (ctx, p) => {
  const { cs, conn } = ctx;
  const tranId = int32('transactionId', p.transactionId)!;
  const stop = new Date(p.timestamp);
  const rs = readings((p.transactionData ?? []) as MeterValue[]);
  const last = latest(rs);
  const meterStop = int8(p.meterStop);
  const [closed] = await cs.db.query(
    `UPDATE cp_sessions s
        SET session_end_time = $3, end_meter = $4,
            total_pw_consume = greatest($4 - start_meter, 0), running_pw_consume = greatest($4 - start_meter, 0),
            total_charge_time = greatest(extract(epoch FROM ($3::timestamptz - session_start_time)), 0)::int,
            stop_reason = CASE WHEN s.id_tag_status <> 'Accepted' THEN coalesce(s.stop_reason, $5) ELSE $5 END,
            end_soc = coalesce(round($6::float8)::smallint,
                               (SELECT round(m.soc)::smallint FROM cp_meter_values m
                                 WHERE m.session_id = s.session_id AND m.soc IS NOT NULL ORDER BY m.ts DESC LIMIT 1)),
            energy = $4, unconfirmed_since = NULL, unconfirmed_reason = NULL, lupd_dttm = now()
      WHERE tran_id = $1 AND cp_id = $2 AND (session_end_time IS NULL OR id_tag_status <> 'Accepted')
      RETURNING session_id, connector_id`,
    // OCPP 1.6 §6.48: no reason means Local.
    [tranId, conn.charger.cpId, stop.toISOString(), meterStop, p.reason ?? 'Local', last.soc],
  );
  const session = closed ? { sessionId: closed.session_id, connectorId: closed.connector_id } : await findSession(ctx, tranId);
  conn.forgetTransaction(tranId);
  const response = p.idTag ? { idTagInfo: { status: (await idTagStatus(ctx, p.idTag)).status } } : {};
  return {
    response,
    row: {
      session_id: session?.sessionId ?? null,
      tran_id: tranId,
      connector_id: session?.connectorId ?? null,
      cre_dttm: stop,
      energy: meterStop,
      voltage: last.voltage,
      ampere: last.ampere,
    },
    meters: meterRows(ctx, session?.sessionId ?? null, session?.connectorId ?? null, rs),
  };
};

/**
 * Meter readings go to cp_meter_values (per session when the transaction is known) and the
 * session's running energy; the cp_requests row carries the newest energy, voltage and current.
 * The message's own timestamps are kept, so readings replayed from an offline queue land where
 * they were taken.
 */
export const meterValues: MessageHandler = async (ctx, p) => {
  const connectorId = int32('connectorId', p.connectorId);
  const tranId = int32('transactionId', p.transactionId);
  const session = tranId !== null ? await findSession(ctx, tranId) : null;
  const rs = readings(p.meterValue as MeterValue[]);
  const last = latest(rs);
  const energy = int8(last.energy);
  return {
    response: {},
    row: {
      session_id: session?.sessionId ?? null,
      tran_id: tranId,
      cre_dttm: p.meterValue?.[0]?.timestamp ? new Date(p.meterValue[0].timestamp) : null,
      energy,
      voltage: last.voltage,
      ampere: last.ampere,
    },
    meters: meterRows(ctx, session?.sessionId ?? null, connectorId, rs),
    progress: session ? [{ session_id: session.sessionId, energy, voltage: last.voltage, ampere: last.ampere, soc: last.soc }] : [],
  };
};
