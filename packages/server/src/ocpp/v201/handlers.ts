import type { Handled, HandlerContext, MessageHandler } from '../handler-types.ts';
import { authorize, bootNotification, dataTransfer, heartbeat, statusNotification } from '../charger-messages.ts';
import { meterValues } from '../transactions.ts';
import { diagnosticsStatusNotification, firmwareStatusNotification } from '../../firmware/status.ts';
import { notifyReport } from '../../device-model/report.ts';
import { OCCUPIED, firmwareStatus16, logStatus16, meterValue16, type MeterValue201 } from './messages.ts';
import { transactionEvent } from './transaction-event.ts';
import { statusReported } from './known-transactions.ts';

/**
 * The OCPP 2.0.1 charger-initiated messages. Each runs the 1.6 handler of the same meaning with the
 * payload translated, answers in 2.0.1, and tells the bus the 1.6 message it amounts to (Handled.events):
 * one model of chargers, sessions and readings behind both versions. The cp_requests row is the 2.0.1
 * message with its own request type.
 */

type Call16 = { action: string; params: Record<string, unknown> };

/** Runs the 1.6 handler with translated params; the 2.0.1 answer is made from its answer. */
function as16(handler: MessageHandler, translate: (p: any, ctx: HandlerContext) => Promise<Call16> | Call16,
  answer: (response16: Record<string, any>) => Record<string, unknown> = () => ({})): MessageHandler {
  return async (ctx, p) => {
    const { action, params } = await translate(p, ctx);
    const out: Handled = await handler(ctx, params);
    const connectorId = typeof params.connectorId === 'number' ? params.connectorId : null;
    return {
      ...out,
      row: { connector_id: connectorId, ...out.row },
      response: answer(out.response),
      events: [{ action, params, response: out.response }],
    };
  };
}

const boot = as16(bootNotification, ({ chargingStation: s }) => ({
  action: 'BootNotification',
  params: {
    chargePointVendor: s.vendorName, chargePointModel: s.model,
    ...(s.serialNumber ? { chargePointSerialNumber: s.serialNumber, chargeBoxSerialNumber: s.serialNumber } : {}),
    ...(s.firmwareVersion ? { firmwareVersion: s.firmwareVersion } : {}),
    ...(s.modem?.iccid ? { iccid: s.modem.iccid } : {}),
    ...(s.modem?.imsi ? { imsi: s.modem.imsi } : {}),
  },
}), (r) => r); // currentTime, interval, status: the same in both versions

/**
 * connectorStatus says whether a car is there; whether it charges comes in TransactionEvents. Occupied
 * keeps an occupied state the connector already has (Charging stays Charging), else it is Preparing.
 * Available is no sign a transaction ended (only its Ended is): running sessions are not flagged unconfirmed.
 */
const status = as16((ctx, p) => statusNotification(ctx, { ...p, transactionsOutlast: true }), async (p, { cs, conn }) => {
  statusReported(conn, p.evseId);
  let status: string = p.connectorStatus;
  if (status === 'Occupied') {
    const [row] = await cs.db.query<{ status: string | null }>(
      `SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [conn.charger.cpId, p.evseId],
    );
    status = row?.status && OCCUPIED.has(row.status) ? row.status : 'Preparing';
  }
  return {
    action: 'StatusNotification',
    params: { connectorId: p.evseId, status, errorCode: status === 'Faulted' ? 'OtherError' : 'NoError', timestamp: p.timestamp },
  };
});

const authorize201 = as16(authorize, (p) => ({ action: 'Authorize', params: { idTag: p.idToken.idToken } }), ({ idTagInfo }) => ({
  idTokenInfo: {
    status: idTagInfo.status,
    // A reservation's holder: 2.0.1 names the group by an idToken.
    ...(idTagInfo.parentIdTag ? { groupIdToken: { idToken: idTagInfo.parentIdTag, type: 'Central' } } : {}),
  },
}));

const meterValues201 = as16(meterValues, (p) => ({
  action: 'MeterValues',
  params: { connectorId: p.evseId, meterValue: (p.meterValue as MeterValue201[]).map(meterValue16) },
}));

const firmwareStatus = as16(firmwareStatusNotification, (p) => ({ action: 'FirmwareStatusNotification', params: { status: firmwareStatus16(p.status) } }));
const logStatus = as16(diagnosticsStatusNotification, (p) => ({ action: 'DiagnosticsStatusNotification', params: { status: logStatus16(p.status) } }));

/** Recorded in cp_requests (the charger's log of events and security events); nothing else acts on them yet. */
const recorded: MessageHandler = async () => ({ response: {} });

export const HANDLERS_201: Record<string, MessageHandler> = {
  BootNotification: boot,
  Heartbeat: heartbeat,
  StatusNotification: status,
  Authorize: authorize201,
  TransactionEvent: transactionEvent,
  MeterValues: meterValues201,
  DataTransfer: dataTransfer,
  FirmwareStatusNotification: firmwareStatus,
  LogStatusNotification: logStatus,
  NotifyReport: notifyReport,
  SecurityEventNotification: recorded,
  NotifyEvent: recorded,
  // Expired or Removed: the portal ends reservations at their expiry itself (reservations/).
  ReservationStatusUpdate: recorded,
};
