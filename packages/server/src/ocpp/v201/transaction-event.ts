import type { Handled, HandlerContext, MessageHandler } from '../handler-types.ts';
import { statusNotification } from '../charger-messages.ts';
import { cardStatus } from '../authorization.ts';
import { latest, readings } from '../meter-values.ts';
import { meterValues, startTransaction, stopTransaction } from '../transactions.ts';
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

interface KnownSession { sessionId: number; tranId: number; connectorId: number; idTag: string; idTagStatus: string }

type Event = NonNullable<Handled['events']>[number];

/** The session of a 2.0.1 transactionId of this charger. */
async function sessionOf({ cs, conn }: HandlerContext, transactionId: string): Promise<KnownSession | null> {
  const [row] = await cs.db.query<{ session_id: number; tran_id: number; connector_id: number; id_tag: string; id_tag_status: string }>(
    `SELECT session_id, tran_id, connector_id, id_tag, id_tag_status FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`,
    [conn.charger.cpId, transactionId],
  );
  return row && { sessionId: row.session_id, tranId: row.tran_id, connectorId: row.connector_id, idTag: row.id_tag, idTagStatus: row.id_tag_status };
}

/**
 * A TransactionEvent as the 1.6 messages it amounts to, run through their handlers (so sessions, meter
 * values, load management and the screens see one model): the first event of a transaction, normally
 * Started, is a StartTransaction; its meter values a MeterValues; Ended a StopTransaction; a chargingState
 * a StatusNotification. The session keeps the charger's string transactionId beside our numeric tran_id.
 * Events come in seqNo order on one connection (a charger's offline queue is replayed in order, each
 * with its own timestamp, which the handlers keep); an event sent again finds its session by transactionId.
 */
export const transactionEvent: MessageHandler = async (ctx, p: TransactionEventRequest) => {
  const { transactionId } = p.transactionInfo;
  const mv = (p.meterValue ?? []).map(meterValue16);
  const events: Event[] = [];
  const parts: Handled[] = [];
  const run = async (action: string, handler: MessageHandler, params: Record<string, unknown>) => {
    const out = await handler(ctx, params);
    parts.push(out);
    events.push({ action, params, response: out.response });
    return out;
  };

  let session = await sessionOf(ctx, transactionId);
  const connectorId = p.evse?.id ?? session?.connectorId;
  let idTokenStatus: string | undefined;
  if (!session) {
    if (connectorId === undefined) {
      // Not a transaction we know, and no EVSE to put it on (OCPP 2.0.1 E01: the evse comes with its first event).
      return { response: {}, row: { tran_id: null } };
    }
    // Started, or the first event that reached us (its Started was lost): the session begins here.
    const begin = latest(readings(mv)).energy;
    const started = await run('StartTransaction', startTransaction, {
      connectorId, idTag: p.idToken?.idToken ?? '', timestamp: p.timestamp, meterStart: begin ?? 0,
      ocppTransactionId: transactionId, withoutIdToken: !p.idToken,
      // A reservation used by this transaction ends as used (reservations/), as with 1.6.
      ...(p.reservationId !== undefined ? { reservationId: p.reservationId } : {}),
    });
    idTokenStatus = (started.response.idTagInfo as { status: string } | undefined)?.status;
    session = await sessionOf(ctx, transactionId);
  } else if (p.idToken && session.idTag === '') {
    // Identified after it started: the session learns its card (and account), as a 1.6 start would have.
    const card = await cardStatus(ctx.cs.db, ctx.conn.charger, p.idToken.idToken);
    idTokenStatus = card.status;
    await ctx.cs.db.query(
      `UPDATE cp_sessions SET id_tag = $2, id_tag_status = $3, account_id = coalesce(account_id, $4), lupd_dttm = now() WHERE session_id = $1`,
      [session.sessionId, p.idToken.idToken, card.status, card.accountId ?? null],
    );
  } else if (p.idToken) {
    // The session's own idToken keeps the answer it had (a remote start's is no card); another one is looked up.
    idTokenStatus = p.idToken.idToken === session.idTag ? session.idTagStatus : (await cardStatus(ctx.cs.db, ctx.conn.charger, p.idToken.idToken)).status;
  }
  if (!session) throw new Error(`TransactionEvent ${transactionId}: session not recorded`);

  const status = p.eventType === 'Ended' ? await finishingStatus(ctx, session.connectorId) : statusFromChargingState(p.transactionInfo.chargingState);
  if (status) {
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
