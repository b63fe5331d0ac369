/**
 * The session side of an OCPP 2.0.1 charging station: EVSEs, transactions (TransactionEvent), status and
 * meter values, with the public shape of the 1.6 SimulatedCharger (plugIn, authorize, startTransaction,
 * stopTransaction, unplug, sendMeterValues …) so that a scenario runs with either protocol. The EVSE and
 * connector model is described in charger.ts, which adds what the CSMS's messages do.
 */
import { randomUUID } from 'node:crypto';
import { Connector, type ConnectorStatus, type SampledValue, type Transaction } from '../connector.ts';
import { ChargePointLink, noop, type SimulatedChargerOptions } from '../link.ts';
import { PowerModel } from '../power.ts';
import {
  STOP_TRIGGER, chargingState, connectorStatus201, sampledValue201,
  type ChargingProfile201, type IdTokenInfo, type StopReason201, type TriggerReason,
} from './messages.ts';

export interface Tx201 extends Transaction {
  transactionId: string;
  remoteStartId?: number;
  /** The Started event is queued: chargingState changes go out as Updated events from then on. */
  announced: boolean;
}

export abstract class Station201 extends ChargePointLink {
  readonly protocol = 'ocpp2.0.1';
  protected readonly connectors: Connector[];
  /** Current allowed, energy and charging profiles, shared with the 1.6 charger (power.ts). */
  protected readonly power: PowerModel;
  private readonly idTokenCache = new Map<string, IdTokenInfo>();
  private seqNo = 0;

  constructor(options: SimulatedChargerOptions) {
    super({ ...options, protocol: 'ocpp2.0.1' });
    this.connectors = Array.from({ length: options.connectors + 1 }, (_, id) => new Connector(id, this.now(), options.initialMeterWh ?? 0));
    this.power = new PowerModel(this.connectors, {
      maxCurrentA: options.maxCurrentA ?? 32, voltage: this.voltage, phases: this.phases, now: () => this.now(),
      transactionId: (tx) => (tx as Tx201).transactionId, setStatus: (id, status) => { this.setStatus(id, status).catch(noop); },
    });
    this.config.onChange((key) => {
      if (key === 'MeterValueSampleInterval') for (const c of this.connectors) if (c.tx) this.restartMeterTimer(c);
    });
  }

  /** A transaction ended and its Ended event is out (or queued): scheduled availability and resets follow. */
  protected abstract transactionEnded(c: Connector): Promise<void>;
  /** SetChargingProfile (charger.ts): a RequestStartTransaction's TxProfile goes in with its transaction. */
  abstract setChargingProfile(evseId: number, profile: ChargingProfile201): 'Accepted' | 'Rejected';

  get voltage(): number { return this.opts.voltage ?? 230; }
  get phases(): number { return this.opts.phases ?? 1; }
  get model(): string { return this.opts.model ?? 'Sim-AC22'; }
  /** EVSEs (one connector each); named as in the 1.6 charger so scenarios run on both. */
  get connectorCount(): number { return this.opts.connectors; }

  async plugIn(evseId: number): Promise<void> {
    const c = this.evse(evseId);
    if (!c.operative) throw new Error(`${this.cpNo}: EVSE ${evseId} is unavailable`);
    if (c.status !== 'Available' && c.status !== 'Finishing') return;
    c.newVehicle();
    await this.setStatus(evseId, 'Preparing');
  }

  /** Authorize online; offline the cache answers (LocalAuthorizeOffline), else OfflineTxForUnknownIdEnabled decides. */
  async authorize(idToken: string): Promise<IdTokenInfo> {
    if (!this.isConnected) {
      const cached = this.config.bool('LocalAuthorizeOffline') ? this.idTokenCache.get(idToken) : undefined;
      return cached ?? { status: this.config.bool('AllowOfflineTxForUnknownId') ? 'Accepted' : 'Invalid' };
    }
    const { idTokenInfo } = await this.outbox.push('Authorize', () => ({ idToken: token(idToken) }), false);
    this.idTokenCache.set(idToken, idTokenInfo);
    return idTokenInfo;
  }

