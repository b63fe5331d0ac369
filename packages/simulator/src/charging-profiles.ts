/**
 * The charger's smart-charging state (OCPP 1.6 §3.13): installed profiles and the current
 * limit they impose on a connector at a moment. Pure: no timers, no I/O.
 */

export type ProfilePurpose = 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';

export interface ChargingSchedulePeriod {
  startPeriod: number;
  limit: number;
  numberPhases?: number;
}

export interface ChargingProfile {
  chargingProfileId: number;
  /** A number in OCPP 1.6, a string the charger chose in 2.0.1. */
  transactionId?: number | string;
  stackLevel: number;
  chargingProfilePurpose: ProfilePurpose;
  chargingProfileKind: 'Absolute' | 'Recurring' | 'Relative';
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: string;
  validTo?: string;
  chargingSchedule: {
    duration?: number;
    startSchedule?: string;
    chargingRateUnit: 'A' | 'W';
    chargingSchedulePeriod: ChargingSchedulePeriod[];
    minChargingRate?: number;
  };
}

interface Installed {
  connectorId: number;
  profile: ChargingProfile;
  /** When the profile was installed: the start of a Relative profile without a transaction. */
  installedAt: number;
}

export interface ClearFilter {
  id?: number;
  connectorId?: number;
  chargingProfilePurpose?: ProfilePurpose;
  stackLevel?: number;
}

/** What a connector's transaction looks like to the profile engine. */
export interface TransactionView {
  transactionId?: number | string;
  startedAt: number;
}

export class ChargingProfiles {
  private installed: Installed[] = [];

  constructor(private readonly electrical: { voltage: number; phases: number }) {}

  /**
   * Installs a profile; an existing one with the same id, or the same connector, purpose and
   * stack level, is replaced (OCPP 1.6 §5.16.2).
   */
  set(connectorId: number, profile: ChargingProfile, now: number): void {
    this.installed = this.installed.filter((i) =>
      i.profile.chargingProfileId !== profile.chargingProfileId &&
      !(i.connectorId === connectorId &&
        i.profile.chargingProfilePurpose === profile.chargingProfilePurpose &&
        i.profile.stackLevel === profile.stackLevel));
    this.installed.push({ connectorId, profile, installedAt: now });
  }

  /**
   * Removes the profile of the given id (the other criteria then do not apply), else the profiles
   * matching every given criterion (OCPP 1.6 §5.5); returns how many went.
   */
  clear(filter: ClearFilter): number {
    const before = this.installed.length;
    if (filter.id !== undefined) {
      this.installed = this.installed.filter((i) => i.profile.chargingProfileId !== filter.id);
      return before - this.installed.length;
    }
    this.installed = this.installed.filter((i) => !(
      (filter.connectorId === undefined || i.connectorId === filter.connectorId) &&
      (filter.chargingProfilePurpose === undefined || i.profile.chargingProfilePurpose === filter.chargingProfilePurpose) &&
      (filter.stackLevel === undefined || i.profile.stackLevel === filter.stackLevel)));
    return before - this.installed.length;
  }

  /** A TxProfile lives only as long as its transaction (OCPP 1.6 §3.13.1). */
  endTransaction(connectorId: number): void {
    this.installed = this.installed.filter((i) =>
      !(i.connectorId === connectorId && i.profile.chargingProfilePurpose === 'TxProfile'));
  }

  get size(): number {
    return this.installed.length;
  }

  /**
   * The current (A) a connector may draw now: the valid TxProfile with the highest stack level,
   * else the TxDefaultProfile (a connector's own before connector 0's), capped by the charge
   * point's maximum shared among the connectors that draw current. undefined = no limit.
   */
  limitA(connectorId: number, tx: TransactionView | undefined, drawingConnectors: number, now: number): number | undefined {
    const txLimit =
      (tx && this.pick(now, tx, (i) => i.connectorId === connectorId && i.profile.chargingProfilePurpose === 'TxProfile' &&
        (i.profile.transactionId === undefined || i.profile.transactionId === tx.transactionId))) ??
      this.pick(now, tx, (i) => i.connectorId === connectorId && i.profile.chargingProfilePurpose === 'TxDefaultProfile') ??
      this.pick(now, tx, (i) => i.connectorId === 0 && i.profile.chargingProfilePurpose === 'TxDefaultProfile');
    const cpMax = this.pick(now, tx, (i) => i.profile.chargingProfilePurpose === 'ChargePointMaxProfile');
    const share = cpMax === undefined ? undefined : cpMax / Math.max(1, drawingConnectors);
    if (txLimit === undefined) return share;
    return share === undefined ? txLimit : Math.min(txLimit, share);
  }

