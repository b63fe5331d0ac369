import { describe, expect, it } from 'vitest';
import { latest, readings } from './meter-values.ts';

describe('meter value extraction', () => {
  const ts = '2026-01-01T10:00:00Z';

  it('reads the energy register in Wh, converting kWh, with the default measurand', () => {
    expect(readings([{ timestamp: ts, sampledValue: [{ value: '12.345', unit: 'kWh' }] }])[0].energy).toBe(12345);
    expect(readings([{ timestamp: ts, sampledValue: [{ value: '999.6' }] }])[0].energy).toBe(1000);
  });

  it('averages phase voltages (skipping line-to-line ones) and takes the highest phase current', () => {
    const [r] = readings([{ timestamp: ts, sampledValue: [
      { value: '230', measurand: 'Voltage', phase: 'L1-N' },
      { value: '232', measurand: 'Voltage', phase: 'L2-N' },
      { value: '400', measurand: 'Voltage', phase: 'L1-L2' },
      { value: '10', measurand: 'Current.Import', phase: 'L1' },
      { value: '12.5', measurand: 'Current.Import', phase: 'L2' },
    ] }]);
    expect(r).toMatchObject({ energy: null, voltage: 231, ampere: 12.5 });
  });

  it('prefers an unphased value, ignores signed data and EV-side energy, keeps SoC from the EV within 0–100', () => {
    const [r] = readings([{ timestamp: ts, sampledValue: [
      { value: 'AbCd==', format: 'SignedData' },
      { value: '50', location: 'EV' },
      { value: '7000' },
      { value: '16', measurand: 'Current.Import' },
      { value: '20', measurand: 'Current.Import', phase: 'L1' },
      { value: '64', measurand: 'SoC', location: 'EV' },
    ] }]);
    expect(r).toMatchObject({ energy: 7000, ampere: 16, soc: 64 });
    expect(readings([{ timestamp: ts, sampledValue: [{ value: '140', measurand: 'SoC' }] }])).toEqual([]);
  });

  it('skips entries without a usable value and gives the newest value of each quantity', () => {
    const rs = readings([
      { timestamp: '2026-01-01T10:02:00Z', sampledValue: [{ value: '230', measurand: 'Voltage' }] },
      { timestamp: '2026-01-01T10:01:00Z', sampledValue: [{ value: '500' }, { value: '229', measurand: 'Voltage' }] },
      { timestamp: '2026-01-01T10:03:00Z', sampledValue: [{ value: 'n/a' }] },
    ]);
    expect(rs).toHaveLength(2);
    expect(latest(rs)).toEqual({ energy: 500, voltage: 230, ampere: null, soc: null });
  });
});
