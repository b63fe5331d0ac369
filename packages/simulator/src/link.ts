import { EventEmitter } from 'node:events';
import { Configuration } from './configuration.ts';
import { Connection, backoffDelay, type BackoffOptions } from './connection.ts';
import { Outbox } from './outbox.ts';
import type { CommandOutcome } from './command-types.ts';

/** pino-compatible subset; the simulator is silent without one. */
export interface SimLogger {
  debug?(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
}

export interface SimulatedChargerOptions {
  /** OCPP version spoken: createCharger (factory.ts) picks the class; default ocpp1.6. */
  protocol?: 'ocpp1.6' | 'ocpp2.0.1';
  /** Central system endpoint without the charger id, e.g. ws://localhost:8080/ocpp */
  url: string;
  cpNo: string;
  /** HTTP Basic password (security profile 1); none sends no Authorization header. */
  password?: string;
  /** wss:// (security profile 2): the CA of the central system's certificate (PEM), or rejectUnauthorized false. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
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
  /** Validate messages against the protocol's schemas (default true). */
  strict?: boolean;
  /** Time source (ms since epoch) for energy and timestamps: tests make time pass without waiting. */
  clock?: () => number;
  initialMeterWh?: number;
  logger?: SimLogger;
}

export type CommandOverride = (params: any) => Record<string, unknown> | Promise<Record<string, unknown>>;

export const noop = () => undefined;

/**
 * The charger's side of the conversation with the central system: connection and boot, the
 * ordered outbox with its offline queue, heartbeats, and dispatch of the commands received.
 * SimulatedCharger adds the connectors and what happens on them.
 */
export abstract class ChargePointLink extends EventEmitter {
  readonly cpNo: string;
  readonly config: Configuration;
  readonly counters = { sent: 0, received: 0, errors: 0, bootCount: 0 };
  diagnosticsStatus: 'Idle' | 'Uploading' | 'Uploaded' | 'UploadFailed' = 'Idle';
  protected readonly opts: SimulatedChargerOptions;
  protected readonly now: () => number;
  protected readonly connection: Connection;
  protected readonly outbox: Outbox;
  protected accepted = false;
  /** Set while a boot that was not accepted waits to ask again: a triggered boot accepted meanwhile ends the wait. */
  private acceptedMeanwhile?: () => void;
  protected stopped = false;
  private readonly overrides = new Map<string, CommandOverride>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly immediates = new Set<NodeJS.Immediate>();
  private heartbeatTimer?: NodeJS.Timeout;

  constructor(options: SimulatedChargerOptions) {
    super();
    this.opts = options;
    this.cpNo = options.cpNo;
    this.password = options.password;
    this.now = options.clock ?? Date.now;
    this.config = new Configuration({
      connectors: options.connectors,
      heartbeatIntervalSec: options.heartbeatIntervalSec ?? 0,
      meterIntervalSec: options.meterIntervalSec ?? 0,
    });
    this.config.onChange((key) => {
      if (key === 'HeartbeatInterval') this.restartHeartbeat();
    });
    this.connection = new Connection({
      url: options.url.replace(/\/+$/, ''),
      cpNo: options.cpNo,
      password: options.password,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
      reconnect: options.reconnect ?? true,
      backoff: { initialMs: 1000, maxMs: 30_000, ...options.backoff },
      strict: options.strict ?? true,
      tls: options.tls,
      protocol: options.protocol,
    }, (method, params) => this.onCommand(method, params), () => this.opened());
    this.connection.on('open', () => this.emit('connected'));
    this.connection.on('close', () => {
      this.outbox.dropUnqueueable();
      this.emit('disconnected');
    });
    this.connection.on('reconnecting', (e) => this.emit('reconnecting', e));
    this.outbox = new Outbox((method, params) => this.send(method, params), () => this.isConnected);
  }

  /** Once per boot accepted: report the state of the charge point. */
  protected abstract afterBoot(): void;
  /** The default answer to a command. */
  protected abstract answer(method: string, params: any): Promise<CommandOutcome>;
  /** stop(): the subclass's timers end too. */
  protected abstract stopTimers(): void;

  get vendor(): string { return this.opts.vendor ?? 'EVSim'; }

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

  /** Simulates a network loss: the socket dies and stays down until reconnect(); messages queue. */
  disconnect(): void {
    this.connection.drop();
  }

  /** Reconnects and replays the offline queue; resolves when the queue is delivered. */
  async reconnect(): Promise<void> {
    if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
    if (this.isConnected) await this.outbox.pump();
    else await this.connection.connect();
    if (this.outbox.length > 0 && !this.isConnected) throw new Error(`${this.cpNo}: connection lost during replay`);
  }

