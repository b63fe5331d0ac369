import type { ChargingProfile, ClearFilter } from './charging-profiles.ts';
import { Connector, type ConnectorStatus, type SampledValue, type Transaction } from './connector.ts';
import { handleCommand } from './commands.ts';
import type { CommandOutcome, CommandTarget, IdTagInfo, StopReason } from './command-types.ts';
import { ChargePointLink, noop, type SimulatedChargerOptions } from './link.ts';
import { LocalAuthList } from './local-list.ts';
import { Reservations } from './reservations.ts';
import { FirmwareUpdater, type FirmwareOptions, type UpdateFirmwareRequest } from './firmware.ts';
import { PowerModel } from './power.ts';

export type { IdTagInfo } from './command-types.ts';

/**
 * An OCPP 1.6-J charge point. Local actions (plug in, start, stop …) are methods; commands from
 * the central system are answered as a real charger would (commands.ts). Transaction messages
 * and status changes made while offline are queued and replayed in order, with the timestamps
 * of the moment they happened.
 *
 * Events: 'connected', 'disconnected', 'reconnecting' ({attempt, delayMs}), 'booted',
 * 'command' (method, params), 'status' (connectorId, status), 'callError' (method, error).
 */
export class SimulatedCharger extends ChargePointLink implements CommandTarget {
  private readonly connectors: Connector[];
  /** Current allowed, energy and charging profiles (power.ts, shared with the 2.0.1 charger). */
  private readonly power: PowerModel;
  private readonly idTagCache = new Map<string, IdTagInfo>();
  /** The local authorization list (SendLocalList): kept across reconnects and reboots. */
  readonly localList = new LocalAuthList(this.config);
  /** ReserveNow / CancelReservation (reservations.ts). */
  readonly reservations: Reservations;
  /** UpdateFirmware: its FirmwareStatusNotifications and the restart with the new version (firmware.ts). */
  readonly firmware: FirmwareUpdater;

  constructor(options: SimulatedChargerOptions & { firmware?: FirmwareOptions }) {
    super(options);
    this.firmware = new FirmwareUpdater({
      firmwareVersion: () => this.opts.firmwareVersion ?? '1.0.0',
      // Queued while offline: the charger reports the outcome once it is back.
      report: (status) => this.outbox.push('FirmwareStatusNotification', () => ({ status }), true).then(noop),
      sleep: (ms) => this.sleep(ms),
      now: () => this.now(),
      restartWith: async (version) => {
        this.opts.firmwareVersion = version;
        await this.reboot('Hard');
      },
    }, options.firmware);
    this.connectors = Array.from({ length: options.connectors + 1 }, (_, id) => new Connector(id, this.now(), options.initialMeterWh ?? 0));
    this.power = new PowerModel(this.connectors, {
      maxCurrentA: options.maxCurrentA ?? 32, voltage: this.voltage, phases: this.phases, now: () => this.now(),
      transactionId: (tx) => tx.id, setStatus: (id, status) => { this.setStatus(id, status).catch(noop); },
    });
    this.reservations = new Reservations({
      config: this.config, connectorCount: options.connectors, now: () => this.now(), authorize: (t) => this.authorize(t),
      connectorStatus: (id) => this.connectorStatus(id), hasTransaction: (id) => this.hasTransaction(id), setStatus: (id, st) => this.setStatus(id, st),
    });
    this.config.onChange((key) => {
      if (key === 'MeterValueSampleInterval') for (const c of this.connectors) if (c.tx) this.restartMeterTimer(c);
    });
  }

  get voltage(): number { return this.opts.voltage ?? 230; }
  get phases(): number { return this.opts.phases ?? 1; }
  get connectorCount(): number { return this.opts.connectors; }

  async plugIn(connectorId: number): Promise<void> {
    const c = this.connector(connectorId);
    if (!c.operative) throw new Error(`${this.cpNo}: connector ${connectorId} is unavailable`);
    if (c.status !== 'Available' && c.status !== 'Finishing') return;
    c.newVehicle();
    await this.setStatus(connectorId, 'Preparing');
  }

