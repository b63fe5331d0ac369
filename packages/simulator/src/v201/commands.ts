import { createRPCError } from 'ocpp-rpc';
import type { CommandOutcome } from '../command-types.ts';
import type { IdTagInfo } from '../local-list.ts';
import type { Charger201 } from './charger.ts';
import type { ReportBase } from './device-model.ts';
import { purpose16, type ChargingProfile201 } from './messages.ts';

type Handler = (cp: Charger201, params: any) => CommandOutcome | Promise<CommandOutcome>;
interface EvseRef { id: number; connectorId?: number }
interface IdToken { idToken: string; type: string }
/** SendLocalList's AuthorizationData: without idTokenInfo a Differential removes the idToken. */
interface AuthorizationData201 { idToken: IdToken; idTokenInfo?: { status: string; cacheExpiryDateTime?: string; groupIdToken?: IdToken } }

const answer = (result: Record<string, unknown>, after?: () => Promise<void>): CommandOutcome => ({ result, after });

const validEvse = (cp: Charger201, id: number) => Number.isInteger(id) && id >= 1 && id <= cp.connectorCount;
/** Every EVSE has one connector, id 1. */
const validConnector = (cp: Charger201, evse: EvseRef) => validEvse(cp, evse.id) && (evse.connectorId ?? 1) === 1;
const evseIds = (cp: Charger201) => Array.from({ length: cp.connectorCount }, (_, i) => i + 1);

/** An EVSE free for a new transaction: no transaction, no car mid-session. */
function freeEvse(cp: Charger201): number | undefined {
  return evseIds(cp).find((id) => !cp.hasTransaction(id) && ['Available', 'Preparing'].includes(cp.connectorStatus(id)));
}

