import { ChargingProfiles, type ChargingProfile, type ClearFilter } from './charging-profiles.ts';
import type { Connector, ConnectorStatus, Transaction } from './connector.ts';

export interface PowerHost {
  maxCurrentA: number;
  voltage: number;
  phases: number;
  now(): number;
  /** The transaction's id as the profiles know it (a number in 1.6, a string in 2.0.1). */
  transactionId(tx: Transaction): number | string | undefined;
  /** A status change the limits cause (Charging ↔ SuspendedEVSE), reported by the charger. */
  setStatus(connectorId: number, status: ConnectorStatus): void;
}

/**
 * The electrical side both protocol versions share: the current each connector (EVSE in 2.0.1) may
 * draw under the charging profiles installed, the energy registers brought up to now at those
 * currents, and the composite schedule. connectors[0] stands for the whole charger.
 */
export class PowerModel {
  readonly profiles: ChargingProfiles;

  constructor(private readonly connectors: Connector[], private readonly host: PowerHost) {
    this.profiles = new ChargingProfiles({ voltage: host.voltage, phases: host.phases });
  }

  /**
   * (Re)starts a connector's meter samples every `sec` seconds (none for 0): each first follows a schedule
   * whose period changed the limit since the last sample, then `send`s it. A failed send is the charger's to log.
   */
  sampleEvery(c: Connector, sec: number, send: (connectorId: number) => Promise<void>): void {
    clearInterval(c.meterTimer);
    if (sec <= 0) return;
    c.meterTimer = setInterval(() => {
      this.followLimits();
      send(c.id).catch(() => undefined);
    }, sec * 1000);
  }

  /** Current (A) the connector may draw: maxCurrentA capped by the profiles in force. */
  allowedCurrent(connectorId: number): number {
    const c = this.connectors[connectorId];
    const drawing = this.connectors.filter((x) => x.drawing && x !== c).length + 1;
    const limit = this.profiles.limitA(connectorId, this.txView(c), drawing, this.host.now());
    return Math.max(0, Math.min(this.host.maxCurrentA, limit ?? Infinity));
  }

  /** Brings every energy register up to now at the currents allowed until now. */
  advanceAll(): void {
    const now = this.host.now();
    for (const c of this.connectors) if (c.id > 0) c.advance(now, this.allowedCurrent(c.id), this.host.voltage, this.host.phases);
  }

  /** Installs a profile (checked by the caller) from now on. */
  setProfile(connectorId: number, profile: ChargingProfile): void {
    this.advanceAll();
    this.profiles.set(connectorId, profile, this.host.now());
    this.followLimits();
  }

  /** ClearChargingProfile: how many profiles went. */
  clearProfiles(filter: ClearFilter): number {
    this.advanceAll();
    const cleared = this.profiles.clear(filter);
    this.followLimits();
    return cleared;
  }

  /** GetCompositeSchedule: the limits from now for durationSec in the unit asked. */
  composite(connectorId: number, durationSec: number, unit: 'A' | 'W'): { startPeriod: number; limit: number }[] {
    const c = this.connectors[connectorId];
    const drawing = connectorId === 0 ? 1 : this.connectors.filter((x) => x.drawing && x !== c).length + 1;
    const periods = this.profiles.composite(connectorId, this.txView(c), drawing, this.host.now(), durationSec, this.host.maxCurrentA);
    const watts = this.host.voltage * this.host.phases;
    return unit === 'A' ? periods : periods.map((p) => ({ ...p, limit: Math.floor(p.limit * watts * 10) / 10 }));
  }

  /**
   * As a real charger: a transaction whose limit is 0 A pauses and says so (SuspendedEVSE, the charger holds
   * the car), and resumes (Charging) once its limit rises above 0, so load management's queue shows as such.
   */
  followLimits(): void {
    for (const c of this.connectors) {
      if (c.id === 0 || !c.tx) continue;
      const held = this.allowedCurrent(c.id) <= 0;
      if (held && c.status === 'Charging') this.host.setStatus(c.id, 'SuspendedEVSE');
      else if (!held && c.status === 'SuspendedEVSE') this.host.setStatus(c.id, 'Charging');
    }
  }

  private txView(c: Connector) {
    return c.tx && { transactionId: this.host.transactionId(c.tx), startedAt: c.tx.startedAt };
  }
}