  async authorize(idTag: string): Promise<IdTagInfo> {
    if (!this.isConnected) {
      // Offline the local list answers first (OCPP 1.6 §3.5.3), then the cache.
      const listed = this.config.bool('LocalAuthorizeOffline') ? this.localList.lookup(idTag, this.now()) : undefined;
      if (listed) return listed;
      const cached = this.config.bool('LocalAuthorizeOffline') ? this.idTagCache.get(idTag) : undefined;
      if (cached) return cached;
      return { status: this.config.bool('AllowOfflineTxForUnknownId') ? 'Accepted' : 'Invalid' };
    }
    const { idTagInfo } = await this.outbox.push('Authorize', () => ({ idTag }), false);
    this.idTagCache.set(idTag, idTagInfo);
    return idTagInfo;
  }

  /**
   * Starts a transaction; resolves with the central system's transactionId, so when offline
   * only after the reconnect delivered it. Energy counts from now either way.
   */
  async startTransaction(connectorId: number, idTag: string): Promise<number> {
    const c = this.connector(connectorId);
    if (c.tx) throw new Error(`${this.cpNo}: connector ${connectorId} already has a transaction`);
    if (!c.operative) throw new Error(`${this.cpNo}: connector ${connectorId} is unavailable`);
    // A reserved connector starts only for its reservation, whose id goes with the start.
    const reservationId = this.reservations.size ? await this.reservations.claim(connectorId, idTag) : undefined;
    this.advanceAll();
    if (c.status === 'Available' || c.status === 'Reserved') c.newVehicle();
    const tx: Transaction = { idTag, startedAt: this.now(), meterStart: c.registerWh };
    c.tx = tx;
    const timestamp = this.iso(tx.startedAt);
    const started = this.outbox.push('StartTransaction',
      () => ({ connectorId, idTag, meterStart: tx.meterStart, timestamp, ...(reservationId !== undefined ? { reservationId } : {}) }), true);
    this.setStatus(connectorId, this.allowedCurrent(connectorId) > 0 ? 'Charging' : 'SuspendedEVSE').catch(noop);
    this.restartMeterTimer(c);
    let answer: { transactionId: number; idTagInfo: IdTagInfo };
    try {
      answer = await started;
    } catch (err) {
      if (c.tx === tx) {
        c.tx = undefined;
        clearInterval(c.meterTimer);
        this.setStatus(connectorId, 'Preparing').catch(noop);
      }
      throw err;
    }
    tx.id = answer.transactionId;
    this.idTagCache.set(idTag, answer.idTagInfo);
    if (answer.idTagInfo.status !== 'Accepted' && this.config.bool('StopTransactionOnInvalidId') && c.tx === tx) {
      await this.stopTransaction(connectorId, 'DeAuthorized');
    }
    return answer.transactionId;
  }

  /** One MeterValues for the connector (with its transaction, if any). */
  async sendMeterValues(connectorId: number, context: SampledValue['context'] = 'Sample.Periodic'): Promise<void> {
    const c = this.connector(connectorId);
    this.advanceAll();
    const tx = c.tx;
    const timestamp = this.iso(this.now());
    const sampledValue = c.sample(this.config.list('MeterValuesSampledData'), context, this.allowedCurrent(connectorId), this.voltage, this.phases);
    await this.deliver(this.outbox.push('MeterValues', () => ({
      connectorId,
      ...(tx ? { transactionId: this.txId(tx) } : {}),
      meterValue: [{ timestamp, sampledValue }],
    }), true));
  }

