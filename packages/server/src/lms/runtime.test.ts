import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { parseStoredText } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';
import type { LmsMode } from './types.ts';
import { LoadManager } from './runtime.ts';

describe('load management at run time, with simulated chargers', () => {
  let s: TestServer;
  const sims: SimulatedCharger[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    await addCard(s.db, ['CARD-LMS']);
  });
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((sim) => sim.stop()));
  });
  afterAll(async () => {
    await s.close();
  });

  async function fleet(prefix: string, n: number, mode: LmsMode, zone: { zoneA: number; minA: number; maxA: number }) {
    const cpNos = Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
    const site = await addLmsSite(s.db, { mode, ...zone, chargers: cpNos });
    s.app.lms.configurationChanged();
    const chargers = cpNos.map((cpNo) => new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, connectors: 1, reconnect: false, maxCurrentA: 32 }));
    sims.push(...chargers);
    await Promise.all(chargers.map((c) => c.start()));
    await eventually(async () => s.app.lms.sites.has(site.locId) && chargers.every((c) => c.allowedCurrent(1) === 0));
    return { ...site, chargers };
  }

  const allocation = async (cpId: number) =>
    (await s.db.query(`SELECT state, distributed_current, queueing_pos, profile_status, uncontrolled FROM lms_allocations WHERE cp_id = $1`, [cpId]))[0];

  it('QUEUEING: holds idle chargers at 0 A, starts arrivals at the fixed current while it fits, queues the rest FIFO, and starts the head when one leaves', async () => {
    const { chargers, cpIds } = await fleet('LQ', 3, 'QUEUEING', { zoneA: 32, minA: 16, maxA: 16 });
    for (const c of chargers) {
      await c.plugIn(1);
      await c.startTransaction(1, 'CARD-LMS');
      await s.app.lms.settled();
    }
    await eventually(async () => chargers[0].allowedCurrent(1) === 16 && chargers[1].allowedCurrent(1) === 16);
    expect(chargers[2].allowedCurrent(1)).toBe(0);
    await eventually(async () => (await allocation(cpIds[2]))?.state === 'queueing');
    expect(await allocation(cpIds[2])).toMatchObject({ queueing_pos: 1, distributed_current: 0 });
    expect(await allocation(cpIds[0])).toMatchObject({ state: 'charging', distributed_current: 16, profile_status: 'Accepted' });

    await chargers[0].stopTransaction(1);
    await chargers[0].unplug(1);
    await eventually(async () => chargers[2].allowedCurrent(1) === 16);
    expect(chargers[0].allowedCurrent(1)).toBe(0);
    await eventually(async () => (await allocation(cpIds[2]))?.state === 'charging');
  });

  it('DISTRIBUTION: shares the zone equally, raising the new charger only after the others accepted their lower limits', async () => {
    const { chargers } = await fleet('LD', 3, 'DISTRIBUTION', { zoneA: 48, minA: 6, maxA: 32 });
    await chargers[0].plugIn(1);
    await eventually(async () => chargers[0].allowedCurrent(1) === 32);
    await chargers[1].plugIn(1);
    await eventually(async () => chargers[1].allowedCurrent(1) === 24 && chargers[0].allowedCurrent(1) === 24);
    // The two chargers answer slowly: the newcomer's limit must still wait for both answers.
    const events: string[] = [];
    for (const i of [0, 1]) {
      chargers[i].respondTo('SetChargingProfile', async (p) => {
        await new Promise((r) => setTimeout(r, 150));
        const status = chargers[i].setChargingProfile(p.connectorId, p.csChargingProfiles);
        events.push(`answered ${i}`);
        return { status };
      });
    }
    chargers[2].on('command', (method: string) => method === 'SetChargingProfile' && events.push('sent 2'));
    await chargers[2].plugIn(1);
    await eventually(async () => chargers.every((c) => c.allowedCurrent(1) === 16));
    expect(events.indexOf('sent 2')).toBeGreaterThan(events.indexOf('answered 0'));
    expect(events.indexOf('sent 2')).toBeGreaterThan(events.indexOf('answered 1'));
    expect(events.filter((e) => e.startsWith('answered'))).toHaveLength(2);
  });

  it('counts a charger that rejects its limit at its maximum, lowers the others, and logs it', async () => {
    const { chargers, cpIds } = await fleet('LR', 2, 'DISTRIBUTION', { zoneA: 40, minA: 6, maxA: 32 });
    await chargers[0].plugIn(1);
    await eventually(async () => chargers[0].allowedCurrent(1) === 32);
    chargers[1].respondTo('SetChargingProfile', () => ({ status: 'Rejected' }));
    await chargers[1].plugIn(1);
    await chargers[1].startTransaction(1, 'CARD-LMS');
    // The rejecting charger may draw its 32 A: 8 A are left for the other one.
    await eventually(async () => chargers[0].allowedCurrent(1) === 8);
    await eventually(async () => (await allocation(cpIds[1]))?.uncontrolled === 1);
    const failed = s.app.lms.log.recent().find((e) => e.cp_id === cpIds[1] && e.kind === 'profile_failed');
    // Its text is a message key with parameters: the realtime log shows it in the reader's language.
    expect(parseStoredText(failed?.message)).toMatchObject({ key: 'msg.log.lms.profile_failed', params: { what: expect.stringMatching(/ A/) } });
  });

  it('stops managing a site whose load management is switched off, clearing the limits it set', async () => {
    const { chargers, locId } = await fleet('LO', 1, 'QUEUEING', { zoneA: 16, minA: 16, maxA: 16 });
    expect(chargers[0].allowedCurrent(1)).toBe(0);
    await s.db.query(`UPDATE cp_locs SET enable_lms = 0 WHERE loc_id = $1`, [locId]);
    s.app.lms.configurationChanged();
    await eventually(async () => chargers[0].allowedCurrent(1) === 32);
    expect(s.app.lms.sites.has(locId)).toBe(false);
  });
  it('rebuilds the queue order after a restart from what it saved, not from charger numbers', async () => {
    const { chargers, cpIds, locId } = await fleet('LS', 3, 'QUEUEING', { zoneA: 32, minA: 16, maxA: 16 });
    // Arrival order 3, 1, 2: only the saved arrival times tell it (no transaction has started).
    for (const i of [2, 0, 1]) {
      await chargers[i].plugIn(1);
      await s.app.lms.settled();
    }
    await eventually(async () => chargers[2].allowedCurrent(1) === 16 && chargers[0].allowedCurrent(1) === 16);
    expect(chargers[1].allowedCurrent(1)).toBe(0);

    const restarted = new LoadManager(s.db, s.app.log, (...a) => s.app.ocpp.commands.send(...a), (cpId) => s.app.ocpp.central.connection(cpId) !== undefined);
    await restarted.start();
    await restarted.settled();
    const allocation = (i: number) => restarted.sites.get(locId)!.chargers.get(cpIds[i])!.allocation;
    expect(allocation(1)).toMatchObject({ state: 'queueing', position: 1 });
    expect(allocation(0)).toMatchObject({ state: 'charging', current: 16 });
    expect(allocation(2)).toMatchObject({ state: 'charging', current: 16 });
    await restarted.stop();
  });
});
