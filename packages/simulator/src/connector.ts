import type { Measurand } from './configuration.ts';

export type ConnectorStatus =
  | 'Available' | 'Preparing' | 'Charging' | 'SuspendedEVSE' | 'SuspendedEV' | 'Finishing'
  | 'Reserved' | 'Unavailable' | 'Faulted';

export interface Transaction {
  /** Known once the central system answered StartTransaction (later when it was queued offline). */
  id?: number;
  idTag: string;
  startedAt: number;
  meterStart: number;
}

export interface SampledValue {
  value: string;
  context: 'Sample.Periodic' | 'Trigger' | 'Transaction.Begin' | 'Transaction.End';
  measurand: Measurand;
  unit: 'Wh' | 'W' | 'A' | 'V' | 'Percent';
  location?: 'Outlet' | 'EV';
}

/** A simulated EV battery: SoC rises with the energy delivered. */
const BATTERY_WH = 60_000;

/**
 * One connector: its status, its transaction and an energy register that integrates the power
 * drawn between samples. The register is cumulative over the charger's life, like a real meter.
 */
export class Connector {
  status: ConnectorStatus = 'Available';
  tx?: Transaction;
  /** ChangeAvailability: Inoperative makes the connector Unavailable. */
  operative = true;
  /** A ChangeAvailability that answered Scheduled waits here for the transaction to end. */
  pendingOperative?: boolean;
  meterTimer?: NodeJS.Timeout;
  private energyWh: number;
  private lastAdvance: number;
  private socPercent = 0;

  constructor(readonly id: number, now: number, initialEnergyWh: number) {
    this.energyWh = initialEnergyWh;
    this.lastAdvance = now;
  }

  get registerWh(): number {
    return Math.round(this.energyWh);
  }

  get soc(): number {
    return Math.round(this.socPercent);
  }

  /** Whether the connector draws current now. */
  get drawing(): boolean {
    return this.status === 'Charging' && this.tx !== undefined;
  }

  /** An EV arrived with a partly charged battery. */
  newVehicle(): void {
    this.socPercent = 20 + Math.random() * 40;
  }

  /** Adds the energy drawn since the last call at `currentA` (the current allowed meanwhile). */
  advance(now: number, currentA: number, voltage: number, phases: number): void {
    const hours = Math.max(0, now - this.lastAdvance) / 3_600_000;
    this.lastAdvance = now;
    if (!this.drawing) return;
    const wh = currentA * voltage * phases * hours;
    this.energyWh += wh;
    this.socPercent = Math.min(100, this.socPercent + (wh / BATTERY_WH) * 100);
  }

  /** The sampled values of one MeterValues entry, for the measurands configured. */
  sample(measurands: string[], context: SampledValue['context'], currentA: number, voltage: number, phases: number): SampledValue[] {
    const drawA = this.drawing ? currentA : 0;
    const values: SampledValue[] = [];
    for (const measurand of measurands) {
      switch (measurand) {
        case 'Energy.Active.Import.Register':
          values.push({ value: String(this.registerWh), context, measurand, unit: 'Wh', location: 'Outlet' });
          break;
        case 'Power.Active.Import':
          values.push({ value: String(Math.round(drawA * voltage * phases)), context, measurand, unit: 'W', location: 'Outlet' });
          break;
        case 'Current.Import':
          values.push({ value: drawA.toFixed(1), context, measurand, unit: 'A', location: 'Outlet' });
          break;
        case 'Current.Offered':
          values.push({ value: currentA.toFixed(1), context, measurand, unit: 'A', location: 'Outlet' });
          break;
        case 'Voltage':
          values.push({ value: voltage.toFixed(1), context, measurand, unit: 'V', location: 'Outlet' });
          break;
        case 'SoC':
          if (this.tx) values.push({ value: String(this.soc), context, measurand, unit: 'Percent', location: 'EV' });
          break;
      }
    }
    return values;
  }
}
