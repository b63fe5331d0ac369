import { OCPP_REQUEST_TYPES, requestTypeId } from '@ev/core';
import { createRPCError } from 'ocpp-rpc';
import type { RequestRow } from './batch-writer.ts';
import type { InboundCall } from './inbound.ts';
import type { ChargerContext, HandlerHost, MessageHandler } from './handler-types.ts';
import { ChargerConnection } from './connection.ts';
import { cardStatus } from './authorization.ts';
import { int32 } from './protocol.ts';
import { isDatabaseUnavailable } from '../db/faults.ts';
import { meterValues, startTransaction, stopTransaction } from './transactions.ts';
import { flagUnconfirmed } from './unconfirmed.ts';
import { reservationParent } from '../reservations/parent.ts';
import { diagnosticsStatusNotification, firmwareBooted, firmwareStatusNotification } from '../firmware/status.ts';

const now = () => new Date().toISOString();

const at = (ts: string | undefined) => (ts ? new Date(ts) : null);

/**
 * The charger's details go to cps in the group commit with its cp_requests row (a reconnect
 * storm is one UPDATE for many chargers, not one each); the interval is the one read at sign-in.
 */
const bootNotification: MessageHandler = async ({ cs, conn }, p) => {
  const { cpId } = conn.charger;
  const interval = conn.charger.heartbeatInterval
    ?? (await cs.db.query(`SELECT heartbeat_interval FROM cps WHERE cp_id = $1`, [cpId]))[0]?.heartbeat_interval ?? 30;
  conn.charger.serial = p.chargeBoxSerialNumber ?? conn.charger.serial;
  // A reboot ends every transaction: one still running lost its StopTransaction, unless one is queued
  // (unconfirmed.ts). One indexed statement, on the charger's running sessions only.
  const at = now();
  await flagUnconfirmed(cs.db, cpId, null, at, 'Boot');
  // The version it now runs settles a firmware update sent to it (firmware/status.ts).
  await firmwareBooted(cs.db, cpId, p.firmwareVersion);
  return {
    response: { status: 'Accepted', currentTime: at, interval },
    boot: {
      cp_id: cpId, charge_point_vendor: p.chargePointVendor, charge_point_model: p.chargePointModel,
      charge_point_serial_number: p.chargePointSerialNumber ?? null, charge_box_serial_number: p.chargeBoxSerialNumber ?? null,
      firmware_version: p.firmwareVersion ?? null, iccid: p.iccid ?? null, imsi: p.imsi ?? null, meter_type: p.meterType ?? null,
      meter_serial_number: p.meterSerialNumber ?? null,
    },
  };
};

const heartbeat: MessageHandler = async () => ({ response: { currentTime: now() } });

/**
 * Connector state, newest report wins: a status a charger queued while offline arrives after
 * newer ones and must not overwrite them (both tables compare the report's own timestamp).
 * Available after a running session's start flags that session unconfirmed (unconfirmed.ts).
 */
const statusNotification: MessageHandler = async ({ cs, conn }, p) => {
  const connectorId = int32('connectorId', p.connectorId)!;
  const ts = p.timestamp ? new Date(p.timestamp) : new Date();
  const { cpId } = conn.charger;
  await cs.db.tx(async (sql) => {
    const applied = await sql.query(
      `INSERT INTO cp_connectors (cp_id, connector_id, status, error_code, vendor_error_code, info, last_status_dttm)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (cp_id, connector_id) DO UPDATE
          SET status = EXCLUDED.status, error_code = EXCLUDED.error_code, vendor_error_code = EXCLUDED.vendor_error_code,
              info = EXCLUDED.info, last_status_dttm = EXCLUDED.last_status_dttm, lupd_dttm = now()
        WHERE cp_connectors.last_status_dttm IS NULL OR cp_connectors.last_status_dttm <= EXCLUDED.last_status_dttm
       RETURNING id`,
      [cpId, connectorId, p.status, p.errorCode, p.vendorErrorCode ?? null, p.info ?? null, ts.toISOString()],
    );
    if (!applied.length) return;
    if (p.status === 'Available') await flagUnconfirmed(sql, cpId, connectorId, ts.toISOString(), 'Available');
    // charging_status sums the charger up: connector 0 out of service wins, then any connector
    // charging (the remote-action rule of spec §4), else the latest report.
    await sql.query(
      `UPDATE cps SET
          connectora_status = CASE WHEN $2 = 1 THEN $3 ELSE connectora_status END,
          connectorb_status = CASE WHEN $2 = 2 THEN $3 ELSE connectorb_status END,
          error_code = $4,
          last_status_dttm = greatest(coalesce(last_status_dttm, $5::timestamptz), $5::timestamptz),
          charging_status = (SELECT c.status FROM cp_connectors c WHERE c.cp_id = $1
                              ORDER BY (c.connector_id = 0 AND c.status IN ('Unavailable', 'Faulted')) DESC,
                                       (c.status IN ('Charging', 'SuspendedEVSE', 'SuspendedEV')) DESC,
                                       c.last_status_dttm DESC NULLS LAST
                              LIMIT 1)
        WHERE cp_id = $1`,
      [cpId, connectorId, p.status, p.errorCode, ts.toISOString()],
    );
  });
  return { response: {}, row: { connector_status: p.status, cre_dttm: at(p.timestamp) } };
};

