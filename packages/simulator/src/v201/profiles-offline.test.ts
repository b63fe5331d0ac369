import { expect, it } from 'vitest';
import { withTestCentral201 } from './test-central.ts';

const t = withTestCentral201({ connectors: 1, backoff: { initialMs: 50, maxMs: 400 } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const profile = (id: number, purpose: string, limit: number, unit: 'A' | 'W' = 'A', extra: object = {}) => ({
  id, stackLevel: 1, chargingProfilePurpose: purpose, chargingProfileKind: 'Absolute', ...extra,
  chargingSchedule: [{ id, chargingRateUnit: unit, startSchedule: new Date(Date.now() - 60_000).toISOString(), chargingSchedulePeriod: [{ startPeriod: 0, limit }] }],
});

it('obeys charging profiles in the power drawn, as the 1.6 charger does', async () => {
  let now = Date.now();
  const cp = t.charger({ connectors: 2, clock: () => now, maxCurrentA: 32, voltage: 230 });
  await cp.start();
  const txId = await cp.startTransaction(1, 'TAG1');
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 1, chargingProfile: profile(1, 'TxDefaultProfile', 16) })).toEqual({ status: 'Accepted' });
  expect(cp.allowedCurrent(1)).toBe(16);
  // A TxProfile in W stacks over the default for its transaction: 2300 W / 230 V = 10 A.
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 1, chargingProfile: profile(2, 'TxProfile', 2300, 'W', { transactionId: txId }) })).toEqual({ status: 'Accepted' });
  expect(cp.allowedCurrent(1)).toBe(10);
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 2, chargingProfile: profile(3, 'TxProfile', 5) })).toEqual({ status: 'Rejected' });
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 1, chargingProfile: profile(4, 'ChargingStationMaxProfile', 8) })).toEqual({ status: 'Rejected' });
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 0, chargingProfile: profile(4, 'ChargingStationMaxProfile', 8) })).toEqual({ status: 'Accepted' });
  expect(cp.allowedCurrent(1)).toBe(8);
  const before = cp.energyWh(1);
  now += 3_600_000;
  await cp.sendMeterValues(1);
  expect(cp.energyWh(1) - before).toBe(8 * 230);
  const updated = t.central.messages('TransactionEvent').at(-1)!.params;
  expect(updated.meterValue[0].sampledValue.find((v: any) => v.measurand === 'Power.Active.Import').value).toBe(1840);

  const composite = await t.central.call('CS001', 'GetCompositeSchedule', { evseId: 1, duration: 600, chargingRateUnit: 'A' });
  expect(composite).toMatchObject({ status: 'Accepted', schedule: { evseId: 1, duration: 600, chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 8 }] } });
  expect(await t.central.call('CS001', 'ClearChargingProfile', { chargingProfileCriteria: { chargingProfilePurpose: 'ChargingStationMaxProfile' } })).toEqual({ status: 'Accepted' });
  expect(cp.allowedCurrent(1)).toBe(10);
  expect(await t.central.call('CS001', 'ClearChargingProfile', { chargingProfileId: 2 })).toEqual({ status: 'Accepted' });
  expect(cp.allowedCurrent(1)).toBe(16);
  expect(await t.central.call('CS001', 'ClearChargingProfile', { chargingProfileId: 99 })).toEqual({ status: 'Unknown' });

  // A 0 A limit holds the EV: chargingState SuspendedEVSE goes out as an Updated event.
  expect(await t.central.call('CS001', 'SetChargingProfile', { evseId: 1, chargingProfile: profile(5, 'TxProfile', 0) })).toEqual({ status: 'Accepted' });
  const held = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.triggerReason === 'ChargingStateChanged');
  expect(held.params.transactionInfo).toMatchObject({ transactionId: txId, chargingState: 'SuspendedEVSE' });
});

it('RequestStartTransaction with a TxProfile starts limited by it', async () => {
  const cp = t.charger({ maxCurrentA: 32 });
  await cp.start();
  const chargingProfile = profile(9, 'TxProfile', 6);
  expect(await t.central.call('CS001', 'RequestStartTransaction', { evseId: 1, remoteStartId: 1, idToken: { idToken: 'R', type: 'Central' }, chargingProfile }))
    .toEqual({ status: 'Accepted' });
  await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.eventType === 'Started');
  expect(cp.allowedCurrent(1)).toBe(6);
});

it('queues what happened offline and replays it in order, marked offline, with seqNo continuing', async () => {
  const cp = t.charger();
  await cp.start();
  await cp.plugIn(1);
  const started = cp.startTransaction(1, 'TAG1');
  await started;
  await t.central.waitFor(() => cp.queued === 0 && t.central.messages('StatusNotification').length === 2);
  await t.central.close();
  await t.central.waitFor(() => !cp.isConnected);
  const before = t.central.received.length;

  await cp.sendMeterValues(1);
  await sleep(20);
  await cp.stopTransaction(1);
  await cp.unplug(1);
  const offlineUntil = Date.now();
  expect(cp.queued).toBe(3);
  // Authorize cannot wait: offline, the cache answers.
  expect(await cp.authorize('TAG1')).toEqual({ status: 'Accepted' });
  expect(await cp.authorize('STRANGER')).toEqual({ status: 'Invalid' });

  await t.central.start();
  await t.central.waitFor(() => cp.isConnected && cp.queued === 0, 5000);
  const replayed = t.central.received.slice(before);
  expect(replayed.map((m) => [m.method, m.params.eventType ?? m.params.connectorStatus])).toEqual([
    ['TransactionEvent', 'Updated'], ['TransactionEvent', 'Ended'], ['StatusNotification', 'Available'],
  ]);
  expect(replayed.slice(0, 2).map((m) => [m.params.seqNo, m.params.offline])).toEqual([[1, true], [2, true]]);
  for (const m of replayed) expect(Date.parse(m.params.timestamp)).toBeLessThanOrEqual(offlineUntil);
  // No new boot after a network loss: the station never restarted.
  expect(t.central.messages('BootNotification')).toHaveLength(1);
});

it('a transaction started while offline is Started offline and resolves with its id after the replay', async () => {
  const cp = t.charger();
  await cp.start();
  cp.disconnect();
  const started = cp.startTransaction(1, 'TAG1');
  await cp.stopTransaction(1);
  expect(t.central.messages('TransactionEvent')).toHaveLength(0);
  await cp.reconnect();
  const txId = await started;
  expect(t.central.messages('TransactionEvent').map((m) => [m.params.eventType, m.params.offline, m.params.transactionInfo.transactionId]))
    .toEqual([['Started', true, txId], ['Ended', true, txId]]);
});
