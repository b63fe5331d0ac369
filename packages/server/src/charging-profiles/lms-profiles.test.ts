import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';

/** Issue 29: the profiles load management really sends are listed as its own, and a manual clear leaves them alone. */
describe('Load management\'s charging profiles', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    // Queueing with a zone of one charger's minimum: an idle charger is held at 0 A by load management's TxDefaultProfile.
    ({ cpIds: [cpId] } = await addLmsSite(s.db, { mode: 'QUEUEING', zoneA: 16, minA: 16, maxA: 16, chargers: ['LMS-PROF'] }));
    s.app.lms.configurationChanged();
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'LMS-PROF', connectors: 1, reconnect: false });
    await sim.start();
    await eventually(async () => s.app.lms.sites.size === 1 && sim.allowedCurrent(1) === 0);
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (path: string, body?: unknown) => s.api(body === undefined ? 'GET' : 'POST', path, { token: admin, body });
  const list = async () => (await api(`/api/cps/${cpId}/chargingProfiles`)).body.profiles as any[];

  it('lists load management\'s profile, refuses clears that would reach it, and clears manual ones beside it', async () => {
    const lms = await eventually(async () => (await list()).find((p) => p.source === 'lms'));
    expect(lms).toMatchObject({ chargingProfileId: 1000, stackLevel: 1, purpose: 'TxDefaultProfile', kind: 'Relative', setBy: null });
    expect(lms.schedule.chargingSchedulePeriod).toEqual([{ startPeriod: 0, limit: 0 }]);

    const profile = { chargingProfileId: 3, stackLevel: 4, kind: 'Absolute', unit: 'A', periods: [{ startPeriod: 0, limit: 20 }] };
    expect((await api(`/api/cps/${cpId}/chargingProfiles`, { connectorId: 1, purpose: 'TxDefaultProfile', profile })).body.status).toBe('success');
    expect((await api(`/api/cps/${cpId}/chargingProfiles/clear`, { connectorId: 0 })).status).toBe(400);
    expect((await api(`/api/cps/${cpId}/chargingProfiles/clear`, { purpose: 'TxDefaultProfile', stackLevel: 1 })).status).toBe(400);
    expect((await api(`/api/cps/${cpId}/chargingProfiles/clear`, { id: 1000 })).status).toBe(400);
    expect((await api(`/api/cps/${cpId}/chargingProfiles/clear`, { purpose: 'TxDefaultProfile', stackLevel: 4 })).body.status).toBe('success');
    expect((await list()).map((p) => [p.chargingProfileId, p.source])).toEqual([[1000, 'lms']]);
    // Load management's hold still stands on the charger.
    expect(sim.allowedCurrent(1)).toBe(0);
  });
});
