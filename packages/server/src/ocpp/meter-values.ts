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

/** Phase-to-phase voltages (L1-L2 …). */
const LINE_TO_LINE = /^L\d-L\d$/;

// The functions below run for every MeterValues: plain loops, no per-call closures or arrays.

/**
 * One measurand's value: an unphased sample if there is one, otherwise the phase values combined
 * (voltage averaged; current as the highest phase, which is what a per-phase limit is checked against).
 * Line-to-line voltages (L1-L2 …) are skipped when phase-to-neutral ones exist.
 */
function pick(samples: SampledValue[], measurand: string, combine: 'avg' | 'max'): number | null {
  let sum = 0;
  let count = 0;
  let max = -Infinity;
  for (const s of samples) {
    if ((s.measurand ?? ENERGY) !== measurand || s.location === 'EV') continue;
    const n = numeric(s);
    if (n === null) continue;
    if (!s.phase) return n;
    if (LINE_TO_LINE.test(s.phase)) continue;
    sum += n;
    count++;
    if (n > max) max = n;
  }
  if (!count) return null;
  return combine === 'avg' ? sum / count : max;
}

/** The charger's own register (not the EV's), unphased when there is one. */
function toWh(samples: SampledValue[]): number | null {
  let s: SampledValue | undefined;
  for (const x of samples) {
    if ((x.measurand ?? ENERGY) !== ENERGY || x.location === 'EV' || numeric(x) === null) continue;
    if (!x.phase) {
      s = x;
      break;
    }
    s ??= x;
  }
  if (!s) return null;
  const v = numeric(s)!;
  return Math.round(s.unit === 'kWh' ? v * 1000 : v);
}

function toSoc(samples: SampledValue[]): number | null {
  // SoC is reported by the EV, so its location is usually EV: do not filter on location here.
  for (const x of samples) {
    if (x.measurand !== 'SoC') continue;
    const v = numeric(x);
    if (v !== null) return v >= 0 && v <= 100 ? v : null;
  }
  return null;
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

type Quantity = 'energy' | 'voltage' | 'ampere' | 'soc';

function newest(sorted: Reading[], k: Quantity): number | null {
  for (let i = sorted.length - 1; i >= 0; i--) if (sorted[i][k] !== null) return sorted[i][k];
  return null;
}

/** The newest value of each quantity across readings (entries may carry different measurands). */
export function latest(rs: Reading[]): Omit<Reading, 'ts'> {
  const sorted = rs.length > 1 ? [...rs].sort((a, b) => a.ts.getTime() - b.ts.getTime()) : rs;
  return { energy: newest(sorted, 'energy'), voltage: newest(sorted, 'voltage'), ampere: newest(sorted, 'ampere'), soc: newest(sorted, 'soc') };
}
