/**
 * OCPP 2.0.1 charging station, what it does (SimulatedCharger201 in simulated-charger.ts adds its answers to the
 * CSMS's messages; createCharger in factory.ts makes one for protocol ocpp2.0.1).
 *
 * EVSE/connector model: EVSE ids 1..n (options.connectors), each with one connector, connectorId 1.
 * Methods take the EVSE id where the 1.6 charger takes a connector id (plugIn(1) plugs EVSE 1). Each
 * EVSE is a shared Connector (connector.ts: energy register, 1.6-shaped status such as Preparing or
 * SuspendedEVSE); StatusNotification reports it as the 2.0.1 connectorStatus (Available, Occupied,
 * Reserved, Unavailable, Faulted) and TransactionEvent as chargingState. Id 0 stands for the whole
 * station (ChangeAvailability without evse, ChargingStationMaxProfile on evseId 0). Transaction ids are
 * UUIDs the station makes; seqNo counts every TransactionEvent of the station, across EVSEs and reboots.
 */
import type { ClearFilter } from '../charging-profiles.ts';
import type { Connector, ConnectorStatus } from '../connector.ts';
import { FirmwareUpdater, type FirmwareOptions, type FirmwareStatus } from '../firmware.ts';
import { noop, type SimulatedChargerOptions } from '../link.ts';
import { LocalAuthList } from '../local-list.ts';
import { Reservations } from '../reservations.ts';
import { DeviceModel, REPORT_ITEMS_PER_MESSAGE } from './device-model.ts';
import { connectorStatus201, toEngineProfile, type ChargingProfile201, type IdTokenInfo } from './messages.ts';
import { Station201, type Tx201 } from './station.ts';

type BootReason = 'PowerUp' | 'RemoteReset' | 'FirmwareUpdate' | 'Triggered';
/** UploadLogStatusEnumType, the part this station gives. */
export type LogStatus = 'Idle' | 'Uploading' | 'Uploaded' | 'UploadFailure';

/**
 * The station (sessions: station.ts) and what the CSMS's messages do to it (commands.ts answers them):
 * device model, charging profiles, availability, reset, trigger, reports, firmware.
 */
export abstract class Charger201 extends Station201 {
  /** GetVariables / SetVariables / GetBaseReport (device-model.ts). */
  readonly deviceModel: DeviceModel;
  /** UpdateFirmware: its FirmwareStatusNotifications and the restart with the new version (firmware.ts). */
  readonly firmware: FirmwareUpdater;
  /** SendLocalList / GetLocalListVersion: the 1.6 charger's list (local-list.ts), kept across reconnects and reboots. */
  readonly localList = new LocalAuthList(this.config);
  /** ReserveNow / CancelReservation: the 1.6 charger's reservations (reservations.ts), EVSE for connector, 0 for any EVSE. */
  readonly reservations: Reservations;
  /** GetLog: the upload in progress (its requestId) and the status TriggerMessage reports. */
  private logStatus: LogStatus = 'Idle';
  private logRequestId?: number;
  private bootReason: BootReason = 'PowerUp';
  private firmwareRequestId?: number;
  /** Reset OnIdle answered Scheduled: the station restarts when its last transaction ends. */
  private resetWhenIdle = false;

  constructor(options: SimulatedChargerOptions & { firmware?: FirmwareOptions }) {
    super(options);
    this.deviceModel = new DeviceModel({
      config: this.config, cpNo: this.cpNo, vendor: this.vendor, model: this.model, evseCount: options.connectors,
      availabilityState: (id) => connectorStatus201(this.connectorAt(id).status),
      maxPowerW: () => (this.opts.maxCurrentA ?? 32) * this.voltage * this.phases,
      setPassword: (p) => this.setPassword(p),
      hasPassword: () => this.password !== undefined,
    });
    this.firmware = new FirmwareUpdater({
      firmwareVersion: () => this.opts.firmwareVersion ?? '1.0.0',
      report: (status) => this.outbox.push('FirmwareStatusNotification', () => this.firmwareStatus(status), true).then(noop),
      sleep: (ms) => this.sleep(ms),
      now: () => this.now(),
      restartWith: async (version) => {
        this.opts.firmwareVersion = version;
        this.bootReason = 'FirmwareUpdate';
        await this.restart();
      },
    }, options.firmware);
    this.reservations = new Reservations({
      config: this.config, connectorCount: options.connectors, now: () => this.now(),
      // A reservation's group is the 2.0.1 groupIdToken where 1.6 has parentIdTag.
      authorize: async (t) => {
        const info = await this.authorize(t);
        return { status: info.status as 'Accepted', ...(info.groupIdToken ? { parentIdTag: info.groupIdToken.idToken } : {}) };
      },
      connectorStatus: (id) => this.connectorStatus(id), hasTransaction: (id) => this.hasTransaction(id), setStatus: (id, st) => this.setStatus(id, st),
    });
  }

