import { OCPP_REQUEST_TYPES, requestTypeId } from '@ev/core';
import { createRPCError } from 'ocpp-rpc';
import type { RequestRow } from './batch-writer.ts';
import type { InboundCall } from './inbound.ts';
import type { ChargerContext, HandlerHost, MessageHandler } from './handler-types.ts';
import { ChargerConnection } from './connection.ts';
import { int32 } from './protocol.ts';
import { refuseUnlessAccepted } from './boot-policy.ts';
import { isDatabaseUnavailable } from '../db/faults.ts';
import { HANDLERS_16 } from './charger-messages.ts';
import { HANDLERS_201 } from './v201/handlers.ts';

/** request_type id → action name, for the bus. */
const ACTION_OF: Record<number, string> = Object.fromEntries(OCPP_REQUEST_TYPES.map((t) => [t.id, t.action]));

/** The charger-initiated OCPP 1.6 actions the central system handles (the tester injects these). */
export const CHARGER_ACTIONS: readonly string[] = Object.keys(HANDLERS_16);

/**
 * Handles one charger-initiated message as if the charger had sent it (the portal's message
 * tester): the same handler, cp_requests row and answer as a message from its socket. On the
 * charger's live connection it waits its turn among the charger's own messages. The payload must
 * have been validated against the OCPP schema; errors are thrown as the charger would get them.
 */
export function handleAsCharger(
  cs: HandlerHost,
  conn: ChargerContext,
  action: string,
  params: unknown,
  messageId: string,
): Promise<Record<string, unknown>> {
  // In the charger's own version: a 2.0.1 station's message runs the 2.0.1 handler and is logged as 2.0.1.
  const protocol = conn.charger.protocol ?? 'ocpp1.6';
  const handler = (protocol === 'ocpp2.0.1' ? HANDLERS_201 : HANDLERS_16)[action];
  if (!handler) throw createRPCError('NotImplemented', `${action} is not a charger-initiated action of ${protocol}`);
  // The payload's timestamps are whatever the tester's editor holds: the log's request time is when it was sent.
  const run = () => handle(cs, conn, requestTypeId(action, 'in', protocol)!, handler, params, messageId, undefined, true);
  return conn instanceof ChargerConnection ? conn.inOrder(run) : run();
}

/** A message injected in a charger's name (the tester): its answer, or the CALLERROR the charger would have got. */
export type InjectResult =
  | { status: 'answered'; response: Record<string, unknown> }
  | { status: 'refused'; rpcErrorCode: string; message: string };

/**
 * The same, from the node holding the charger (cluster/): notHere when no other node holds it (it is
 * handled here, detached), timeout when that node did not answer in time.
 */
export type InjectOutcome = InjectResult | { status: 'notHere' } | { status: 'timeout' };

/** handleAsCharger's answer, or the CALLERROR it came to, as an outcome (which can be sent to another node). */
export async function injectOn(cs: HandlerHost, conn: ChargerContext, action: string, params: unknown, messageId: string): Promise<InjectResult> {
  try {
    return { status: 'answered', response: await handleAsCharger(cs, conn, action, params, messageId) };
  } catch (err: any) {
    if (!err?.rpcErrorCode) throw err;
    return { status: 'refused', rpcErrorCode: err.rpcErrorCode, message: err.message };
  }
}

/**
 * Wires a new connection: every charger-initiated action we know of its OCPP version, in arrival order,
 * logged, answered after commit.
 */
export function registerHandlers(cs: HandlerHost, conn: ChargerConnection): void {
  const protocol = conn.charger.protocol ?? 'ocpp1.6';
  const handlers = protocol === 'ocpp2.0.1' ? HANDLERS_201 : HANDLERS_16;
  const version = protocol === 'ocpp2.0.1' ? '2.0.1' : undefined;
  for (const [action, handler] of Object.entries(handlers)) {
    const type = requestTypeId(action, 'in', protocol)!;
    // inbound.ts calls these with the payload's own text too (paramsJson); ocpp-rpc's types do not know it.
    conn.client.handle(action, ({ params, messageId, paramsJson }: Partial<InboundCall>) =>
      conn.inOrder(() => handle(cs, conn, type, handler, params, messageId ?? '', paramsJson)),
    );
  }
  // Actions that exist in the version but only in the other direction: known, refused as such.
  for (const t of OCPP_REQUEST_TYPES) {
    if (t.direction === 'out' && t.protocol === version && !handlers[t.action]) {
      conn.client.handle(t.action, () => {
        throw createRPCError('NotSupported', `${t.action} is sent by the central system, not to it`);
      });
    }
  }
}

export async function handle(
  cs: HandlerHost,
  conn: ChargerContext,
  type: number,
  handler: MessageHandler,
  params: any,
  messageId: string,
  paramsJson?: string,
  /** cre_dttm is the arrival time even where a charger's own message keeps its timestamp (a replayed offline queue). */
  loggedOnArrival = false,
): Promise<Record<string, unknown>> {
  const { charger } = conn;
  try {
    // A station not accepted (Pending, Rejected) gets SecurityError for most messages: nothing is handled or logged.
    const unread = refuseUnlessAccepted(cs, conn, ACTION_OF[type]);
    if (unread) await unread;
    const out = await handler({ cs, conn }, params);
    const row: RequestRow = {
      request_type: type,
      cp_id: charger.cpId,
      cp_no: charger.cpNo,
      charge_box_serial_number: charger.serial,
      connector_id: typeof params?.connectorId === 'number' ? int32('connectorId', params.connectorId) : null,
      connector_status: null,
      request_data: params,
      request_json: paramsJson,
      response_data: out.response,
      cre_dttm: null,
      session_id: null,
      tran_id: null,
      uuid: messageId,
      loc: charger.locId,
      energy: null,
      voltage: null,
      ampere: null,
      ...out.row,
    };
    if (loggedOnArrival) row.cre_dttm = null;
    await cs.writer.write({
      requests: [row],
      meters: out.meters,
      progress: out.progress,
      touched: conn.touchDue() ? [charger.cpId] : undefined,
      boots: out.boot && [out.boot],
    });
    // Load management and the live screens react to what is now committed; a listener's fault is its own.
    // A 2.0.1 message reaches them as the 1.6 messages it amounts to (out.events, v201/handlers.ts).
    if (cs.bus.listenerCount('chargerMessage')) {
      for (const event of out.events ?? [{ action: ACTION_OF[type], params, response: out.response }]) {
        try {
          cs.bus.emit('chargerMessage', { cpId: charger.cpId, locId: charger.locId, ...event });
        } catch (err) {
          cs.log.error({ err, cpNo: charger.cpNo }, 'chargerMessage listener failed');
        }
      }
    }
    return out.response;
  } catch (err: any) {
    if (err?.rpcErrorCode) throw err;
    // One line per interval: while the database is away every message of every charger fails.
    const database = isDatabaseUnavailable(err);
    cs.failureLog.note(database ? 'database' : charger.cpNo, { err: database ? err.message : err, cpNo: charger.cpNo, type, messageId });
    // No SQL or stack text to the charger.
    throw createRPCError('InternalError', 'The central system could not process the message');
  }
}
