import { describe, expect, it } from 'vitest';
import type { ZoneLmsEntry } from '@ev/core';
import { serverRowErrors, shownMin, zonesToSave } from './zone-entries.ts';

const zone = (zone_id: number, v: [number | null, number | null, number | null] = [null, null, null]): ZoneLmsEntry => ({
  zone_id, zone_name: `Z${zone_id}`, zone_name_en: null, max_physical_current_limit: 63,
  zone_max_available_current: v[0], max_charging_current: v[1], min_charging_current: v[2],
});

describe('the zone entries the Zones tab saves', () => {
  it('sends complete rows, leaves empty ones out and marks partly filled ones', () => {
    const zones = [zone(1), zone(2), zone(3)];
    const values = {
      1: { zone_max_available_current: 60, max_charging_current: 32, min_charging_current: 6 },
      2: { zone_max_available_current: null, max_charging_current: null, min_charging_current: null },
      3: { zone_max_available_current: 40, max_charging_current: null, min_charging_current: null },
    };
    expect(zonesToSave('MIXED', zones, values)).toEqual({
      zones: [{ zone_id: 1, zone_max_available_current: 60, max_charging_current: 32, min_charging_current: 6 }],
      errors: { 3: { max_charging_current: 'required', min_charging_current: 'required' } },
    });
  });

  it('in QUEUEING sends no min (the server sets it to max) and shows min as max', () => {
    const values = { 1: { zone_max_available_current: 60, max_charging_current: 32, min_charging_current: null } };
    expect(zonesToSave('QUEUEING', [zone(1)], values).zones).toEqual([{ zone_id: 1, zone_max_available_current: 60, max_charging_current: 32 }]);
    expect(shownMin('QUEUEING', values[1])).toBe(32);
    expect(shownMin('DISTRIBUTION', values[1])).toBeNull();
  });

  it('maps the server\'s zones.{i}.{field} errors back to the zones sent', () => {
    const sent = [{ zone_id: 7, zone_max_available_current: 1, max_charging_current: 1 }, { zone_id: 9, zone_max_available_current: 99, max_charging_current: 1 }];
    expect(serverRowErrors({ 'zones.1.zone_max_available_current': 'max', 'zones.0.zone_id': 'invalid', lms_profile_id: 'invalid' }, sent)).toEqual({
      9: { zone_max_available_current: 'max' },
      7: { zone_id: 'invalid' },
    });
  });
});
