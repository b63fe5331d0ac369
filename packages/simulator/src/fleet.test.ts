import { afterEach, beforeEach, expect, it } from 'vitest';
import { runFleet, type Fleet } from './fleet.ts';
import { TestCentral } from './test-central.ts';

let central: TestCentral;
let fleet: Fleet | undefined;

beforeEach(async () => {
  central = await new TestCentral().start();
});

afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
  await central.close();
});

it('a charge-loop fleet boots every charger and runs whole sessions', async () => {
  fleet = runFleet({
    url: central.url, count: 3, prefix: 'SIM', connectors: (i) => (i % 2) + 1, scenario: 'charge-loop',
    meterIntervalSec: 1, idleSec: [0, 0.1], chargeSec: [1.2, 1.5],
  });
  await fleet.ready;
  expect(fleet.stats()).toMatchObject({ chargers: 3, connected: 3 });
  expect(fleet.chargers.map((cp) => cp.cpNo)).toEqual(['SIM001', 'SIM002', 'SIM003']);
  await central.waitFor(() => fleet!.stats().sessionsCompleted >= 2, 10_000);
  const stats = fleet.stats();
  expect(stats.sessionsCompleted).toBeGreaterThanOrEqual(2);
  expect(stats.errors).toBe(0);
  expect(central.messages('MeterValues').length).toBeGreaterThan(0);
  expect(new Set(central.messages('Authorize').map((m) => m.params.idTag)).size).toBeGreaterThan(0);
});

it('stopping the fleet ends running sessions first', async () => {
  fleet = runFleet({ url: central.url, count: 2, scenario: 'charge-loop', idleSec: [0, 0], chargeSec: [60, 60] });
  await central.waitFor(() => central.messages('StartTransaction').length === 2, 10_000);
  await central.waitFor(() => fleet!.stats().charging === 2);
  await fleet.stop();
  fleet = undefined;
  expect(central.messages('StopTransaction')).toHaveLength(2);
});

it('a mixed fleet runs 1.6 and 2.0.1 chargers side by side', async () => {
  await central.close();
  central = await new TestCentral('ocpp1.6', 'ocpp2.0.1').start();
  fleet = runFleet({
    url: central.url, count: 2, protocol: 'mixed', scenario: 'charge-loop', meterIntervalSec: 1, idleSec: [0, 0.1], chargeSec: [1.2, 1.5],
  });
  await fleet.ready;
  expect(central.messages('BootNotification').map((m) => [m.cpNo, m.protocol]).sort())
    .toEqual([['SIM001', 'ocpp1.6'], ['SIM002', 'ocpp2.0.1']]);
  await central.waitFor(() => central.messages('StopTransaction').length >= 1 &&
    central.messages('TransactionEvent').some((m) => m.params.eventType === 'Ended'), 10_000);
  expect(fleet.stats().errors).toBe(0);
  expect(central.messages('TransactionEvent').every((m) => m.cpNo === 'SIM002')).toBe(true);
});
