import { requestTypeId } from '@ev/core';
import type { Handled, HandlerContext, MessageHandler } from '../handler-types.ts';
import { statusNotification } from '../charger-messages.ts';
import { latest, readings, type MeterValue } from '../meter-values.ts';
import { idTagStatus, meterValues, startTransaction, stopTransaction } from '../transactions.ts';
import {
  forgetSession, knownSession, rememberSession, startNoLongerWaiting, statusChanged, surelyNew, waitForEvse, waitingStart, type KnownSession,
} from './known-transactions.ts';
import { OCCUPIED, meterValue16, statusFromChargingState, stopReason16, type MeterValue201 } from './messages.ts';

interface TransactionEventRequest {
  eventType: 'Started' | 'Updated' | 'Ended';
  timestamp: string;
  triggerReason: string;
  seqNo: number;
  offline?: boolean;
  transactionInfo: { transactionId: string; chargingState?: string; stoppedReason?: string; remoteStartId?: number };
  idToken?: { idToken: string; type: string };
  evse?: { id: number; connectorId?: number };
  meterValue?: MeterValue201[];
  reservationId?: number;
}


type Event = NonNullable<Handled['events']>[number];

/** The session of a 2.0.1 transactionId of this charger: remembered, else read (fresh: a Started may reuse an id). */
async function sessionOf({ cs, conn }: HandlerContext, transactionId: string, fresh = false): Promise<KnownSession | null> {
  const { cpId } = conn.charger;
  const known = fresh ? undefined : knownSession(cpId, transactionId);
  if (known) return known;
  const [row] = await cs.db.query<{ session_id: number; tran_id: number; connector_id: number; id_tag: string; id_tag_status: string | null }>(
    `SELECT session_id, tran_id, connector_id, id_tag, id_tag_status FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`,
    [cpId, transactionId],
  );
  if (!row) return null;
  const session = { sessionId: row.session_id, tranId: row.tran_id, connectorId: row.connector_id, idTag: row.id_tag, idTagStatus: row.id_tag_status };
  rememberSession(cpId, transactionId, session);
  return session;
}

/** The reading a transaction first heard of mid-way begins with: its Transaction.Begin sample, else the earliest. */
function beginning(mv: MeterValue[]): { energy: number | null; ts: Date | null } {
  const begin = mv.filter((m) => m.sampledValue.some((v) => v.context === 'Transaction.Begin'));
  const rs = readings(begin.length ? begin : mv).filter((r) => r.energy !== null).sort((a, b) => a.ts.getTime() - b.ts.getTime());
  return { energy: rs[0]?.energy ?? null, ts: rs[0]?.ts ?? null };
}

/**
 * A TransactionEvent as the 1.6 messages it amounts to, run through their handlers (so sessions, meter
 * values, load management and the screens see one model): the first event of a transaction, normally
 * Started, is a StartTransaction; its meter values a MeterValues; Ended a StopTransaction; a chargingState
 * a StatusNotification. The session keeps the charger's string transactionId beside our numeric tran_id.
 * Events come in seqNo order on one connection (a charger's offline queue is replayed in order, each
 * with its own timestamp, which the handlers keep); an event sent again (same seqNo, eventType and
 * timestamp) gets the answer it had and changes nothing.
 */
