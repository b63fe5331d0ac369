import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger, SimulatedCharger201 } from '@ev/simulator';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';

/**
 * Load management over a zone of a 1.6 charger and a 2.0.1 station: the allocator speaks 1.6, the 2.0.1
 * station gets the same limits as SetChargingProfile on its EVSE (ocpp/v201/commands.ts), and both obey.
 */
describe('load management of a mixed 1.6 / 2.0.1 zone', () => {
  let s: TestServer;
  let v16: SimulatedCharger;
  let v201: SimulatedCharger201;
  let cpIds: number[];
  const ZONE_A = 40;

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    await addCard(s.db, ['CARD-MIX']);
    const site = await addLmsSite(s.db, { mode: 'DISTRIBUTION', zoneA: ZONE_A, minA: 6, maxA: 32, chargers: ['MIX-16', 'MIX-201'] });
    cpIds = site.cpIds;
    s.app.lms.configurationChanged();
    const opts = { url: `${s.wsUrl}/ocpp`, connectors: 1, reconnect: false, maxCurrentA: 32 };
    v16 = new SimulatedCharger({ ...opts, cpNo: 'MIX-16' });
    v201 = new SimulatedCharger201({ ...opts, cpNo: 'MIX-201' });
    await Promise.all([v16.start(), v201.start()]);
    // Idle chargers of a managed zone are held at 0 A, the 2.0.1 one as well.
    await eventually(async () => s.app.lms.sites.has(site.locId) && v16.allowedCurrent(1) === 0 && v201.allowedCurrent(1) === 0);
  });
  afterAll(async () => {
    await Promise.all([v16.stop(), v201.stop()]);
    await s.close();
  });

  const allocation = async (cpId: number) =>
    (await s.db.query(`SELECT state, distributed_current, profile_status FROM lms_allocations WHERE cp_id = $1`, [cpId]))[0];

  it('shares the zone between both versions while both charge; each obeys its limit', async () => {
    expect(v201.allowedCurrent(1)).toBe(0);
    await v16.plugIn(1);
    await v16.startTransaction(1, 'CARD-MIX');
    await v201.plugIn(1);
    await v201.startTransaction(1, 'CARD-MIX');
    await s.app.lms.settled();
    // 40 A shared equally: 20 A each, both below their 32 A maximum.
    await eventually(async () => v16.allowedCurrent(1) === 20 && v201.allowedCurrent(1) === 20);
    const both = [v16.allowedCurrent(1), v201.allowedCurrent(1)];
    expect(both.every((a) => a > 0 && a < ZONE_A)).toBe(true);
    expect(both[0] + both[1]).toBeLessThanOrEqual(ZONE_A);
    expect(await allocation(cpIds[1])).toMatchObject({ state: 'charging', distributed_current: 20, profile_status: 'Accepted' });
    // The 2.0.1 station got its limit as a 2.0.1 SetChargingProfile (request type of the 2.0.1 message).
    // Its cp_requests rows are written in the background (logInBackground): read once they are there.
    const limits = async () => (await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_data ? 'chargingProfile'`, [cpIds[1]]))
      .map((r) => r.request_data.chargingProfile.chargingSchedule[0].chargingSchedulePeriod[0].limit);
    expect(await eventually(async () => (await limits()).includes(20))).toBe(true);

    // One leaves: the other may take its maximum (32 A), still within the zone.
    await v16.stopTransaction(1);
    await v16.unplug(1);
    await eventually(async () => v201.allowedCurrent(1) === 32 && v16.allowedCurrent(1) === 0);
    await v201.stopTransaction(1);
    await v201.unplug(1);
    await eventually(async () => v201.allowedCurrent(1) === 0);
  });
});