  async stopTransaction(connectorId: number, reason: StopReason = 'Local'): Promise<void> {
    const c = this.connector(connectorId);
    const tx = c.tx;
    if (!tx) throw new Error(`${this.cpNo}: no transaction on connector ${connectorId}`);
    this.advanceAll();
    clearInterval(c.meterTimer);
    c.tx = undefined;
    this.power.profiles.endTransaction(connectorId);
    const meterStop = c.registerWh;
    const timestamp = this.iso(this.now());
    const energy = (value: number, at: string, context: 'Transaction.Begin' | 'Transaction.End') => ({
      timestamp: at,
      sampledValue: [{ value: String(value), context, measurand: 'Energy.Active.Import.Register', unit: 'Wh', location: 'Outlet' }],
    });
    const stopped = this.outbox.push('StopTransaction', () => ({
      transactionId: this.txId(tx), idTag: tx.idTag, meterStop, timestamp, reason,
      transactionData: [energy(tx.meterStart, this.iso(tx.startedAt), 'Transaction.Begin'), energy(meterStop, timestamp, 'Transaction.End')],
    }), true);
    this.setStatus(connectorId, 'Finishing').catch(noop);
    if (c.pendingOperative !== undefined) {
      const operative = c.pendingOperative;
      c.pendingOperative = undefined;
      this.applyAvailability(connectorId, operative);
    }
    await this.deliver(stopped);
  }

  /** The EV leaves: a transaction still running ends (EVDisconnected), the connector frees up. */
  async unplug(connectorId: number): Promise<void> {
    const c = this.connector(connectorId);
    if (c.tx) await this.stopTransaction(connectorId, 'EVDisconnected');
    await this.setStatus(connectorId, c.operative ? 'Available' : 'Unavailable');
  }

  connectorStatus(connectorId: number): ConnectorStatus {
    return this.connectorAt(connectorId).status;
  }

  /** Whether a transaction runs, even one whose id the central system has not given yet. */
  hasTransaction(connectorId: number): boolean {
    return this.connector(connectorId).tx !== undefined;
  }

  transactionId(connectorId: number): number | undefined {
    return this.connector(connectorId).tx?.id;
  }

  /** The connector whose transaction has this id. */
  connectorOf(transactionId: number): number | undefined {
    return this.connectors.find((c) => c.id > 0 && c.tx?.id === transactionId)?.id;
  }

  energyWh(connectorId: number): number {
    this.advanceAll();
    return this.connector(connectorId).registerWh;
  }

  /** Current (A) the connector may draw: maxCurrentA capped by the charging profiles in force. */
  allowedCurrent(connectorId: number): number {
    this.connector(connectorId);
    return this.power.allowedCurrent(connectorId);
  }





  // —— what commands do; public so that tests can also cause them locally ——

  setChargingProfile(connectorId: number, profile: ChargingProfile): 'Accepted' | 'Rejected' {
    const purpose = profile.chargingProfilePurpose;
    if (connectorId < 0 || connectorId > this.connectorCount) return 'Rejected';
    if (purpose === 'ChargePointMaxProfile' && connectorId !== 0) return 'Rejected';
    if (purpose === 'TxProfile' && (connectorId === 0 || !this.connectors[connectorId].tx)) return 'Rejected';
    if (profile.stackLevel > this.config.int('ChargeProfileMaxStackLevel')) return 'Rejected';
    this.power.setProfile(connectorId, profile);
    return 'Accepted';
  }

  /** GetCompositeSchedule: the limits from now for durationSec in the unit asked (A by default), or null for a bad connector. */
  compositeSchedule(connectorId: number, durationSec: number, unit: 'A' | 'W' = 'A'): { startPeriod: number; limit: number }[] | null {
    if (!Number.isInteger(connectorId) || connectorId < 0 || connectorId > this.connectorCount) return null;
    return this.power.composite(connectorId, durationSec, unit);
  }

  clearChargingProfile(filter: ClearFilter): 'Accepted' | 'Unknown' {
    return this.power.clearProfiles(filter) > 0 ? 'Accepted' : 'Unknown';
  }