  /**
   * Starts a transaction (TransactionEvent Started); resolves with its id once the CSMS has the event, so
   * when offline only after the reconnect delivered it. Energy counts from now either way.
   */
  async startTransaction(evseId: number, idToken: string, opts: { remoteStartId?: number; chargingProfile?: ChargingProfile201; reservationId?: number } = {}): Promise<string> {
    const c = this.evse(evseId);
    if (c.tx) throw new Error(`${this.cpNo}: EVSE ${evseId} already has a transaction`);
    if (!c.operative) throw new Error(`${this.cpNo}: EVSE ${evseId} is unavailable`);
    this.advanceAll();
    if (c.status === 'Available' || c.status === 'Reserved') c.newVehicle();
    const tx: Tx201 = { transactionId: randomUUID(), idTag: idToken, startedAt: this.now(), meterStart: c.registerWh, announced: false, remoteStartId: opts.remoteStartId };
    c.tx = tx;
    if (opts.chargingProfile) this.setChargingProfile(evseId, { ...opts.chargingProfile, transactionId: tx.transactionId });
    this.setStatus(evseId, this.allowedCurrent(evseId) > 0 ? 'Charging' : 'SuspendedEVSE').catch(noop);
    const started = this.transactionEvent('Started', c, opts.remoteStartId !== undefined ? 'RemoteStart' : 'Authorized', {
      idToken: token(idToken),
      ...(opts.reservationId !== undefined ? { reservationId: opts.reservationId } : {}),
      meterValue: [{ timestamp: this.iso(tx.startedAt), sampledValue: [energy(tx.meterStart, 'Transaction.Begin')] }],
    });
    tx.announced = true;
    this.restartMeterTimer(c);
    let answer: { idTokenInfo?: IdTokenInfo };
    try {
      answer = await started;
    } catch (err) {
      if (c.tx === tx) this.endLocally(c);
      throw err;
    }
    if (answer.idTokenInfo) this.idTokenCache.set(idToken, answer.idTokenInfo);
    if (answer.idTokenInfo && answer.idTokenInfo.status !== 'Accepted' && this.config.bool('StopTransactionOnInvalidId') && c.tx === tx) {
      await this.stopTransaction(evseId, 'DeAuthorized');
    }
    return tx.transactionId;
  }

  /** A meter sample: during a transaction a TransactionEvent Updated, else a MeterValues message. */
  async sendMeterValues(evseId: number, context: SampledValue['context'] = 'Sample.Periodic'): Promise<void> {
    const c = this.evse(evseId);
    this.advanceAll();
    const meterValue = [{ timestamp: this.iso(this.now()), sampledValue: this.sample(c, context) }];
    if (c.tx) {
      await this.deliver(this.transactionEvent('Updated', c, context === 'Trigger' ? 'Trigger' : 'MeterValuePeriodic', { meterValue }));
    } else {
      await this.deliver(this.outbox.push('MeterValues', () => ({ evseId, meterValue }), true));
    }
  }

  /** TriggerMessage MeterValues: always a MeterValues message, transaction or not. */
  async sendMeterValuesMessage(evseId: number): Promise<void> {
    const c = this.evse(evseId);
    this.advanceAll();
    const meterValue = [{ timestamp: this.iso(this.now()), sampledValue: this.sample(c, 'Trigger') }];
    await this.deliver(this.outbox.push('MeterValues', () => ({ evseId, meterValue }), true));
  }

  async stopTransaction(evseId: number, reason: StopReason201 = 'Local'): Promise<void> {
    const c = this.evse(evseId);
    if (!c.tx) throw new Error(`${this.cpNo}: no transaction on EVSE ${evseId}`);
    this.advanceAll();
    const ended = this.transactionEvent('Ended', c, STOP_TRIGGER[reason], {
      meterValue: [{ timestamp: this.iso(this.now()), sampledValue: this.sample(c, 'Transaction.End', 'StopTxnSampledData') }],
    }, { stoppedReason: reason, chargingState: reason === 'EVDisconnected' ? 'Idle' : 'EVConnected' });
    this.endLocally(c);
    this.setStatus(evseId, 'Finishing').catch(noop);
    await this.deliver(ended);
    await this.transactionEnded(c);
  }

  /** The EV leaves: a transaction still running ends (EVDisconnected), the EVSE frees up. */
  async unplug(evseId: number): Promise<void> {
    const c = this.evse(evseId);
    if (c.tx) await this.stopTransaction(evseId, 'EVDisconnected');
    await this.setStatus(evseId, c.operative ? 'Available' : 'Unavailable');
  }

  /** The EVSE's detailed status (1.6 vocabulary, as the fleet and tests read it); ocppStatus gives the 2.0.1 one. */
  connectorStatus(evseId: number): ConnectorStatus { return this.connectorAt(evseId).status; }
  ocppStatus(evseId: number) { return connectorStatus201(this.connectorStatus(evseId)); }
  hasTransaction(evseId: number): boolean { return this.evse(evseId).tx !== undefined; }
  transactionId(evseId: number): string | undefined { return (this.evse(evseId).tx as Tx201 | undefined)?.transactionId; }

