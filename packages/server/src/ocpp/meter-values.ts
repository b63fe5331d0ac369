/** Extraction of energy, voltage, current and SoC from OCPP 1.6 MeterValue entries (§7.45, §7.43). */

export interface SampledValue {
  value: string;
  context?: string;
  format?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}

export interface MeterValue {
  timestamp: string;
  sampledValue: SampledValue[];
}

export interface Reading {
  ts: Date;
  /** Energy register, Wh, rounded. */
  energy: number | null;
  voltage: number | null;
  /** A */
  ampere: number | null;
  /** % */
  soc: number | null;
}

const ENERGY = 'Energy.Active.Import.Register';

function numeric(s: SampledValue): number | null {
  // SignedData is an encoded blob, not a number.
  if (s.format === 'SignedData') return null;
  const n = Number(s.value);
  return Number.isFinite(n) ? n : null;
}

/**
 * One measurand's value: an unphased sample if there is one, otherwise the phase values combined
 * (voltage averaged; current as the highest phase, which is what a per-phase limit is checked against).
 * Line-to-line voltages (L1-L2 …) are skipped when phase-to-neutral ones exist.
 */
function pick(samples: SampledValue[], measurand: string, combine: 'avg' | 'max'): number | null {
  const own = samples.filter((s) => (s.measurand ?? ENERGY) === measurand && (s.location ?? 'Outlet') !== 'EV');
  const plain = own.find((s) => !s.phase && numeric(s) !== null);
  if (plain) return numeric(plain);
  const phased = own.filter((s) => s.phase && !/^L\d-L\d$/.test(s.phase)).map(numeric).filter((n): n is number => n !== null);
  if (!phased.length) return null;
  return combine === 'avg' ? phased.reduce((a, b) => a + b, 0) / phased.length : Math.max(...phased);
}

/** The charger's own register (not the EV's), unphased when there is one. */
function toWh(samples: SampledValue[]): number | null {
  const own = samples.filter((x) => (x.measurand ?? ENERGY) === ENERGY && x.location !== 'EV' && numeric(x) !== null);
  const s = own.find((x) => !x.phase) ?? own[0];
  if (!s) return null;
  const v = numeric(s)!;
  return Math.round(s.unit === 'kWh' ? v * 1000 : v);
}

function toSoc(samples: SampledValue[]): number | null {
  // SoC is reported by the EV, so its location is usually EV: do not filter on location here.
  const s = samples.find((x) => x.measurand === 'SoC' && numeric(x) !== null);
  const v = s ? numeric(s)! : null;
  return v !== null && v >= 0 && v <= 100 ? v : null;
}

/** The readings of each MeterValue entry that carries at least one value we keep. */
export function readings(meterValues: MeterValue[]): Reading[] {
  const out: Reading[] = [];
  for (const mv of meterValues) {
    const samples = mv.sampledValue ?? [];
    const r: Reading = {
      ts: new Date(mv.timestamp),
      energy: toWh(samples),
      voltage: pick(samples, 'Voltage', 'avg'),
      ampere: pick(samples, 'Current.Import', 'max'),
      soc: toSoc(samples),
    };
    if (r.energy !== null || r.voltage !== null || r.ampere !== null || r.soc !== null) out.push(r);
  }
  return out;
}

/** The newest value of each quantity across readings (entries may carry different measurands). */
export function latest(rs: Reading[]): Omit<Reading, 'ts'> {
  const sorted = [...rs].sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const last = <K extends 'energy' | 'voltage' | 'ampere' | 'soc'>(k: K) => {
    for (let i = sorted.length - 1; i >= 0; i--) if (sorted[i][k] !== null) return sorted[i][k];
    return null;
  };
  return { energy: last('energy'), voltage: last('voltage'), ampere: last('ampere'), soc: last('soc') };
}
