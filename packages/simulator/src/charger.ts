import { EventEmitter } from 'node:events';
import { ChargingProfiles, type ChargingProfile, type ClearFilter } from './charging-profiles.ts';
import { Configuration } from './configuration.ts';
import { Connection, backoffDelay, type BackoffOptions } from './connection.ts';
import { Connector, type ConnectorStatus, type SampledValue, type Transaction } from './connector.ts';
import { Outbox } from './outbox.ts';
import { handleCommand } from './commands.ts';

/** pino-compatible subset; the simulator is silent without one. */
export interface SimLogger {
  debug?(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
}

export interface SimulatedChargerOptions {
  /** Central system endpoint without the charger id, e.g. ws://localhost:8080/ocpp */
  url: string;
  cpNo: string;
  /** HTTP Basic password (security profile 1); none sends no Authorization header. */
  password?: string;
  connectors: number;
  vendor?: string;
  model?: string;
  serialNumber?: string;
  firmwareVersion?: string;
  /** MeterValues period during a transaction; 0 (default) = only on demand. */
  meterIntervalSec?: number;
  /** Overrides the interval the BootNotification answer gives. */
  heartbeatIntervalSec?: number;
  maxCurrentA?: number;
  voltage?: number;
  phases?: number;
  callTimeoutMs?: number;
  /** Reconnect by itself with back-off when the central system goes away (default true). */
  reconnect?: boolean;
  backoff?: BackoffOptions;
  /** Pause between closing and reconnecting on Reset. */
  rebootDelayMs?: number;
  /** Time a diagnostics upload takes. */
  diagnosticsUploadMs?: number;
  /** Validate messages against the OCPP 1.6 schemas (default true). */
  strict?: boolean;
  /** Time source (ms since epoch) for energy and timestamps: tests make time pass without waiting. */
  clock?: () => number;
  initialMeterWh?: number;
  logger?: SimLogger;
}

export type CommandOverride = (params: any) => Record<string, unknown> | Promise<Record<string, unknown>>;
type StopReason = 'Local' | 'Remote' | 'EVDisconnected' | 'HardReset' | 'SoftReset' | 'UnlockCommand' | 'DeAuthorized' | 'PowerLoss' | 'Reboot' | 'Other' | 'EmergencyStop';
export interface IdTagInfo { status: 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'; expiryDate?: string; parentIdTag?: string }

const noop = () => undefined;

/**
 * An OCPP 1.6-J charge point. Local actions (plug in, start, stop …) are methods; commands from
 * the central system are answered as a real charger would (commands.ts). Transaction messages
 * and status changes made while offline are queued and replayed in order, with the timestamps
 * of the moment they happened.
 *
 * Events: 'connected', 'disconnected', 'reconnecting' ({attempt, delayMs}), 'booted' (answer),
 * 'command' (method, params), 'status' (connectorId, status), 'callError' (method, error).
 */
export class SimulatedCharger extends EventEmitter {
  readonly cpNo: string;
  readonly config: Configuration;
  readonly counters = { sent: 0, received: 0, errors: 0, bootCount: 0 };
  diagnosticsStatus: 'Idle' | 'Uploading' | 'Uploaded' | 'UploadFailed' = 'Idle';
  private readonly opts: SimulatedChargerOptions;
  private readonly now: () => number;
  private readonly connectors: Connector[];
  private readonly profiles: ChargingProfiles;
  private readonly connection: Connection;
  private readonly outbox: Outbox;
  private readonly overrides = new Map<string, CommandOverride>();
  private readonly idTagCache = new Map<string, IdTagInfo>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly immediates = new Set<NodeJS.Immediate>();
  private accepted = false;
  private stopped = false;
  private heartbeatTimer?: NodeJS.Timeout;