  /**
   * The composite schedule (OCPP 1.6 §3.13.4, GetCompositeSchedule): the limit (A) limitA gives from
   * now for durationSec, as periods that start where it changes; fallbackA where no profile limits.
   * The limit only changes where some profile's period, duration, validity or recurrence does.
   */
  composite(connectorId: number, tx: TransactionView | undefined, drawingConnectors: number, now: number, durationSec: number, fallbackA: number): ChargingSchedulePeriod[] {
    const end = now + durationSec * 1000;
    const points = new Set<number>([now]);
    const add = (t: number) => { if (t > now && t < end) points.add(t); };
    for (const i of this.installed) {
      const { profile } = i;
      if (profile.validFrom) add(Date.parse(profile.validFrom));
      if (profile.validTo) add(Date.parse(profile.validTo));
      const starts: number[] = [];
      if (profile.chargingProfileKind === 'Recurring') {
        const cycle = (profile.recurrencyKind === 'Weekly' ? 7 : 1) * 86_400_000;
        const origin = profile.chargingSchedule.startSchedule ? Date.parse(profile.chargingSchedule.startSchedule) : i.installedAt;
        // The cycle in force now (or the first one, still to come), then each that begins in the window.
        for (let s = this.scheduleStart(profile, tx, i.installedAt, now) ?? origin; s < end; s += cycle) starts.push(s);
      } else {
        const s = this.scheduleStart(profile, tx, i.installedAt, now);
        if (s !== undefined) starts.push(s);
      }
      for (const s of starts) {
        add(s);
        for (const p of profile.chargingSchedule.chargingSchedulePeriod) add(s + p.startPeriod * 1000);
        if (profile.chargingSchedule.duration !== undefined) add(s + profile.chargingSchedule.duration * 1000);
      }
    }
    const periods: ChargingSchedulePeriod[] = [];
    for (const t of [...points].sort((a, b) => a - b)) {
      // OCPP limits have one decimal: rounded down, never above what the profiles allow.
      const limit = Math.floor(Math.min(fallbackA, this.limitA(connectorId, tx, drawingConnectors, t) ?? Infinity) * 10 + 1e-9) / 10;
      if (periods.at(-1)?.limit !== limit) periods.push({ startPeriod: Math.round((t - now) / 1000), limit });
    }
    return periods;
  }

  /** The limit of the highest-stack-level matching profile that has a period in force now. */
  private pick(now: number, tx: TransactionView | undefined, match: (i: Installed) => boolean): number | undefined {
    const candidates = this.installed.filter(match).sort((a, b) => b.profile.stackLevel - a.profile.stackLevel);
    for (const c of candidates) {
      const limit = this.limitOf(c, tx, now);
      if (limit !== undefined) return limit;
    }
    return undefined;
  }

  private limitOf({ profile, installedAt }: Installed, tx: TransactionView | undefined, now: number): number | undefined {
    if (profile.validFrom && now < Date.parse(profile.validFrom)) return undefined;
    if (profile.validTo && now >= Date.parse(profile.validTo)) return undefined;
    const schedule = profile.chargingSchedule;
    const start = this.scheduleStart(profile, tx, installedAt, now);
    if (start === undefined || now < start) return undefined;
    const elapsedSec = (now - start) / 1000;
    if (schedule.duration !== undefined && elapsedSec >= schedule.duration) return undefined;
    let period: ChargingSchedulePeriod | undefined;
    for (const p of [...schedule.chargingSchedulePeriod].sort((a, b) => a.startPeriod - b.startPeriod)) {
      if (p.startPeriod <= elapsedSec) period = p;
    }
    if (!period) return undefined;
    if (schedule.chargingRateUnit === 'A') return period.limit;
    const phases = period.numberPhases ?? this.electrical.phases;
    return period.limit / (this.electrical.voltage * phases);
  }

  private scheduleStart(profile: ChargingProfile, tx: TransactionView | undefined, installedAt: number, now: number): number | undefined {
    const startSchedule = profile.chargingSchedule.startSchedule ? Date.parse(profile.chargingSchedule.startSchedule) : undefined;
    switch (profile.chargingProfileKind) {
      case 'Absolute':
        return startSchedule ?? installedAt;
      case 'Relative':
        return tx?.startedAt ?? installedAt;
      case 'Recurring': {
        const cycle = (profile.recurrencyKind === 'Weekly' ? 7 : 1) * 86_400_000;
        const origin = startSchedule ?? installedAt;
        if (now < origin) return undefined;
        return origin + Math.floor((now - origin) / cycle) * cycle;
      }
    }
  }
}