  /** ChangeAvailability: a connector with a transaction changes when it ends (Scheduled). */
  changeAvailability(connectorId: number, type: 'Operative' | 'Inoperative'): 'Accepted' | 'Rejected' | 'Scheduled' {
    if (connectorId < 0 || connectorId > this.connectorCount) return 'Rejected';
    const operative = type === 'Operative';
    const targets = connectorId === 0 ? this.connectors.map((c) => c.id) : [connectorId];
    let scheduled = false;
    for (const id of targets) {
      if (this.connectors[id].tx) {
        this.connectors[id].pendingOperative = operative;
        scheduled = true;
      } else {
        this.applyAvailability(id, operative);
      }
    }
    return scheduled ? 'Scheduled' : 'Accepted';
  }

  /** UpdateFirmware, once answered: the download and install at its retrieveDate (firmware.ts). */
  updateFirmware(params: UpdateFirmwareRequest): Promise<void> {
    return this.firmware.run(params);
  }

  /** TriggerMessage FirmwareStatusNotification: the update's last status (Idle when none ran). */
  override async sendFirmwareStatus(): Promise<void> {
    await this.outbox.push('FirmwareStatusNotification', () => ({ status: this.firmware.status }), false);
  }

  /** Reset: ends transactions, closes, and boots again after a pause. */
  async reboot(type: 'Hard' | 'Soft'): Promise<void> {
    for (const c of this.connectors) {
      if (c.tx) await this.stopTransaction(c.id, type === 'Hard' ? 'HardReset' : 'SoftReset').catch(noop);
    }
    // What a charger knows after a restart: no car mid-session; the boot reports these.
    for (const c of this.connectors) c.status = c.operative ? 'Available' : 'Unavailable';
    await this.restartLink();
  }

  /** StatusNotification of the connector's current status (0 = the charge point). */
  async sendStatus(connectorId: number): Promise<void> {
    await this.setStatus(connectorId, this.connectorAt(connectorId).status);
  }





  clearIdTagCache(): void {
    this.idTagCache.clear();
  }


  // —— internals ——

  protected afterBoot(): void {
    for (const c of this.connectors) this.sendStatus(c.id).catch(noop);
  }

  protected answer(method: string, params: any): Promise<CommandOutcome> {
    return handleCommand(this, method, params);
  }

  protected stopTimers(): void {
    for (const c of this.connectors) clearInterval(c.meterTimer);
  }





  private setStatus(connectorId: number, status: ConnectorStatus): Promise<unknown> {
    this.advanceAll();
    this.connectorAt(connectorId).status = status;
    this.emit('status', connectorId, status);
    const timestamp = this.iso(this.now());
    return this.deliver(this.outbox.push('StatusNotification',
      () => ({ connectorId, errorCode: 'NoError', status, timestamp }), true));
  }

  private applyAvailability(connectorId: number, operative: boolean): void {
    const c = this.connectors[connectorId];
    c.operative = operative;
    const status: ConnectorStatus = !operative ? 'Unavailable' : c.status === 'Unavailable' ? 'Available' : c.status;
    if (status !== c.status) this.setStatus(connectorId, status).catch(noop);
  }


  private txId(tx: Transaction): number {
    if (tx.id === undefined) throw new Error(`${this.cpNo}: transaction was never started by the central system`);
    return tx.id;
  }

  private advanceAll(): void {
    this.power.advanceAll();
  }

  private restartMeterTimer(c: Connector): void {
    this.power.sampleEvery(c, this.stopped ? 0 : this.config.int('MeterValueSampleInterval'), (id) => this.sendMeterValues(id));
  }

  private connector(connectorId: number): Connector {
    if (!Number.isInteger(connectorId) || connectorId < 1 || connectorId > this.connectorCount) {
      throw new Error(`${this.cpNo}: no connector ${connectorId}`);
    }
    return this.connectors[connectorId];
  }

  private connectorAt(connectorId: number): Connector {
    return connectorId === 0 ? this.connectors[0] : this.connector(connectorId);
  }

}
