import { describe, expect, it } from 'vitest';
import { booleanChoices, isBooleanSetting, isOn, rangeOf, withConfigDefaults } from './cp-config.ts';

describe('charger configuration settings', () => {
  it('adds the spec §5 defaults when missing, keeps a config’s own', () => {
    const out = withConfigDefaults({ 'Custom Fields': { Type: 'Selection', Authority: 'Admin', Value: 'No', Option: ['Yes', 'No'] } });
    expect(out['Custom Fields'].Value).toBe('No');
    expect(out['Time Select Interval Min']).toEqual({ Type: 'Range', Authority: 'Everyone', Value: 15, Option: [1, 30, 5] });
    expect(Object.keys(out)).toEqual(['Custom Fields', 'Time Select Interval Min']);
  });

  it('knows booleans (Yes/No, 1/0) from other selections, and ranges', () => {
    expect(isBooleanSetting({ Type: 'Selection', Option: ['Yes', 'No'] })).toBe(true);
    expect(isBooleanSetting({ Type: 'Selection', Option: [1, 0] })).toBe(true);
    expect(isBooleanSetting({ Type: 'Selection', Option: ['Show', 'Hidden'] })).toBe(false);
    expect(isBooleanSetting({ Type: 'Text', Option: ['Yes', 'No'] })).toBe(false);
    expect(isOn('Yes')).toBe(true);
    expect(isOn(0)).toBe(false);
    expect(booleanChoices({ Option: [0, 1] })).toEqual({ on: 1, off: 0 });
    expect(rangeOf({ Option: [500, 30000, 500] })).toEqual({ min: 500, max: 30000, step: 500 });
  });
});
