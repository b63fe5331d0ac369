import type { MessageHandler } from './handler-types.ts';
import { cardStatus } from './authorization.ts';
import { bootAnswer } from './boot-policy.ts';
import { int32 } from './protocol.ts';
import { meterValues, startTransaction, stopTransaction } from './transactions.ts';
import { flagUnconfirmed } from './unconfirmed.ts';
import { reservationParent } from '../reservations/parent.ts';
import { diagnosticsStatusNotification, firmwareBooted, firmwareStatusNotification } from '../firmware/status.ts';

/** The OCPP 1.6 charger-initiated messages: what each writes and answers (OCPP 2.0.1 ones reuse them, v201/handlers.ts). */

const now = () => new Date().toISOString();

const at = (ts: string | undefined) => (ts ? new Date(ts) : null);

/**
 * The charger's details go to cps in the group commit with its cp_requests row (a reconnect
 * storm is one UPDATE for many chargers, not one each); the interval is the one read at sign-in. The answer
 * (Accepted, Pending, Rejected) is the charger's boot policy's (boot-policy.ts); its details are kept whatever it is.
 */
export const bootNotification: MessageHandler = async ({ cs, conn }, p) => {
  const { cpId } = conn.charger;
  const { status, interval } = await bootAnswer(cs, conn.charger);
  conn.charger.serial = p.chargeBoxSerialNumber ?? conn.charger.serial;
  // A reboot ends every transaction: one still running lost its StopTransaction, unless one is queued
  // (unconfirmed.ts). One indexed statement, on the charger's running sessions only.
  const at = now();
  await flagUnconfirmed(cs.db, cpId, null, at, 'Boot');
  // The version it now runs settles a firmware update sent to it (firmware/status.ts).
  await firmwareBooted(cs.db, cpId, p.firmwareVersion);
  return {
    response: { status, currentTime: at, interval },
    boot: {
      cp_id: cpId, charge_point_vendor: p.chargePointVendor, charge_point_model: p.chargePointModel,
      charge_point_serial_number: p.chargePointSerialNumber ?? null, charge_box_serial_number: p.chargeBoxSerialNumber ?? null,
      firmware_version: p.firmwareVersion ?? null, iccid: p.iccid ?? null, imsi: p.imsi ?? null, meter_type: p.meterType ?? null,
      meter_serial_number: p.meterSerialNumber ?? null,
    },
  };
};

export const heartbeat: MessageHandler = async () => ({ response: { currentTime: now() } });

/**
 * Connector state, newest report wins: a status a charger queued while offline arrives after
 * newer ones and must not overwrite them (both tables compare the report's own timestamp).
 * Available after a running session's start flags that session unconfirmed (unconfirmed.ts), but not
 * for a 2.0.1 station (p.transactionsOutlast, v201/handlers.ts): its transaction may run on an idle
 * connector (authorized before the cable, or the cable pulled on the EV side) and ends only by its Ended.
 */
export const statusNotification: MessageHandler = async ({ cs, conn }, p) => {
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
    if (p.status === 'Available' && !p.transactionsOutlast) await flagUnconfirmed(sql, cpId, connectorId, ts.toISOString(), 'Available');
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
export const authorize: MessageHandler = async ({ cs, conn }, p) => {
  const status = cs.remoteStarts.has(conn.charger.cpId, p.idTag) ? 'Accepted' : (await cardStatus(cs.db, conn.charger, p.idTag)).status;
  // A card of a reservation's holder learns its parentIdTag: the charger then lets it use the reservation.
  const parentIdTag = status === 'Accepted' ? await reservationParent(cs.db, conn.charger.cpId, p.idTag) : null;
  return { response: { idTagInfo: { status, ...(parentIdTag ? { parentIdTag } : {}) } } };
};

/** No vendor extension is implemented: the answer OCPP 1.6 §4.3 prescribes for an unknown vendor. */
export const dataTransfer: MessageHandler = async () => ({ response: { status: 'UnknownVendorId' } });

export const HANDLERS_16: Record<string, MessageHandler> = {
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

