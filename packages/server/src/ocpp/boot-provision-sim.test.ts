import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger, SimulatedCharger201 } from '@ev/simulator';
import { requestTypeId, type OcppProtocol } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';

/**
 * Issue 31: the simulator's stations under the provision policy (boot-policy.ts): Pending, the central system reads
 * them (2.0.1 GetBaseReport with NotifyReport sent while Pending, 1.6 GetConfiguration), triggers their boot and
 * accepts them, well before their Pending interval would have made them ask again.
 */
describe('provisioning the simulator\'s stations', () => {
  let s: TestServer;
  let admin: string;
  let locId: number;
  const sims: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    locId = await addSite(s.db);
  });
  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    await s.close();
  });

  const provisioned = async (cpNo: string) => {
    const cpId = await addCharger(s.db, cpNo, { locId });
    expect((await s.api('PUT', `/api/cps/${cpId}`, { token: admin, body: { boot_policy: 'provision' } })).body.status).toBe('success');
    return cpId;
  };
  /** Its boots, Pending then Accepted, the second well within the Pending interval (15 s): the triggered boot. */
  const acceptedSoonAfterPending = async (cpId: number, protocol: OcppProtocol) => {
    const boots = await s.db.query<{ status: string; at: Date }>(
      `SELECT response_data->>'status' AS status, cre_dttm AS at FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id`,
      [cpId, requestTypeId('BootNotification', 'in', protocol)],
    );
    expect(boots.map((b) => b.status)).toEqual(['Pending', 'Accepted']);
    expect(new Date(boots[1].at).getTime() - new Date(boots[0].at).getTime()).toBeLessThan(10_000);
  };

  it('a 2.0.1 station: Pending, its device model read, then Accepted within seconds', async () => {
    const cpId = await provisioned('SIM-PROV-201');
    const sim = new SimulatedCharger201({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-PROV-201', connectors: 1, reconnect: false });
    sims.push(sim);
    await sim.start();
    await acceptedSoonAfterPending(cpId, 'ocpp2.0.1');
    const [report] = await s.db.query(`SELECT completed_at FROM cp_device_reports WHERE cp_id = $1`, [cpId]);
    expect(report?.completed_at).toBeTruthy();
    const [cp] = await s.db.query(`SELECT boot_status FROM cps WHERE cp_id = $1`, [cpId]);
    expect(cp.boot_status).toBeNull();
  });

  it('a 1.6 charger: Pending, its configuration read, then Accepted within seconds', async () => {
    const cpId = await provisioned('SIM-PROV-16');
    const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-PROV-16', connectors: 1, reconnect: false });
    sims.push(sim);
    await sim.start();
    await acceptedSoonAfterPending(cpId, 'ocpp1.6');
    const [{ keys }] = await s.db.query(`SELECT count(*)::int AS keys FROM cp_config_keys WHERE cp_id = $1`, [cpId]);
    expect(keys).toBeGreaterThan(0);
  });
});