  constructor(options: SimulatedChargerOptions) {
    super();
    this.opts = options;
    this.cpNo = options.cpNo;
    this.now = options.clock ?? Date.now;
    this.profiles = new ChargingProfiles({ voltage: this.voltage, phases: this.phases });
    this.connectors = Array.from({ length: options.connectors + 1 }, (_, id) => new Connector(id, this.now(), options.initialMeterWh ?? 0));
    this.config = new Configuration({
      connectors: options.connectors,
      heartbeatIntervalSec: options.heartbeatIntervalSec ?? 0,
      meterIntervalSec: options.meterIntervalSec ?? 0,
    });
    this.config.onChange((key) => {
      if (key === 'HeartbeatInterval') this.restartHeartbeat();
      if (key === 'MeterValueSampleInterval') for (const c of this.connectors) if (c.tx) this.restartMeterTimer(c);
    });
    this.connection = new Connection({
      url: options.url.replace(/\/+$/, ''),
      cpNo: options.cpNo,
      password: options.password,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
      reconnect: options.reconnect ?? true,
      backoff: { initialMs: 1000, maxMs: 30_000, ...options.backoff },
      strict: options.strict ?? true,
    }, (method, params) => this.onCommand(method, params), () => this.opened());
    this.connection.on('open', () => this.emit('connected'));
    this.connection.on('close', () => {
      this.outbox.dropUnqueueable();
      this.emit('disconnected');
    });
    this.connection.on('reconnecting', (e) => this.emit('reconnecting', e));
    this.outbox = new Outbox((method, params) => this.send(method, params), () => this.isConnected);
  }

  get voltage(): number { return this.opts.voltage ?? 230; }
  get phases(): number { return this.opts.phases ?? 1; }
  get vendor(): string { return this.opts.vendor ?? 'EVSim'; }
  get connectorCount(): number { return this.opts.connectors; }
  get diagnosticsUploadMs(): number { return this.opts.diagnosticsUploadMs ?? 1000; }
  /** Connected and accepted by the central system. */
  get isConnected(): boolean { return this.connection.isOpen && this.accepted; }
  /** Messages waiting for the link (offline queue). */
  get queued(): number { return this.outbox.length; }

  /**
   * Connects, boots (retrying while Pending or Rejected) and reports every connector's status.
   * Fails if the first connection fails, unless `retry`: then retries with back-off until stop().
   */
  async start({ retry = false }: { retry?: boolean } = {}): Promise<void> {
    if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
    if (retry) await this.connectUntilUp();
    else await this.connection.connect();
  }

  async plugIn(connectorId: number): Promise<void> {
    const c = this.connector(connectorId);
    if (!c.operative) throw new Error(`${this.cpNo}: connector ${connectorId} is unavailable`);
    if (c.status !== 'Available' && c.status !== 'Finishing') return;
    c.newVehicle();
    await this.setStatus(connectorId, 'Preparing');
  }

