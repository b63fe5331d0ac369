import { expect, it } from 'vitest';
import { withTestCentral } from './test-central.ts';

const t = withTestCentral({ connectors: 1, backoff: { initialMs: 50, maxMs: 400 } });
const charger = t.charger;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('replays what happened while the central system was down, in order, with the original timestamps', async () => {
  const cp = charger();
  await cp.start();
  const txId = await cp.startTransaction(1, 'TAG1');
  await t.central.waitFor(() => cp.queued === 0 && t.central.messages('StatusNotification').length === 3);
  await t.central.close();
  await t.central.waitFor(() => !cp.isConnected);
  const before = t.central.received.length;

  await cp.sendMeterValues(1);
  await sleep(20);
  await cp.stopTransaction(1);
  await cp.unplug(1);
  const offlineUntil = Date.now();
  expect(cp.queued).toBe(4);
  // Authorize cannot wait: offline, the cache answers.
  expect(await cp.authorize('TAG1')).toEqual({ status: 'Accepted' });
  expect(await cp.authorize('STRANGER')).toEqual({ status: 'Invalid' });

  await sleep(100);
  await t.central.start();
  await t.central.waitFor(() => cp.isConnected && cp.queued === 0, 5000);
  const replayed = t.central.received.slice(before);
  expect(replayed.map((m) => m.method)).toEqual(['MeterValues', 'StopTransaction', 'StatusNotification', 'StatusNotification']);
  expect(replayed.map((m) => m.params.status).slice(2)).toEqual(['Finishing', 'Available']);
  expect(replayed[1].params.transactionId).toBe(txId);
  // No new boot after a network loss: the charger never restarted.
  expect(t.central.messages('BootNotification')).toHaveLength(1);
  const timestamps = [
    replayed[0].params.meterValue[0].timestamp, replayed[1].params.timestamp, replayed[2].params.timestamp, replayed[3].params.timestamp,
  ].map((t: string) => Date.parse(t));
  for (const [i, t] of timestamps.entries()) {
    expect(t).toBeLessThanOrEqual(offlineUntil);
    expect(t).toBeLessThan(replayed[i].at);
    if (i > 0) expect(t).toBeGreaterThanOrEqual(timestamps[i - 1]);
  }
});

it('a transaction started offline gets its id on replay, and the messages after it carry that id', async () => {
  const cp = charger();
  await cp.start();
  cp.disconnect();
  expect(cp.isConnected).toBe(false);
  await cp.plugIn(1);
  const started = cp.startTransaction(1, 'TAG1');
  await cp.sendMeterValues(1);
  await cp.stopTransaction(1);
  expect(t.central.messages('StartTransaction')).toHaveLength(0);

  await cp.reconnect();
  const txId = await started;
  expect(cp.queued).toBe(0);
  expect(t.central.messages('MeterValues')[0].params.transactionId).toBe(txId);
  expect(t.central.messages('StopTransaction')[0].params.transactionId).toBe(txId);
  expect(t.central.messages('StatusNotification').map((m) => m.params.status))
    .toEqual(['Available', 'Available', 'Preparing', 'Charging', 'Finishing']);
});

it('after a manual disconnect it stays offline until reconnect()', async () => {
  const cp = charger();
  await cp.start();
  cp.disconnect();
  await sleep(300);
  expect(t.central.isConnected('CP001')).toBe(false);
  await cp.reconnect();
  expect(cp.isConnected).toBe(true);
  expect(await cp.heartbeat()).toBeTypeOf('string');
});

it('reconnects with growing, capped, jittered delays while the central system is away', async () => {
  const cp = charger({ backoff: { initialMs: 40, maxMs: 160 } });
  await cp.start();
  const delays: number[] = [];
  cp.on('reconnecting', ({ delayMs }: { delayMs: number }) => delays.push(delayMs));
  await t.central.close();
  await t.central.waitFor(() => delays.length >= 5, 5000);
  // attempt n waits in [0.5, 1] × min(max, initial × 2^n)
  const caps = [40, 80, 160, 160, 160];
  for (const [i, cap] of caps.entries()) {
    expect(delays[i]).toBeGreaterThanOrEqual(cap / 2);
    expect(delays[i]).toBeLessThanOrEqual(cap);
  }
  await t.central.start();
  await t.central.waitFor(() => cp.isConnected, 5000);
  expect(t.central.isConnected('CP001')).toBe(true);
});

it('start({retry: true}) waits for a central system that comes up later', async () => {
  await t.central.close();
  const cp = charger({ backoff: { initialMs: 30, maxMs: 60 } });
  const up = cp.start({ retry: true });
  await sleep(200);
  expect(cp.isConnected).toBe(false);
  await t.central.start();
  await up;
  expect(cp.isConnected).toBe(true);
});
