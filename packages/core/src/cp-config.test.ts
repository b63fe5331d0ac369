import { describe, expect, it } from 'vitest';
import { buildCatalogs, type Catalog } from './i18n/index.ts';
import {
  booleanChoices, CONFIG_DEFAULTS, hideSecrets, isBooleanSetting, isOn, isOnStep, keepSecrets, MASS_UPDATE_KEYS, rangeOf, withConfigDefaults,
  type ConfigJson,
} from './cp-config.ts';

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

  it('a Range value is a whole number of steps (counted from zero, as the §5 default 15 in 1 to 30 step 5)', () => {
    const unlock = MASS_UPDATE_KEYS['Auto Unlock Interval (ms)'];
    expect(isOnStep(unlock, 33)).toBe(false);
    expect(isOnStep(unlock, 3300)).toBe(true);
    expect(isOnStep(CONFIG_DEFAULTS['Time Select Interval Min'], 15)).toBe(true);
    expect(isOnStep(CONFIG_DEFAULTS['Time Select Interval Min'], 16)).toBe(false);
    expect(isOnStep({ Option: [0, 1, 0.1] }, 0.3)).toBe(true);
    expect(isOnStep({ Option: [0, 1, 0.1] }, 0.35)).toBe(false);
    expect(isOnStep(MASS_UPDATE_KEYS['Time Zone'], -12)).toBe(true);
  });

  it('hides the remote OCPP password, and keeps the saved one when it comes back blank', () => {
    const pw = (Value: string): ConfigJson => ({ 'Remote OCPP Password': { Type: 'Text', Authority: 'Admin', Value, Option: [] } });
    expect(hideSecrets(pw('s3cret'))['Remote OCPP Password'].Value).toBe('');
    expect(keepSecrets(pw('s3cret'), pw(''))['Remote OCPP Password'].Value).toBe('s3cret');
    expect(keepSecrets(pw('s3cret'), pw('new'))['Remote OCPP Password'].Value).toBe('new');
  });

  it('names every mass-update and default setting, and their word choices, in Traditional Chinese', () => {
    const ui = buildCatalogs()['zh-TW'].translation.ui as Catalog;
    const names = ui.configSetting as Catalog;
    const options = ui.configOption as Catalog;
    const all = { ...MASS_UPDATE_KEYS, ...CONFIG_DEFAULTS };
    expect(Object.keys(all).filter((n) => !names[n])).toEqual([]);
    // Product and protocol names (NFC, RS485, SmartPad, Autotoll) stay as they are.
    const proper = new Set(['NFC', 'RS232', 'RS485', 'SmartPad', 'Autotoll']);
    const choices = Object.values(all).flatMap((s) => (s.Type === 'Selection' ? s.Option.map(String) : []));
    expect(choices.filter((o) => !proper.has(o) && !options[o])).toEqual([]);
  });
});