  async authorize(idTag: string): Promise<IdTagInfo> {
    if (!this.isConnected) {
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
    this.advanceAll();
    if (c.status === 'Available') c.newVehicle();
    const tx: Transaction = { idTag, startedAt: this.now(), meterStart: c.registerWh };
    c.tx = tx;
    const timestamp = this.iso(tx.startedAt);
    const started = this.outbox.push('StartTransaction',
      () => ({ connectorId, idTag, meterStart: tx.meterStart, timestamp }), true);
    this.setStatus(connectorId, 'Charging').catch(noop);
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
    this.profiles.endTransaction(connectorId);
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
    const c = this.connector(connectorId);
    const drawing = this.connectors.filter((x) => x.drawing && x !== c).length + 1;
    const tx = c.tx && { transactionId: c.tx.id, startedAt: c.tx.startedAt };
    const limit = this.profiles.limitA(connectorId, tx, drawing, this.now());
    return Math.max(0, Math.min(this.opts.maxCurrentA ?? 32, limit ?? Infinity));
  }

  /** Simulates a network loss: the socket dies and stays down until reconnect(); messages queue. */
  disconnect(): void {
    this.connection.drop();
  }

  /** Reconnects and replays the offline queue; resolves when the queue is delivered. */
  async reconnect(): Promise<void> {
    if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
    await this.connection.connect();
    if (this.outbox.length > 0 && !this.isConnected) throw new Error(`${this.cpNo}: connection lost during replay`);
  }

  /** Closes for good: timers stop, queued messages are dropped. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.heartbeatTimer);
    for (const c of this.connectors) clearInterval(c.meterTimer);
    for (const s of this.sleepers) { clearTimeout(s.timer); s.wake(); }
    for (const i of this.immediates) clearImmediate(i);
    this.outbox.close(`${this.cpNo}: stopped`);
    await this.connection.close();
  }

  /** Replaces the default answer to a command (tests: refuse, delay, throw). */
  respondTo(method: string, handler: CommandOverride): void {
    this.overrides.set(method, handler);
  }

  // —— what commands do; public so that tests can also cause them locally ——

  setChargingProfile(connectorId: number, profile: ChargingProfile): 'Accepted' | 'Rejected' {
    const purpose = profile.chargingProfilePurpose;
    if (connectorId < 0 || connectorId > this.connectorCount) return 'Rejected';
    if (purpose === 'ChargePointMaxProfile' && connectorId !== 0) return 'Rejected';
    if (purpose === 'TxProfile' && (connectorId === 0 || !this.connectors[connectorId].tx)) return 'Rejected';
    if (profile.stackLevel > this.config.int('ChargeProfileMaxStackLevel')) return 'Rejected';
    this.advanceAll();
    this.profiles.set(connectorId, profile, this.now());
    return 'Accepted';
  }

  clearChargingProfile(filter: ClearFilter): 'Accepted' | 'Unknown' {
    this.advanceAll();
    return this.profiles.clear(filter) > 0 ? 'Accepted' : 'Unknown';
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

  /** Reset: ends transactions, closes, and boots again after a pause. */
  async reboot(type: 'Hard' | 'Soft'): Promise<void> {
    for (const c of this.connectors) {
      if (c.tx) await this.stopTransaction(c.id, type === 'Hard' ? 'HardReset' : 'SoftReset').catch(noop);
    }
    await this.outbox.pump();
    clearInterval(this.heartbeatTimer);
    this.accepted = false;
    await this.connection.close();
    for (const c of this.connectors) c.status = c.operative ? 'Available' : 'Unavailable';
    await this.sleep(this.opts.rebootDelayMs ?? 1000);
    if (!this.stopped) await this.connectUntilUp();
  }

  /** StatusNotification of the connector's current status (0 = the charge point). */
  async sendStatus(connectorId: number): Promise<void> {
    await this.setStatus(connectorId, this.connectorAt(connectorId).status);
  }

  async heartbeat(): Promise<string | undefined> {
    if (!this.isConnected) return undefined;
    const { currentTime } = await this.outbox.push('Heartbeat', () => ({}), false);
    return currentTime;
  }

  async bootNotification(): Promise<{ status: string; interval: number; currentTime: string }> {
    const answer = await this.send('BootNotification', {
      chargePointVendor: this.vendor,
      chargePointModel: this.opts.model ?? 'Sim-AC22',
      chargePointSerialNumber: this.opts.serialNumber ?? `SN-${this.cpNo}`,
      chargeBoxSerialNumber: this.opts.serialNumber ?? `SN-${this.cpNo}`,
      firmwareVersion: this.opts.firmwareVersion ?? '1.0.0',
      meterType: 'SimMeter',
    });
    if (answer.status === 'Accepted') {
      this.config.setInternal('HeartbeatInterval', this.opts.heartbeatIntervalSec ?? answer.interval);
      this.restartHeartbeat();
    }
    return answer;
  }

  /** DiagnosticsStatusNotification with `status`, remembered for TriggerMessage. */
  async sendDiagnosticsStatus(status = this.diagnosticsStatus): Promise<void> {
    this.diagnosticsStatus = status;
    await this.outbox.push('DiagnosticsStatusNotification', () => ({ status }), false);
  }

  async sendFirmwareStatus(): Promise<void> {
    await this.outbox.push('FirmwareStatusNotification', () => ({ status: 'Idle' }), false);
  }

  clearIdTagCache(): void {
    this.idTagCache.clear();
  }

  /** Waits ms unless stop() comes first. */
  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper = {
        timer: setTimeout(() => { this.sleepers.delete(sleeper); resolve(); }, ms),
        wake: resolve,
      };
      this.sleepers.add(sleeper);
    });
  }