  /** Closes for good: timers stop, queued messages are dropped. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.heartbeatTimer);
    this.stopTimers();
    for (const s of this.sleepers) { clearTimeout(s.timer); s.wake(); }
    for (const i of this.immediates) clearImmediate(i);
    this.outbox.close(`${this.cpNo}: stopped`);
    await this.connection.close();
  }

  /** Replaces the default answer to a command (tests: refuse, delay, throw). */
  respondTo(method: string, handler: CommandOverride): void {
    this.overrides.set(method, handler);
  }

  /**
   * ChangeConfiguration AuthorizationKey: the value is the password hex-encoded (OCPP 1.6 security
   * whitepaper), decoded here and signed in with from the next connection on. 16 to 40 bytes, else Rejected.
   */
  changePassword(hex: string): 'Accepted' | 'Rejected' {
    if (!/^([0-9a-fA-F]{2}){16,40}$/.test(hex)) return 'Rejected';
    this.password = Buffer.from(hex, 'hex').toString('utf8');
    this.connection.usePassword(this.password);
    return 'Accepted';
  }

  /** The HTTP Basic password signed in with (the option, then the last AuthorizationKey accepted). */
  password: string | undefined;

  async heartbeat(): Promise<string | undefined> {
    if (!this.isConnected) return undefined;
    const { currentTime } = await this.outbox.push('Heartbeat', () => ({}), false);
    return currentTime;
  }

  async bootNotification(): Promise<{ status: string; interval: number; currentTime: string }> {
    const answer = await this.send('BootNotification', this.bootRequest());
    if (answer.status === 'Accepted') {
      this.config.setInternal('HeartbeatInterval', this.opts.heartbeatIntervalSec ?? answer.interval);
      this.restartHeartbeat();
      this.acceptedMeanwhile?.();
    }
    return answer;
  }

  /** The BootNotification payload (OCPP 1.6; the 2.0.1 charger has its own). */
  protected bootRequest(): Record<string, unknown> {
    return {
      chargePointVendor: this.vendor,
      chargePointModel: this.opts.model ?? 'Sim-AC22',
      chargePointSerialNumber: this.opts.serialNumber ?? `SN-${this.cpNo}`,
      chargeBoxSerialNumber: this.opts.serialNumber ?? `SN-${this.cpNo}`,
      firmwareVersion: this.opts.firmwareVersion ?? '1.0.0',
      meterType: 'SimMeter',
    };
  }

  /** DiagnosticsStatusNotification with `status`, remembered for TriggerMessage. */
  async sendDiagnosticsStatus(status = this.diagnosticsStatus): Promise<void> {
    this.diagnosticsStatus = status;
    await this.outbox.push('DiagnosticsStatusNotification', () => ({ status }), false);
  }

  async sendFirmwareStatus(): Promise<void> {
    await this.outbox.push('FirmwareStatusNotification', () => ({ status: 'Idle' }), false);
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

  /** The opening sequence of every connection: boot unless already accepted, then replay. */
  private async opened(): Promise<void> {
    if (!this.accepted) {
      for (;;) {
        const answer = await this.bootNotification();
        if (answer.status === 'Accepted') break;
        // Pending / Rejected: ask again after the interval the central system gave, unless a boot it triggered
        // meanwhile (TriggerMessage BootNotification, once it has read a Pending station) was accepted.
        const accepted = new Promise<boolean>((resolve) => (this.acceptedMeanwhile = () => resolve(true)));
        const early = await Promise.race([this.sleep((answer.interval > 0 ? answer.interval : 10) * 1000).then(() => false), accepted]);
        this.acceptedMeanwhile = undefined;
        if (this.stopped) throw new Error(`${this.cpNo}: stopped`);
        if (early) break;
      }
      this.accepted = true;
      this.counters.bootCount++;
      this.emit('booted');
      this.afterBoot();
    }
    await this.outbox.pump();
  }

  protected async connectUntilUp(): Promise<void> {
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
    const { result, after } = await this.answer(method, params);
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

  protected async send(method: string, params: Record<string, unknown>): Promise<any> {
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

  /** Online: resolves when the central system answered. Offline: resolves now, the message waits. */
  protected deliver<T>(delivered: Promise<T>): Promise<T | undefined> {
    return this.isConnected ? delivered : Promise.resolve(undefined);
  }

  protected restartHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    const sec = this.config.int('HeartbeatInterval');
    if (sec > 0 && !this.stopped) this.heartbeatTimer = setInterval(() => this.heartbeat().catch(noop), sec * 1000);
  }

  protected iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  /** Closes the link as a rebooting charger does and boots again after a pause. */
  protected async restartLink(): Promise<void> {
    await this.outbox.pump();
    clearInterval(this.heartbeatTimer);
    this.accepted = false;
    await this.connection.close();
    await this.sleep(this.opts.rebootDelayMs ?? 1000);
    if (!this.stopped) await this.connectUntilUp();
  }
}