export const transactionEvent: MessageHandler = async (ctx, p: TransactionEventRequest) => {
  const { transactionId } = p.transactionInfo;
  const { cpId } = ctx.conn.charger;
  const mv = (p.meterValue ?? []).map(meterValue16);
  const events: Event[] = [];
  const parts: Handled[] = [];
  const run = async (action: string, handler: MessageHandler, params: Record<string, unknown>) => {
    const out = await handler(ctx, params);
    parts.push(out);
    events.push({ action, params, response: out.response });
    return out;
  };
  // NoAuthorization (an empty idToken) identifies no one: the station lets the car charge, the answer is Accepted.
  const idTag = p.idToken && p.idToken.type !== 'NoAuthorization' && p.idToken.idToken !== '' ? p.idToken.idToken : null;

  let session = await sessionOf(ctx, transactionId, p.eventType === 'Started');
  const again = session && !surelyNew(ctx.conn, transactionId, p.seqNo) && (await answeredBefore(ctx, session.sessionId, p));
  if (session && again) {
    // Sent again (our answer was lost, or the offline queue replayed it twice): the same answer, nothing done twice.
    const row = { session_id: session.sessionId, tran_id: session.tranId, connector_id: session.connectorId, cre_dttm: new Date(p.timestamp) };
    return { response: again, row, events: [] };
  }
  if (session && p.eventType === 'Started' && (await letGoOfId(ctx, session.sessionId, p.timestamp))) {
    forgetSession(cpId, transactionId);
    session = null;
  }
  const connectorId = p.evse?.id ?? session?.connectorId;
  let idTokenStatus: string | undefined;
  if (!session) {
    if (connectorId === undefined) {
      // Not on an EVSE yet (OCPP 2.0.1 E01: the evse comes with the first event after it is known).
      if (idTag) idTokenStatus = (await idTagStatus(ctx, idTag)).status;
      const known = waitingStart(cpId, transactionId);
      if (!known || (!known.idToken && idTag)) {
        waitForEvse(cpId, transactionId, { idToken: idTag ?? null, timestamp: known?.timestamp ?? p.timestamp, reservationId: p.reservationId ?? known?.reservationId });
      }
      return { response: p.idToken ? { idTokenInfo: { status: idTokenStatus ?? 'Accepted' } } : {}, row: { tran_id: null } };
    }
    // Started, or the first event that reached us (its Started was lost, or had no EVSE): the session begins here.
    const before = waitingStart(cpId, transactionId);
    startNoLongerWaiting(cpId, transactionId);
    const begin = beginning(mv);
    const eventTime = new Date(p.timestamp);
    const start = before ? before.timestamp : p.eventType !== 'Started' && begin.ts && begin.ts < eventTime ? begin.ts.toISOString() : p.timestamp;
    const startTag = idTag ?? before?.idToken ?? null;
    const reservationId = p.reservationId ?? before?.reservationId;
    const started = await run('StartTransaction', startTransaction, {
      connectorId, idTag: startTag ?? '', timestamp: start, meterStart: begin.energy ?? 0,
      ocppTransactionId: transactionId, withoutIdToken: !startTag,
      // The reservation it uses (reservations/ ends it on the StartTransaction the bus tells of).
      ...(reservationId !== undefined ? { reservationId } : {}),
    });
    idTokenStatus = (started.response.idTagInfo as { status: string } | undefined)?.status;
    session = await sessionOf(ctx, transactionId, true);
  } else if (idTag && session.idTag === '') {
    // Identified after it started (cable first, or a remote start on it): the session learns its card (and
    // account), and a remote start's duration its planned end, as a 1.6 start would have.
    const card = await idTagStatus(ctx, idTag);
    const minutes = ctx.cs.remoteStarts.takeMinutes(cpId, idTag);
    const plannedEnd = minutes ? new Date(Date.parse(p.timestamp) + minutes * 60_000).toISOString() : null;
    idTokenStatus = card.status;
    await ctx.cs.db.query(
      `UPDATE cp_sessions SET id_tag = $2, id_tag_status = $3, account_id = coalesce(account_id, $4),
              planned_end_dttm = coalesce(planned_end_dttm, $5::timestamptz), lupd_dttm = now()
        WHERE session_id = $1`,
      [session.sessionId, idTag, card.status, card.accountId ?? null, plannedEnd],
    );
    rememberSession(cpId, transactionId, { ...session, idTag, idTagStatus: card.status });
  } else if (idTag) {
    // The session's own idToken keeps the answer it had (a remote start's is no card); another one is looked up.
    idTokenStatus = idTag === session.idTag ? session.idTagStatus ?? undefined : (await idTagStatus(ctx, idTag)).status;
  }
  if (!session) throw new Error(`TransactionEvent ${transactionId}: session not recorded`);

  const status = p.eventType === 'Ended' ? await finishingStatus(ctx, session.connectorId) : statusFromChargingState(p.transactionInfo.chargingState);
  // chargingState comes with many events (some stations send it with each): only a change is a status report.
  if (status && statusChanged(ctx.conn, session.connectorId, status)) {
    await run('StatusNotification', statusNotification, { connectorId: session.connectorId, status, errorCode: 'NoError', timestamp: p.timestamp });
  }
  if (p.eventType === 'Ended') {
    const end = latest(readings(mv)).energy ?? (await lastEnergy(ctx, session.sessionId));
    await run('StopTransaction', stopTransaction, {
      transactionId: session.tranId, meterStop: end, timestamp: p.timestamp, reason: stopReason16(p.transactionInfo.stoppedReason),
      ...(mv.length ? { transactionData: mv } : {}),
    });
  } else if (mv.length) {
    await run('MeterValues', meterValues, { connectorId: session.connectorId, transactionId: session.tranId, meterValue: mv });
  }

  // The log row is the event's: its session, connector and readings (from whichever part had them).
  const row: Handled['row'] = { session_id: session.sessionId, tran_id: session.tranId, connector_id: session.connectorId, cre_dttm: new Date(p.timestamp) };
  for (const part of parts) {
    for (const key of ['energy', 'voltage', 'ampere'] as const) if (part.row?.[key] != null) row[key] = part.row[key];
  }
  return {
    // OCPP 2.0.1 E01/E05: idTokenInfo answers an event that carried an idToken.
    response: p.idToken ? { idTokenInfo: { status: idTokenStatus ?? 'Accepted' } } : {},
    row,
    meters: parts.flatMap((part) => part.meters ?? []),
    progress: parts.flatMap((part) => part.progress ?? []),
    events,
  };
};