  // —— internals ——

  /** The opening sequence of every connection: boot unless already accepted, then replay. */
  private async opened(): Promise<void> {
    if (!this.accepted) {
      for (;;) {
        const answer = await this.bootNotification();
        if (answer.status === 'Accepted') break;
        // Pending / Rejected: ask again after the interval the central system gave.
        await this.sleep((answer.interval > 0 ? answer.interval : 10) * 1000);
        if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
      }
      this.accepted = true;
      this.counters.bootCount++;
      this.emit('booted');
      for (const c of this.connectors) this.sendStatus(c.id).catch(noop);
    }
    await this.outbox.pump();
  }

  private async connectUntilUp(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.connection.connect();
        return;
      } catch (err) {
        if (this.stopped) throw err;
        const delayMs = backoffDelay(attempt, { initialMs: 1000, maxMs: 30_000, ...this.opts.backoff });
        this.opts.logger?.debug?.({ cpNo: this.cpNo, err: String(err), delayMs }, 'connect failed, retrying');
        this.emit('reconnecting', { attempt: attempt + 1, delayMs });
        await this.sleep(delayMs);
        if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
      }
    }
  }

  private async onCommand(method: string, params: any): Promise<Record<string, unknown>> {
    this.counters.received++;
    this.emit('command', method, params);
    const override = this.overrides.get(method);
    if (override) return override(params);
    const { result, after } = await handleCommand(this, method, params);
    if (after) {
      // setImmediate: the answer goes out first, as a charger acts on a command it accepted.
      const immediate = setImmediate(() => {
        this.immediates.delete(immediate);
        after().catch((err) => this.opts.logger?.warn?.({ cpNo: this.cpNo, method, err: String(err) }, 'command follow-up failed'));
      });
      this.immediates.add(immediate);
    }
    return result;
  }

  private async send(method: string, params: Record<string, unknown>): Promise<any> {
    this.counters.sent++;
    try {
      return await this.connection.call(method, params);
    } catch (err) {
      // Calls cut short by our own stop() are not the central system's errors.
      if (this.stopped) throw err;
      this.counters.errors++;
      this.opts.logger?.warn?.({ cpNo: this.cpNo, method, err: String(err) }, 'call failed');
      this.emit('callError', method, err);
      throw err;
    }
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

  /** Online: resolves when the central system answered. Offline: resolves now, the message waits. */
  private deliver<T>(delivered: Promise<T>): Promise<T | undefined> {
    return this.isConnected ? delivered : Promise.resolve(undefined);
  }

  private txId(tx: Transaction): number {
    if (tx.id === undefined) throw new Error(`${this.cpNo}: transaction was never started by the central system`);
    return tx.id;
  }

  /** Brings every energy register up to now at the currents allowed until now. */
  private advanceAll(): void {
    const now = this.now();
    for (const c of this.connectors) if (c.id > 0) c.advance(now, this.allowedCurrent(c.id), this.voltage, this.phases);
  }

  private restartHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    const sec = this.config.int('HeartbeatInterval');
    if (sec > 0 && !this.stopped) this.heartbeatTimer = setInterval(() => this.heartbeat().catch(noop), sec * 1000);
  }

  private restartMeterTimer(c: Connector): void {
    clearInterval(c.meterTimer);
    const sec = this.config.int('MeterValueSampleInterval');
    if (sec > 0 && !this.stopped) c.meterTimer = setInterval(() => this.sendMeterValues(c.id).catch(noop), sec * 1000);
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

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}