/** A card, or the idTag of a remote start the portal just sent (chargers may be set to authorize those too). */
const authorize: MessageHandler = async ({ cs, conn }, p) => {
  const status = cs.remoteStarts.has(conn.charger.cpId, p.idTag) ? 'Accepted' : (await cardStatus(cs.db, conn.charger, p.idTag)).status;
  // A card of a reservation's holder learns its parentIdTag: the charger then lets it use the reservation.
  const parentIdTag = status === 'Accepted' ? await reservationParent(cs.db, conn.charger.cpId, p.idTag) : null;
  return { response: { idTagInfo: { status, ...(parentIdTag ? { parentIdTag } : {}) } } };
};

/** No vendor extension is implemented: the answer OCPP 1.6 §4.3 prescribes for an unknown vendor. */
const dataTransfer: MessageHandler = async () => ({ response: { status: 'UnknownVendorId' } });

const HANDLERS: Record<string, MessageHandler> = {
  BootNotification: bootNotification,
  Heartbeat: heartbeat,
  StatusNotification: statusNotification,
  Authorize: authorize,
  StartTransaction: startTransaction,
  StopTransaction: stopTransaction,
  MeterValues: meterValues,
  DataTransfer: dataTransfer,
  DiagnosticsStatusNotification: diagnosticsStatusNotification,
  FirmwareStatusNotification: firmwareStatusNotification,
};

/** request_type id → action name, for the bus. */
const ACTION_OF: Record<number, string> = Object.fromEntries(OCPP_REQUEST_TYPES.map((t) => [t.id, t.action]));

/** The charger-initiated actions the central system handles. */
export const CHARGER_ACTIONS: readonly string[] = Object.keys(HANDLERS);

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
  const handler = HANDLERS[action];
  if (!handler) throw new Error(`${action} is not a charger-initiated action`);
  // The payload's timestamps are whatever the tester's editor holds: the log's request time is when it was sent.
  const run = () => handle(cs, conn, requestTypeId(action, 'in')!, handler, params, messageId, undefined, true);
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

/** Wires a new connection: every charger-initiated action we know, in arrival order, logged, answered after commit. */
export function registerHandlers(cs: HandlerHost, conn: ChargerConnection): void {
  for (const [action, handler] of Object.entries(HANDLERS)) {
    const type = requestTypeId(action, 'in')!;
    // inbound.ts calls these with the payload's own text too (paramsJson); ocpp-rpc's types do not know it.
    conn.client.handle(action, ({ params, messageId, paramsJson }: Partial<InboundCall>) =>
      conn.inOrder(() => handle(cs, conn, type, handler, params, messageId ?? '', paramsJson)),
    );
  }
  // Actions that exist in OCPP 1.6 but only in the other direction: known, refused as such.
  for (const t of OCPP_REQUEST_TYPES) {
    if (t.direction === 'out' && !HANDLERS[t.action]) {
      conn.client.handle(t.action, () => {
        throw createRPCError('NotSupported', `${t.action} is sent by the central system, not to it`);
      });
    }
  }
}

async function handle(
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
    if (cs.bus.listenerCount('chargerMessage')) {
      try {
        cs.bus.emit('chargerMessage', { cpId: charger.cpId, locId: charger.locId, action: ACTION_OF[type], params, response: out.response });
      } catch (err) {
        cs.log.error({ err, cpNo: charger.cpNo }, 'chargerMessage listener failed');
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