  /** Offline the local list answers first (as the 1.6 charger), then the cache (station.ts). */
  override async authorize(idToken: string): Promise<IdTokenInfo> {
    const listed = !this.isConnected && this.config.bool('LocalAuthorizeOffline') ? this.localList.lookup(idToken, this.now()) : undefined;
    if (listed) {
      return {
        status: listed.status, ...(listed.expiryDate ? { cacheExpiryDateTime: listed.expiryDate } : {}),
        ...(listed.parentIdTag ? { groupIdToken: { idToken: listed.parentIdTag, type: 'Central' } } : {}),
      };
    }
    return super.authorize(idToken);
  }

  /** A reserved EVSE starts only for its reservation, whose id goes with the Started event (2.0.1 H01). */
  override async startTransaction(evseId: number, idToken: string, opts: { remoteStartId?: number; chargingProfile?: ChargingProfile201 } = {}): Promise<string> {
    const reservationId = this.reservations.size ? await this.reservations.claim(evseId, idToken) : undefined;
    return super.startTransaction(evseId, idToken, { ...opts, ...(reservationId !== undefined ? { reservationId } : {}) });
  }

  // —— what the CSMS's messages do; public so that tests can also cause them locally ——

  setChargingProfile(evseId: number, profile: ChargingProfile201): 'Accepted' | 'Rejected' {
    const engine = toEngineProfile(profile);
    if (!engine || !Number.isInteger(evseId) || evseId < 0 || evseId > this.connectorCount) return 'Rejected';
    const purpose = engine.chargingProfilePurpose;
    if (purpose === 'ChargePointMaxProfile' && evseId !== 0) return 'Rejected';
    const tx = evseId > 0 ? this.connectors[evseId].tx as Tx201 | undefined : undefined;
    if (purpose === 'TxProfile' && (!tx || (profile.transactionId !== undefined && profile.transactionId !== tx.transactionId))) return 'Rejected';
    if (profile.stackLevel > this.config.int('ChargeProfileMaxStackLevel')) return 'Rejected';
    this.power.setProfile(evseId, purpose === 'TxProfile' ? { ...engine, transactionId: tx!.transactionId } : engine);
    return 'Accepted';
  }

  clearChargingProfile(filter: ClearFilter): 'Accepted' | 'Unknown' {
    return this.power.clearProfiles(filter) > 0 ? 'Accepted' : 'Unknown';
  }

  /** GetCompositeSchedule: the limits from now for durationSec in the unit asked, or null for a bad EVSE. */
  compositeSchedule(evseId: number, durationSec: number, unit: 'A' | 'W' = 'A'): { startPeriod: number; limit: number }[] | null {
    if (!Number.isInteger(evseId) || evseId < 0 || evseId > this.connectorCount) return null;
    return this.power.composite(evseId, durationSec, unit);
  }

  /** ChangeAvailability of an EVSE, or of the station (0): one with a transaction changes when it ends (Scheduled). */
  changeAvailability(evseId: number, type: 'Operative' | 'Inoperative'): 'Accepted' | 'Rejected' | 'Scheduled' {
    if (!Number.isInteger(evseId) || evseId < 0 || evseId > this.connectorCount) return 'Rejected';
    const operative = type === 'Operative';
    let scheduled = false;
    for (const c of evseId === 0 ? this.connectors : [this.connectors[evseId]]) {
      if (c.tx) {
        c.pendingOperative = operative;
        scheduled = true;
      } else {
        this.applyAvailability(c.id, operative);
      }
    }
    return scheduled ? 'Scheduled' : 'Accepted';
  }

  /** Reset of the station: Immediate ends transactions now; OnIdle waits for them (Scheduled). */
  reset(type: 'Immediate' | 'OnIdle'): 'Accepted' | 'Scheduled' {
    if (type === 'OnIdle' && this.connectors.some((c) => c.tx)) {
      this.resetWhenIdle = true;
      return 'Scheduled';
    }
    return 'Accepted';
  }

  /** Restarts the station: transactions end (ImmediateReset), it boots again with reason RemoteReset. */
  async reboot(): Promise<void> {
    for (const c of this.connectors) if (c.tx) await this.stopTransaction(c.id, 'ImmediateReset').catch(noop);
    this.bootReason = 'RemoteReset';
    await this.restart();
  }

  /** TriggerMessage BootNotification: reason Triggered, the boot reason of the next restart unchanged. */
  async triggeredBoot(): Promise<void> {
    const reason = this.bootReason;
    this.bootReason = 'Triggered';
    try { await this.bootNotification(); } finally { this.bootReason = reason; }
  }

  /** TriggerMessage TransactionEvent: an Updated event of each running transaction (of one EVSE when given). */
  async sendTransactionState(evseId?: number): Promise<void> {
    this.advanceAll();
    for (const c of this.connectors) {
      if (c.id === 0 || !c.tx || (evseId !== undefined && c.id !== evseId)) continue;
      await this.deliver(this.transactionEvent('Updated', c, 'Trigger', {}));
    }
  }

