import { createRPCError } from 'ocpp-rpc';
import type { CommandOutcome } from '../command-types.ts';
import type { Charger201 } from './charger.ts';
import type { ReportBase } from './device-model.ts';
import { purpose16, type ChargingProfile201 } from './messages.ts';

type Handler = (cp: Charger201, params: any) => CommandOutcome | Promise<CommandOutcome>;
interface EvseRef { id: number; connectorId?: number }

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
    if (!['Available', 'Preparing'].includes(cp.connectorStatus(id))) return answer({ status: 'Rejected' });
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
      // An EVSE's own reset: its transaction ends (Immediate) or it waits for it (OnIdle, nothing else to restart here).
      if (!validEvse(cp, evseId)) return answer({ status: 'Rejected' });
      if (!cp.hasTransaction(evseId)) return answer({ status: 'Accepted' });
      if (type === 'OnIdle') return answer({ status: 'Scheduled' });
      return answer({ status: 'Accepted' }, () => cp.stopTransaction(evseId, 'ImmediateReset'));
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