  /** The EVSE whose transaction has this id. */
  connectorOf(transactionId: string): number | undefined {
    return this.connectors.find((c) => c.id > 0 && (c.tx as Tx201 | undefined)?.transactionId === transactionId)?.id;
  }

  energyWh(evseId: number): number {
    this.advanceAll();
    return this.evse(evseId).registerWh;
  }

  /** Current (A) the EVSE may draw: maxCurrentA capped by the charging profiles in force (the shared engine). */
  allowedCurrent(evseId: number): number {
    this.evse(evseId);
    return this.power.allowedCurrent(evseId);
  }

  async sendStatus(evseId: number): Promise<void> {
    const c = this.evse(evseId);
    await this.deliver(this.pushStatus(evseId, c.status));
  }

  clearIdTagCache(): void { this.idTokenCache.clear(); }

  // —— internals ——

  protected stopTimers(): void { for (const c of this.connectors) clearInterval(c.meterTimer); }

  /** Queues a TransactionEvent; `offline` marks one that happened while the link was down. */
  protected transactionEvent(eventType: 'Started' | 'Updated' | 'Ended', c: Connector, triggerReason: TriggerReason,
    extra: Record<string, unknown>, info: Record<string, unknown> = {}): Promise<any> {
    const tx = c.tx as Tx201;
    const seqNo = this.seqNo++;
    const offline = !this.isConnected;
    const timestamp = this.iso(this.now());
    const transactionInfo = {
      transactionId: tx.transactionId, chargingState: chargingState(c.status),
      ...(tx.remoteStartId !== undefined && eventType === 'Started' ? { remoteStartId: tx.remoteStartId } : {}), ...info,
    };
    return this.outbox.push('TransactionEvent', () => ({
      eventType, timestamp, triggerReason, seqNo, ...(offline ? { offline } : {}), transactionInfo, evse: { id: c.id, connectorId: 1 }, ...extra,
    }), true);
  }

  private sample(c: Connector, context: SampledValue['context'], key = 'MeterValuesSampledData'): Record<string, unknown>[] {
    return c.sample(this.config.list(key), context, this.allowedCurrent(c.id), this.voltage, this.phases).map(sampledValue201);
  }

  private endLocally(c: Connector): void {
    clearInterval(c.meterTimer);
    c.tx = undefined;
    this.power.profiles.endTransaction(c.id);
  }

  /** Sets the status; a StatusNotification goes out when the 2.0.1 connectorStatus changes, an Updated event when the chargingState does. */
  protected setStatus(evseId: number, status: ConnectorStatus): Promise<unknown> {
    this.advanceAll();
    const c = this.connectorAt(evseId);
    const before = c.status;
    c.status = status;
    this.emit('status', evseId, status);
    if (evseId === 0) return Promise.resolve();
    const tx = c.tx as Tx201 | undefined;
    if (tx?.announced && chargingState(before) !== chargingState(status)) this.transactionEvent('Updated', c, 'ChargingStateChanged', {}).catch(noop);
    if (connectorStatus201(before) === connectorStatus201(status)) return Promise.resolve();
    return this.deliver(this.pushStatus(evseId, status));
  }

  protected pushStatus(evseId: number, status: ConnectorStatus): Promise<unknown> {
    const timestamp = this.iso(this.now());
    return this.outbox.push('StatusNotification', () => ({ timestamp, connectorStatus: connectorStatus201(status), evseId, connectorId: 1 }), true);
  }

  protected advanceAll(): void {
    this.power.advanceAll();
  }

  private restartMeterTimer(c: Connector): void {
    this.power.sampleEvery(c, this.stopped ? 0 : this.config.int('MeterValueSampleInterval'), (id) => this.sendMeterValues(id));
  }

  protected evse(evseId: number): Connector {
    if (!Number.isInteger(evseId) || evseId < 1 || evseId > this.connectorCount) throw new Error(`${this.cpNo}: no EVSE ${evseId}`);
    return this.connectors[evseId];
  }

  protected connectorAt(evseId: number): Connector {
    return evseId === 0 ? this.connectors[0] : this.evse(evseId);
  }
}

const token = (idToken: string) => ({ idToken, type: 'ISO14443' });

const energy = (wh: number, context: SampledValue['context']) => sampledValue201({
  value: String(wh), context, measurand: 'Energy.Active.Import.Register', unit: 'Wh', location: 'Outlet',
});