/** Answers of the station to the OCPP 2.0.1 messages of the CSMS. */
const handlers: Record<string, Handler> = {
  RequestStartTransaction(cp, { evseId, remoteStartId, idToken, chargingProfile }: { evseId?: number; remoteStartId: number; idToken: { idToken: string }; chargingProfile?: ChargingProfile201 }) {
    const id = evseId ?? freeEvse(cp);
    if (id === undefined || !validEvse(cp, id) || cp.hasTransaction(id)) return answer({ status: 'Rejected' });
    const status = cp.connectorStatus(id);
    // A reserved EVSE starts for its reservation's idToken (2.0.1 H01), not for another.
    const reservedForIt = status === 'Reserved' && cp.reservations.onConnector(id)?.idTag.toUpperCase() === idToken.idToken.toUpperCase();
    if (!['Available', 'Preparing'].includes(status) && !reservedForIt) return answer({ status: 'Rejected' });
    if (chargingProfile && chargingProfile.chargingProfilePurpose !== 'TxProfile') return answer({ status: 'Rejected' });
    return answer({ status: 'Accepted' }, async () => {
      await cp.plugIn(id);
      if (cp.config.bool('AuthorizeRemoteTxRequests')) {
        const info = await cp.authorize(idToken.idToken);
        if (info.status !== 'Accepted') {
          await cp.unplug(id);
          return;
        }
      }
      await cp.startTransaction(id, idToken.idToken, { remoteStartId, chargingProfile });
    });
  },

  RequestStopTransaction(cp, { transactionId }: { transactionId: string }) {
    const id = cp.connectorOf(transactionId);
    if (id === undefined) return answer({ status: 'Rejected' });
    return answer({ status: 'Accepted' }, () => cp.stopTransaction(id, 'Remote'));
  },

  Reset(cp, { type, evseId }: { type: 'Immediate' | 'OnIdle'; evseId?: number }) {
    if (evseId !== undefined) {
      // An EVSE's own reset: its transaction ends (Immediate) or it waits for it (OnIdle, nothing else to restart
      // here); the EVSE back from its restart reports its status, as a station does after one (B11).
      if (!validEvse(cp, evseId)) return answer({ status: 'Rejected' });
      const restarted = () => cp.sendStatus(evseId);
      if (!cp.hasTransaction(evseId)) return answer({ status: 'Accepted' }, restarted);
      if (type === 'OnIdle') return answer({ status: 'Scheduled' });
      return answer({ status: 'Accepted' }, async () => { await cp.stopTransaction(evseId, 'ImmediateReset'); await restarted(); });
    }
    const status = cp.reset(type);
    return answer({ status }, status === 'Accepted' ? () => cp.reboot() : undefined);
  },

  UnlockConnector(cp, params: { evseId: number; connectorId: number }) {
    if (!validConnector(cp, { id: params.evseId, connectorId: params.connectorId })) return answer({ status: 'UnknownConnector' });
    // OCPP 2.0.1 F05: a running transaction keeps the cable locked; the CSMS stops it first.
    if (cp.hasTransaction(params.evseId)) return answer({ status: 'OngoingAuthorizedTransaction' });
    return answer({ status: 'Unlocked' });
  },

  TriggerMessage(cp, { requestedMessage, evse }: { requestedMessage: string; evse?: EvseRef }) {
    if (evse && !validConnector(cp, evse)) return answer({ status: 'Rejected' });
    const ids = evse ? [evse.id] : evseIds(cp);
    const send: Record<string, () => Promise<unknown>> = {
      BootNotification: () => cp.triggeredBoot(),
      Heartbeat: () => cp.heartbeat(),
      StatusNotification: async () => { for (const id of ids) await cp.sendStatus(id); },
      MeterValues: async () => { for (const id of ids) await cp.sendMeterValuesMessage(id); },
      TransactionEvent: () => cp.sendTransactionState(evse?.id),
      FirmwareStatusNotification: () => cp.sendFirmwareStatus(),
      LogStatusNotification: () => cp.sendLogStatus(),
    };
    const action = send[requestedMessage];
    if (!action) return answer({ status: 'NotImplemented' });
    return answer({ status: 'Accepted' }, async () => { await action(); });
  },

  ChangeAvailability(cp, { operationalStatus, evse }: { operationalStatus: 'Operative' | 'Inoperative'; evse?: EvseRef }) {
    if (evse && evse.id !== 0 && !validConnector(cp, evse)) return answer({ status: 'Rejected' });
    return answer({ status: cp.changeAvailability(evse?.id ?? 0, operationalStatus) });
  },

  GetVariables(cp, { getVariableData }) {
    return answer({ getVariableResult: cp.deviceModel.get(getVariableData) });
  },

  SetVariables(cp, { setVariableData }) {
    return answer({ setVariableResult: cp.deviceModel.set(setVariableData) });
  },

  GetBaseReport(cp, { requestId, reportBase }: { requestId: number; reportBase: ReportBase }) {
    const data = cp.deviceModel.report(reportBase);
    if (!data) return answer({ status: 'NotSupported' });
    return answer({ status: 'Accepted' }, () => cp.sendReport(requestId, data));
  },

  SetChargingProfile(cp, { evseId, chargingProfile }: { evseId: number; chargingProfile: ChargingProfile201 }) {
    return answer({ status: cp.setChargingProfile(evseId, chargingProfile) });
  },

  ClearChargingProfile(cp, { chargingProfileId, chargingProfileCriteria: c }: { chargingProfileId?: number; chargingProfileCriteria?: { evseId?: number; chargingProfilePurpose?: ChargingProfile201['chargingProfilePurpose']; stackLevel?: number } }) {
    const purpose = c?.chargingProfilePurpose && purpose16(c.chargingProfilePurpose);
    // External constraints are never installed here: nothing to clear.
    if (c?.chargingProfilePurpose && !purpose) return answer({ status: 'Unknown' });
    return answer({ status: cp.clearChargingProfile({
      id: chargingProfileId, connectorId: c?.evseId, chargingProfilePurpose: purpose || undefined, stackLevel: c?.stackLevel,
    }) });
  },

  GetCompositeSchedule(cp, { duration, chargingRateUnit, evseId }: { duration: number; chargingRateUnit?: 'A' | 'W'; evseId: number }) {
    const unit = chargingRateUnit ?? 'A';
    const periods = cp.compositeSchedule(evseId, duration, unit);
    if (!periods) return answer({ status: 'Rejected' });
    const scheduleStart = new Date().toISOString();
    return answer({ status: 'Accepted', schedule: { evseId, duration, scheduleStart, chargingRateUnit: unit, chargingSchedulePeriod: periods } });
  },

  DataTransfer(cp, { vendorId, data }: { vendorId: string; messageId?: string; data?: unknown }) {
    if (vendorId !== cp.vendor) return answer({ status: 'UnknownVendorId' });
    return answer({ status: 'Accepted', ...(data !== undefined ? { data } : {}) });
  },

  ClearCache(cp) {
    cp.clearIdTagCache();
    return answer({ status: 'Accepted' });
  },

  ReserveNow(cp, { id, expiryDateTime, idToken, evseId, groupIdToken }: { id: number; expiryDateTime: string; idToken: IdToken; evseId?: number; groupIdToken?: IdToken }) {
    // No evseId: any EVSE of the station, the 1.6 reservation of connector 0.
    return answer({ status: cp.reservations.reserve({
      reservationId: id, connectorId: evseId ?? 0, expiryDate: expiryDateTime, idTag: idToken.idToken,
      ...(groupIdToken ? { parentIdTag: groupIdToken.idToken } : {}),
    }) });
  },

  CancelReservation(cp, { reservationId }: { reservationId: number }) {
    return answer({ status: cp.reservations.cancel(reservationId) });
  },

  SendLocalList(cp, { versionNumber, updateType, localAuthorizationList = [] }: { versionNumber: number; updateType: 'Full' | 'Differential'; localAuthorizationList?: AuthorizationData201[] }) {
    const status = cp.localList.update({
      listVersion: versionNumber, updateType,
      localAuthorizationList: localAuthorizationList.map(({ idToken, idTokenInfo: i }) => ({
        idTag: idToken.idToken,
        ...(i ? { idTagInfo: { status: i.status as IdTagInfo['status'], ...(i.cacheExpiryDateTime ? { expiryDate: i.cacheExpiryDateTime } : {}), ...(i.groupIdToken ? { parentIdTag: i.groupIdToken.idToken } : {}) } } : {}),
      })),
    });
    // SendLocalListStatusEnumType has no NotSupported: a station with its list off cannot take it (Failed).
    return answer({ status: status === 'NotSupported' ? 'Failed' : status });
  },

  GetLocalListVersion(cp) {
    // 2.0.1 has no -1: a list that is off is no list, version 0.
    return answer({ versionNumber: Math.max(0, cp.localList.listVersion()) });
  },

  GetLog(cp, { logType, requestId }: { logType: 'DiagnosticsLog' | 'SecurityLog'; requestId: number; log: { remoteLocation: string } }) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const filename = `${cp.cpNo}-${logType === 'SecurityLog' ? 'security' : 'diagnostics'}-${stamp}.log`;
    const upload = cp.uploadLog(requestId);
    return answer({ status: upload.status, filename }, upload.run);
  },

  UpdateFirmware(cp, { requestId, firmware }: { requestId: number; firmware: { location: string; retrieveDateTime: string } }) {
    return answer({ status: 'Accepted' }, () => cp.updateFirmware(requestId, firmware.location, firmware.retrieveDateTime));
  },
};

export async function handleCommand201(cp: Charger201, method: string, params: any): Promise<CommandOutcome> {
  const handler = handlers[method];
  // OCPP-J: a message the station does not know is a NotImplemented CALLERROR.
  if (!handler) throw createRPCError('NotImplemented', `${method} is not implemented by this charging station`);
  return handler(cp, params ?? {});
}
