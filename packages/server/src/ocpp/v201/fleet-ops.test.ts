import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger201 } from '@ev/simulator';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, eventually } from '../../testing/ocpp-support.ts';
import { addImage, progressWhen } from '../../firmware/test-support.ts';

/**
 * The fleet operations of the portal on the 2.0.1 simulator (its own strict schemas, over a real socket):
 * reservations, the local list, log upload and a firmware job, each through the portal's routes.
 */
describe('OCPP 2.0.1 station: reservations, local list, logs, firmware', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger201;
  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    cpId = await addCharger(s.db, 'CS-201-OPS');
    await addCard(s.db, ['CARD-OPS']);
    sim = new SimulatedCharger201({
      url: `${s.wsUrl}/ocpp`, cpNo: 'CS-201-OPS', connectors: 2, reconnect: false, diagnosticsUploadMs: 20,
      rebootDelayMs: 20, firmwareVersion: '1.0.0', firmware: { stepMs: 20 },
    });
    await sim.start();
    await eventually(async () => (await shown(2)) === 'Available');
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const shown = async (connectorId: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status;

  it('reserves an EVSE, shows it Reserved, and the card\'s transaction uses the reservation', async () => {
    const res = await api('POST', '/api/reservations', { cp_id: cpId, connector_id: 1, id_tag: 'CARD-OPS', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString() });
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted' } });
    const id = res.body.data.reservation_id;
    expect(await eventually(async () => (await shown(1)) === 'Reserved')).toBe(true);
    // The station refuses what the reservation excludes, as a real one does.
    expect((await api('POST', '/api/reservations', { cp_id: cpId, connector_id: 1, id_tag: 'CARD-OPS', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString() })).body)
      .toMatchObject({ status: 'error', data: { status: 'Occupied' } });
    const txId = await sim.startTransaction(1, 'CARD-OPS');
    const [session] = await s.db.query(`SELECT session_id FROM cp_sessions WHERE ocpp_transaction_id = $1`, [txId]);
    const used = await eventually(async () => (await s.db.query(`SELECT session_id FROM reservations WHERE reservation_id = $1 AND status = 'Used'`, [id]))[0]);
    expect(used).toEqual({ session_id: session.session_id });
    await sim.stopTransaction(1);
    await sim.unplug(1);

    const other = (await api('POST', '/api/reservations', { cp_id: cpId, connector_id: 2, id_tag: 'CARD-OPS', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString() })).body.data.reservation_id;
    expect(await eventually(async () => (await shown(2)) === 'Reserved')).toBe(true);
    expect((await api('POST', `/api/reservations/${other}/cancel`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(await eventually(async () => (await shown(2)) === 'Available')).toBe(true);
  });

  it('sends its local list and reads the version back', async () => {
    const sent = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
    expect(sent.body).toMatchObject({ updateType: 'Full', answer: 'Accepted', entries: 1 });
    expect(sim.localList.size).toBe(1);
    expect((await api('POST', `/api/cps/${cpId}/localList/version`)).body).toMatchObject({ listVersion: sent.body.listVersion });
    // Offline, the list answers for the card.
    expect(sim.localList.lookup('CARD-OPS')).toMatchObject({ status: 'Accepted' });
  });

  it('uploads its log when asked for diagnostics, the portal following its status', async () => {
    const res = await api('GET', `/api/cps/getDiagnostics/${cpId}?location=${encodeURIComponent('https://logs.example.com/up')}`);
    expect(res.body).toMatchObject({ status: 'success', data: { fileName: expect.stringMatching(/^CS-201-OPS-diagnostics-/) } });
    expect(await eventually(async () => (await api('GET', `/api/cps/${cpId}/firmware`)).body.diagnosticsStatus === 'Uploaded')).toBe(true);
  });

  it('updates its firmware in a job, to Verified with the new version', async () => {
    const firmwareId = await addImage(s, '2.0.0');
    const job = await api('POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'chargers', targetIds: [cpId] });
    expect(job.body.status).toBe('success');
    const done = await progressWhen(s, admin, job.body.jobId, (p) => p.status === 'Finished', 15_000);
    expect(done.chargers[0]).toMatchObject({ state: 'Verified', reportedVersion: '2.0.0' });
  });
});
