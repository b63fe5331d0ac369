import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import type { QuickInfoAnswer, V1QuickInfoAnswer } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';
import { cpStatus } from '../lms/status.ts';

/**
 * Cars load management holds at 0 A in its queue (spec part 1 §2, §4): both live dashboards show and count
 * them as queueing, as the LMS dashboard does, never as charging. Real server, LMS and simulated chargers.
 */
describe('live dashboards and the load-management queue', () => {
  let s: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof addLmsSite>>;
  const sims: SimulatedCharger[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    await addCard(s.db, ['CARD-Q']);
    // One 16 A place in the zone: the second car waits.
    site = await addLmsSite(s.db, { mode: 'QUEUEING', zoneA: 16, minA: 16, maxA: 16, chargers: ['Q-1', 'Q-2', 'Q-3'] });
    s.app.lms.configurationChanged();
    for (const cpNo of ['Q-1', 'Q-2', 'Q-3']) sims.push(new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, connectors: 1, reconnect: false, maxCurrentA: 16 }));
    await Promise.all(sims.map((c) => c.start()));
    await eventually(async () => s.app.lms.sites.has(site.locId) && sims.every((c) => c.allowedCurrent(1) === 0));
  });
  afterAll(async () => {
    await Promise.all(sims.map((c) => c.stop()));
    await s?.close();
  });

  const v2 = async () => (await s.api('GET', `/api/v2/quickInfo?locId=${site.locId}`, { token: admin })).body as QuickInfoAnswer;
  const v1 = async () => (await s.api('GET', `/api/quick_info?loc_id=${site.locId}`, { token: admin })).body.response as V1QuickInfoAnswer['response'];
  /** What the LMS dashboard's socket says of each charger (its status_update). */
  const lmsStates = () => Object.fromEntries(site.cpIds.map((id) => [id, cpStatus(s.app.lms.charger(id)!).status]));

  it('counts a car held at 0 A as queueing on both dashboards, with its queue position, and as charging once it gets current', async () => {
    for (const sim of sims.slice(0, 2)) {
      await sim.plugIn(1);
      await sim.startTransaction(1, 'CARD-Q');
      await s.app.lms.settled();
    }
    const [first, second, idle] = site.cpIds;
    await eventually(async () => sims[0].allowedCurrent(1) === 16 && sims[1].connectorStatus(1) === 'SuspendedEVSE');
    // The charger reports the held car as SuspendedEVSE; the server has stored it.
    await eventually(async () => (await v2()).cpQuickInfoDTOS.find((c) => c.cpId === second)?.connectorStatus === 'SuspendedEVSE');
    expect(lmsStates()).toEqual({ [first]: 'charging', [second]: 'queueing', [idle]: 'available' });

    const quick = await v2();
    expect(quick.cpQuickInfoDTOS.map((c) => [c.cpNo, c.connectorStatus, c.queueingPos])).toEqual([
      ['Q-1', 'Charging', null], ['Q-2', 'SuspendedEVSE', 1], ['Q-3', 'Available', null],
    ]);
    expect(quick.cpUsage).toEqual({ noOfAvailableConnectors: 1, noOfChargingConnectors: 1, noOfUnAvailableConnectors: 0, noOfQueueingConnectors: 1 });
    const info = (await v1()).info;
    expect(info.site_usage).toEqual({ available: 1, charging: 1, unavailable: 0, queueing: 1 });
    expect(info.cp_status.map((c) => c.connector_status[0].queueing_pos)).toEqual([null, 1, null]);

    // The first car leaves: the held one gets its 16 A, charges again and is counted so.
    await sims[0].stopTransaction(1);
    await sims[0].unplug(1);
    await eventually(async () => sims[1].connectorStatus(1) === 'Charging' && (await v2()).cpUsage.noOfChargingConnectors === 1
      && (await v2()).cpUsage.noOfQueueingConnectors === 0);
    expect(lmsStates()[second]).toBe('charging');
    expect((await v1()).info.site_usage).toEqual({ available: 2, charging: 1, unavailable: 0, queueing: 0 });
  });
});