/**
 * A Started after the session of its transactionId ended is another transaction: a station that numbers its
 * transactions again after a reset. The old session lets go of the id (kept with its session id beside it).
 */
async function letGoOfId({ cs }: HandlerContext, sessionId: number, timestamp: string): Promise<boolean> {
  const rows = await cs.db.query(
    `UPDATE cp_sessions SET ocpp_transaction_id = ocpp_transaction_id || ' #' || session_id, lupd_dttm = now()
      WHERE session_id = $1 AND session_end_time < $2::timestamptz RETURNING session_id`,
    [sessionId, timestamp],
  );
  return rows.length > 0;
}

const TRANSACTION_EVENT = requestTypeId('TransactionEvent', 'in', 'ocpp2.0.1')!;

/**
 * The answer given to this very event before: same transaction, seqNo, eventType and timestamp (seqNo alone
 * is not trusted: a station that always sends 0 would lose its events). Asked only of an event the memory
 * cannot vouch for (known-transactions.ts surelyNew): after a reconnect or restart, not for each Updated.
 */
async function answeredBefore({ cs }: HandlerContext, sessionId: number, p: TransactionEventRequest): Promise<Record<string, unknown> | null> {
  const [row] = await cs.db.query<{ response_data: Record<string, unknown> | null }>(
    `SELECT response_data FROM cp_requests
      WHERE cre_dttm = $1 AND session_id = $2 AND request_type = $3 AND request_data->>'seqNo' = $4
        AND request_data->>'eventType' = $5 AND request_data->>'timestamp' = $6
      LIMIT 1`,
    [new Date(p.timestamp).toISOString(), sessionId, TRANSACTION_EVENT, String(p.seqNo), p.eventType, p.timestamp],
  );
  return row ? row.response_data ?? {} : null;
}

/** Ended while the car is still there: Finishing, as a 1.6 charger would say; otherwise the StatusNotification will tell. */
async function finishingStatus({ cs, conn }: HandlerContext, connectorId: number): Promise<string | null> {
  const [row] = await cs.db.query<{ status: string | null }>(
    `SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [conn.charger.cpId, connectorId],
  );
  return row?.status && OCCUPIED.has(row.status) && row.status !== 'Finishing' ? 'Finishing' : null;
}

async function lastEnergy({ cs }: HandlerContext, sessionId: number): Promise<number> {
  const [row] = await cs.db.query<{ energy: string | number }>(
    `SELECT coalesce(energy, start_meter, 0) AS energy FROM cp_sessions WHERE session_id = $1`, [sessionId],
  );
  return Number(row?.energy ?? 0);
}
