import { createRPCError } from 'ocpp-rpc';
import type { ChargingProfile } from './charging-profiles.ts';
import type { CommandOutcome, CommandTarget } from './command-types.ts';
import type { UpdateFirmwareRequest } from './firmware.ts';
import type { ReserveRequest } from './reservations.ts';

type Handler = (cp: CommandTarget, params: any) => CommandOutcome | Promise<CommandOutcome>;

const answer = (result: Record<string, unknown>, after?: () => Promise<void>): CommandOutcome => ({ result, after });

const validConnector = (cp: CommandTarget, id: number) => Number.isInteger(id) && id >= 1 && id <= cp.connectorCount;

/** A connector free for a new transaction: operative, no transaction, no car mid-session. */
function freeConnector(cp: CommandTarget): number | undefined {
  for (let id = 1; id <= cp.connectorCount; id++) {
    const status = cp.connectorStatus(id);
    if (cp.transactionId(id) === undefined && (status === 'Available' || status === 'Preparing')) return id;
  }
  return undefined;
}

/** Answers of a charge point to the OCPP 1.6 commands of the central system. */
const handlers: Record<string, Handler> = {
  RemoteStartTransaction(cp, { connectorId, idTag, chargingProfile }: { connectorId?: number; idTag: string; chargingProfile?: ChargingProfile }) {
    const id = connectorId ?? freeConnector(cp);
    if (id === undefined || !validConnector(cp, id)) return answer({ status: 'Rejected' });
    const status = cp.connectorStatus(id);
    const reservedForIt = status === 'Reserved' && cp.reservations.onConnector(id)?.idTag.toUpperCase() === idTag.toUpperCase();
    if (status !== 'Available' && status !== 'Preparing' && !reservedForIt) return answer({ status: 'Rejected' });
    if (chargingProfile && chargingProfile.chargingProfilePurpose !== 'TxProfile') return answer({ status: 'Rejected' });
    return answer({ status: 'Accepted' }, async () => {
      await cp.plugIn(id);
      if (cp.config.bool('AuthorizeRemoteTxRequests')) {
        const info = await cp.authorize(idTag);
        if (info.status !== 'Accepted') {
          await cp.unplug(id);
          return;
        }
      }
      const transactionId = await cp.startTransaction(id, idTag);
      // The profile rides with the transaction: in force once the transaction has its id.
      if (chargingProfile) cp.setChargingProfile(id, { ...chargingProfile, transactionId });
    });
  },

  RemoteStopTransaction(cp, { transactionId }: { transactionId: number }) {
    const id = cp.connectorOf(transactionId);
    if (id === undefined) return answer({ status: 'Rejected' });
    return answer({ status: 'Accepted' }, () => cp.stopTransaction(id, 'Remote'));
  },

  UnlockConnector(cp, { connectorId }: { connectorId: number }) {
    if (!validConnector(cp, connectorId)) return answer({ status: 'NotSupported' });
    // A transaction ends before the cable is released (OCPP 1.6 §5.18).
    if (cp.transactionId(connectorId) !== undefined) cp.stopTransaction(connectorId, 'UnlockCommand').catch(() => undefined);
    return answer({ status: 'Unlocked' });
  },

  Reset(cp, { type }: { type: 'Hard' | 'Soft' }) {
    return answer({ status: 'Accepted' }, () => cp.reboot(type));
  },

  GetDiagnostics(cp) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const fileName = `${cp.cpNo}-diagnostics-${stamp}.log`;
    return answer({ fileName }, async () => {
      await cp.sendDiagnosticsStatus('Uploading');
      await cp.sleep(cp.diagnosticsUploadMs);
      await cp.sendDiagnosticsStatus('Uploaded');
    });
  },

  ChangeAvailability(cp, { connectorId, type }: { connectorId: number; type: 'Operative' | 'Inoperative' }) {
    return answer({ status: cp.changeAvailability(connectorId, type) });
  },

  TriggerMessage(cp, { requestedMessage, connectorId }: { requestedMessage: string; connectorId?: number }) {
    if (connectorId !== undefined && (connectorId < 0 || connectorId > cp.connectorCount)) return answer({ status: 'Rejected' });
    const all = Array.from({ length: cp.connectorCount }, (_, i) => i + 1);
    const send: Record<string, () => Promise<unknown>> = {
      BootNotification: () => cp.bootNotification(),
      Heartbeat: () => cp.heartbeat(),
      StatusNotification: async () => {
        for (const id of connectorId !== undefined ? [connectorId] : [0, ...all]) await cp.sendStatus(id);
      },
      MeterValues: async () => {
        for (const id of connectorId ? [connectorId] : all) await cp.sendMeterValues(id, 'Trigger');
      },
      DiagnosticsStatusNotification: () => cp.sendDiagnosticsStatus(),
      FirmwareStatusNotification: () => cp.sendFirmwareStatus(),
    };
    const action = send[requestedMessage];
    if (!action) return answer({ status: 'NotImplemented' });
    return answer({ status: 'Accepted' }, async () => { await action(); });
  },

  SetChargingProfile(cp, { connectorId, csChargingProfiles }: { connectorId: number; csChargingProfiles: ChargingProfile }) {
    return answer({ status: cp.setChargingProfile(connectorId, csChargingProfiles) });
  },

  ClearChargingProfile(cp, params: { id?: number; connectorId?: number; chargingProfilePurpose?: ChargingProfile['chargingProfilePurpose']; stackLevel?: number }) {
    return answer({ status: cp.clearChargingProfile(params) });
  },

  GetCompositeSchedule(cp, { connectorId, duration, chargingRateUnit }: { connectorId: number; duration: number; chargingRateUnit?: 'A' | 'W' }) {
    const unit = chargingRateUnit ?? 'A';
    const periods = cp.compositeSchedule(connectorId, duration, unit);
    if (!periods) return answer({ status: 'Rejected' });
    const scheduleStart = new Date().toISOString();
    return answer({
      status: 'Accepted', connectorId, scheduleStart,
      chargingSchedule: { duration, startSchedule: scheduleStart, chargingRateUnit: unit, chargingSchedulePeriod: periods },
    });
  },

  ChangeConfiguration(cp, { key, value }: { key: string; value: string }) {
    // Write-only: kept as the sign-in password, never among the keys GetConfiguration reads.
    if (key === 'AuthorizationKey') return answer({ status: cp.changePassword(value) });
    return answer({ status: cp.config.change(key, value) });
  },

  SendLocalList(cp, params) {
    return answer({ status: cp.localList.update(params) });
  },

  GetLocalListVersion(cp) {
    return answer({ listVersion: cp.localList.listVersion() });
  },

  GetConfiguration(cp, { key }: { key?: string[] }) {
    const { configurationKey, unknownKey } = cp.config.get(key);
    return answer({ configurationKey, ...(unknownKey.length > 0 ? { unknownKey } : {}) });
  },

  DataTransfer(cp, { vendorId, data }: { vendorId: string; messageId?: string; data?: string }) {
    if (vendorId !== cp.vendor) return answer({ status: 'UnknownVendorId' });
    return answer({ status: 'Accepted', ...(data !== undefined ? { data } : {}) });
  },

  ReserveNow(cp, params: ReserveRequest) {
    return answer({ status: cp.reservations.reserve(params) });
  },

  CancelReservation(cp, { reservationId }: { reservationId: number }) {
    return answer({ status: cp.reservations.cancel(reservationId) });
  },

  ClearCache(cp) {
    cp.clearIdTagCache();
    return answer({ status: 'Accepted' });
  },

  // OCPP 1.6 §6.52: the answer is empty; the update runs after it (firmware.ts).
  UpdateFirmware(cp, params: UpdateFirmwareRequest) {
    return answer({}, () => cp.updateFirmware(params));
  },
};

export async function handleCommand(cp: CommandTarget, method: string, params: any): Promise<CommandOutcome> {
  const handler = handlers[method];
  // OCPP-J 1.6 §4.2.3: an action the charger does not know is a NotImplemented CALLERROR.
  if (!handler) throw createRPCError('NotImplemented', `${method} is not implemented by this charger`);
  return handler(cp, params ?? {});
}