  /** NotifyReport in parts of REPORT_ITEMS_PER_MESSAGE, seqNo from 0, tbc on all but the last. */
  async sendReport(requestId: number, reportData: Record<string, unknown>[]): Promise<void> {
    const generatedAt = this.iso(this.now());
    const parts = Math.max(1, Math.ceil(reportData.length / REPORT_ITEMS_PER_MESSAGE));
    for (let seqNo = 0; seqNo < parts; seqNo++) {
      const part = reportData.slice(seqNo * REPORT_ITEMS_PER_MESSAGE, (seqNo + 1) * REPORT_ITEMS_PER_MESSAGE);
      const report = { requestId, generatedAt, seqNo, tbc: seqNo < parts - 1, ...(part.length ? { reportData: part } : {}) };
      // Pending (B02): the report the central system asked for goes out before the station is accepted.
      if (this.accepted) await this.outbox.push('NotifyReport', () => report, false);
      else await this.send('NotifyReport', report);
    }
  }

  updateFirmware(requestId: number, location: string, retrieveDate: string): Promise<void> {
    this.firmwareRequestId = requestId;
    return this.firmware.run({ location, retrieveDate });
  }

  /**
   * GetLog: Uploading then Uploaded after diagnosticsUploadMs, each with the requestId. A request while one
   * uploads cancels that one (AcceptedCanceled, 2.0.1 N01): only the newest finishes.
   */
  uploadLog(requestId: number): { status: 'Accepted' | 'AcceptedCanceled'; run: () => Promise<void> } {
    const status = this.logStatus === 'Uploading' ? 'AcceptedCanceled' : 'Accepted';
    this.logRequestId = requestId;
    this.logStatus = 'Uploading';
    return {
      status,
      run: async () => {
        await this.sendLogStatus('Uploading', requestId);
        await this.sleep(this.diagnosticsUploadMs);
        if (this.logRequestId === requestId) await this.sendLogStatus('Uploaded', requestId);
      },
    };
  }

  /** LogStatusNotification (also for TriggerMessage): the requestId of the upload, none when Idle. */
  async sendLogStatus(status: LogStatus = this.logStatus, requestId = this.logRequestId): Promise<void> {
    this.logStatus = status;
    await this.outbox.push('LogStatusNotification', () => ({ status, ...(status !== 'Idle' && requestId !== undefined ? { requestId } : {}) }), false);
  }

  override async sendFirmwareStatus(): Promise<void> {
    await this.outbox.push('FirmwareStatusNotification', () => this.firmwareStatus(this.firmware.status), false);
  }

  // —— internals ——

  protected override bootRequest(): Record<string, unknown> {
    const chargingStation = {
      model: this.model, vendorName: this.vendor,
      serialNumber: (this.opts.serialNumber ?? `SN-${this.cpNo}`).slice(0, 25), firmwareVersion: this.opts.firmwareVersion ?? '1.0.0',
    };
    return { reason: this.bootReason, chargingStation };
  }

  protected afterBoot(): void {
    this.bootReason = 'PowerUp';
    for (const c of this.connectors) if (c.id > 0) this.sendStatus(c.id).catch(noop);
  }


  protected async transactionEnded(c: Connector): Promise<void> {
    if (c.pendingOperative !== undefined) {
      const operative = c.pendingOperative;
      c.pendingOperative = undefined;
      this.applyAvailability(c.id, operative);
    }
    if (this.resetWhenIdle && !this.connectors.some((x) => x.tx)) {
      this.resetWhenIdle = false;
      await this.reboot();
    }
  }

  private async restart(): Promise<void> {
    // What a station knows after a restart: no car mid-session; the boot reports these.
    for (const c of this.connectors) c.status = c.operative ? 'Available' : 'Unavailable';
    await this.restartLink();
  }

  private applyAvailability(evseId: number, operative: boolean): void {
    const c = this.connectors[evseId];
    c.operative = operative;
    const status: ConnectorStatus = !operative ? 'Unavailable' : c.status === 'Unavailable' ? 'Available' : c.status;
    if (status !== c.status) this.setStatus(evseId, status).catch(noop);
  }

  private setPassword(password: string): 'Accepted' | 'Rejected' {
    // OCPP 2.0.1 A01: 16 to 40 characters, used from the next connection on.
    if (password.length < 16 || password.length > 40) return 'Rejected';
    this.password = password;
    this.connection.usePassword(password);
    return 'Accepted';
  }

  private firmwareStatus(status: FirmwareStatus): Record<string, unknown> {
    return { status, ...(status !== 'Idle' && this.firmwareRequestId !== undefined ? { requestId: this.firmwareRequestId } : {}) };
  }
}
