import { describe, expect, it } from 'vitest';
import { canStartIn, shownStatus, startRefusal } from './connector-state.ts';
import { CONNECTOR_STATUSES } from './options.ts';

describe('connector state', () => {
  it('shows Offline while the charger is not connected, N/A when nothing was reported', () => {
    expect(shownStatus(false, 'Charging')).toBe('Offline');
    expect(shownStatus(true, 'Charging')).toBe('Charging');
    expect(shownStatus(true, null)).toBe('N/A');
    expect(shownStatus(true, '')).toBe('N/A');
  });

  it('offers a remote start only in Available and Preparing, refusing the others with the spec codes', () => {
    expect(CONNECTOR_STATUSES.filter((s) => canStartIn(s))).toEqual(['Available', 'Preparing']);
    expect(Object.fromEntries(CONNECTOR_STATUSES.map((s) => [s, startRefusal(s)]))).toEqual({
      Available: null, Preparing: null,
      Charging: 10016, SuspendedEVSE: 10016, SuspendedEV: 10016,
      Finishing: 10015, Reserved: 10015, Unavailable: 10015, Faulted: 10015, Offline: 10015, 'N/A': 10015,
    });
    // A connector the charger never reported: the charger judges.
    expect(startRefusal(null)).toBeNull();
  });
});
