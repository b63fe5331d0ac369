import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedCharger } from '@ev/simulator';
import { createPrivilege, editPrivilege, P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';
import { addImage, progressWhen, quickCharger } from './test-support.ts';
import { addDemoFirmware } from './demo.ts';

/** Issue 29: firmware jobs against simulators over a real WebSocket, through the real HTTP API. */
describe('firmware update jobs', () => {
  let s: TestServer;
  let admin: string;
  const sims: SimulatedCharger[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
  });
  afterAll(async () => {
    await Promise.all(sims.map((c) => c.stop()));
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  /** A site of n connected simulators (charger numbers prefix1…n). */
  async function site(prefix: string, n: number, firmware = {}): Promise<{ locId: number; cpIds: number[] }> {
    const locId = await addSite(s.db);
    const cpIds: number[] = [];
    for (let i = 1; i <= n; i++) {
      cpIds.push(await addCharger(s.db, `${prefix}${i}`, { locId }));
      const sim = quickCharger(s, `${prefix}${i}`, firmware);
      sims.push(sim);
      await sim.start();
    }
    return { locId, cpIds };
  }

  it('checks an image\'s URL: http, https or ftp', async () => {
    const bad = await api('POST', '/api/firmware', { version: '9.9', url: 'file:///etc/passwd' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ url: 'invalid' });
    const good = await api('POST', '/api/firmware', { version: '9.9', url: ' ftp://fw.example.com/evsim-9.9.bin ', charge_point_model: 'Sim-AC22' });
    expect(good.status).toBe(200);
    expect((await s.db.query(`SELECT url FROM firmware WHERE version = '9.9'`))[0].url).toBe('ftp://fw.example.com/evsim-9.9.bin');
  });

  it('updates a site of 3 chargers in waves until each is Verified by its next boot', async () => {
    const { locId, cpIds } = await site('FW-OK-', 3);
    const firmwareId = await addImage(s, '2.1.0');
    const res = await api('POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'site', targetIds: [locId], waveSize: 2, retries: 2, retryInterval: 30 });
    expect(res.body).toEqual({ status: 'success', jobId: expect.any(Number), total: 3 });
    const jobId = res.body.jobId;
    // Never more than the wave's 2 chargers updating at once.
    const p0 = (await api('GET', `/api/firmware_jobs/${jobId}/progress`)).body;
    expect(p0.counts.Queued).toBeGreaterThanOrEqual(1);
    const done = await progressWhen(s, admin, jobId, (p) => p.status === 'Finished');
    expect(done.counts).toMatchObject({ Verified: 3, Queued: 0, DownloadFailed: 0 });
    for (const c of done.chargers) {
      expect(c).toMatchObject({ state: 'Verified', reportedVersion: '2.1.0' });
      expect(c.history.map((h: any) => h.state)).toEqual(['Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Verified']);
    }
    // Waves of 2: the third charger was sent to only once one of the first two was Verified.
    const at = (c: any, st: string) => Date.parse(c.history.find((h: any) => h.state === st).at);
    const bySent = [...done.chargers].sort((a, b) => at(a, 'Sent') - at(b, 'Sent'));
    expect(at(bySent[2], 'Sent')).toBeGreaterThanOrEqual(Math.min(at(bySent[0], 'Verified'), at(bySent[1], 'Verified')));
    expect((await s.db.query(`SELECT firmware_version FROM cps WHERE cp_id = ANY($1::int[])`, [cpIds])).map((r) => r.firmware_version)).toEqual(['2.1.0', '2.1.0', '2.1.0']);
    // Each UpdateFirmware went through the dispatcher (cp_requests) and the portal action log, in the creator's name.
    const sent = await s.db.query(`SELECT request_data FROM cp_requests WHERE request_type = 25 AND cp_id = ANY($1::int[])`, [cpIds]);
    expect(sent).toHaveLength(3);
    expect(sent[0].request_data).toMatchObject({ location: 'https://fw.example.com/evsim-2.1.0.bin', retries: 2, retryInterval: 30 });
    const audits = await s.db.query(`SELECT cre_user, new_data FROM portal_action_log WHERE action = 'COMMAND' AND target_id = ANY($1::text[])`, [cpIds.map(String)]);
    expect(audits.map((a) => [a.cre_user, a.new_data.command])).toEqual(Array(3).fill(['admin', 'UpdateFirmware']));
    // Each charger reported 4 statuses; the last Installed follows its boot, so it may come after the job ended.
    const statuses = async () => (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 9 AND cp_id = ANY($1::int[])`, [cpIds]))[0].n;
    expect(await eventually(async () => (await statuses()) === 12)).toBe(true);
    // The charger view: installed version and this charger's history.
    const fw = (await api('GET', `/api/cps/${cpIds[0]}/firmware`)).body;
    expect(fw).toMatchObject({ installedVersion: '2.1.0', firmwareStatus: 'Installed', history: [{ jobId, version: '2.1.0', state: 'Verified' }] });
  });

  it('stops sending once the failure share is reached: the chargers not yet sent to are Stopped', async () => {
    const { locId } = await site('FW-BAD-', 3, { fail: 'download' });
    const firmwareId = await addImage(s, '2.2.0');
    const { jobId } = (await api('POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'site', targetIds: [locId], waveSize: 1, maxFailurePct: 30 })).body;
    const p = await progressWhen(s, admin, jobId, (x) => x.status !== 'Running');
    expect(p).toMatchObject({ status: 'Stopped', stopReason: 'failures' });
    expect(p.counts).toMatchObject({ DownloadFailed: 1, Stopped: 2, Sent: 0 });
    expect((await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE request_type = 25 AND cp_no LIKE 'FW-BAD-%'`))[0].n).toBe(1);
  });

  it('marks an offline charger NotSent and a charger booting another version Mismatch; an installation failure is kept', async () => {
    const locId = await addSite(s.db);
    await addCharger(s.db, 'FW-OFF-1', { locId });
    const { cpIds: [mismatch] } = await site('FW-MIS-', 1, { fail: 'version' });
    const { cpIds: [broken] } = await site('FW-INS-', 1, { fail: 'install' });
    await s.db.query(`UPDATE cps SET loc_id = $1 WHERE cp_id = ANY($2::int[])`, [locId, [mismatch, broken]]);
    const firmwareId = await addImage(s, '2.3.0');
    const { jobId } = (await api('POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'site', targetIds: [locId] })).body;
    const p = await progressWhen(s, admin, jobId, (x) => x.status === 'Finished');
    const states = Object.fromEntries(p.chargers.map((c: any) => [c.cpNo, c.state]));
    expect(states).toEqual({ 'FW-OFF-1': 'NotSent', 'FW-MIS-1': 'Mismatch', 'FW-INS-1': 'InstallationFailed' });
    expect(p.chargers.find((c: any) => c.cpNo === 'FW-MIS-1').reportedVersion).toBe('1.0.0');
  });

  it('refuses an image that does not fit a chosen charger, and unknown images; leaves unfitting chargers of a site out', async () => {
    const { locId, cpIds } = await site('FW-FIT-', 1);
    const other = await addImage(s, '3.0.0', 'DC-50');
    const named = await api('POST', '/api/firmware_jobs/start', { firmwareId: other, targetKind: 'chargers', targetIds: cpIds });
    expect(named.status).toBe(400);
    expect(named.body.fields).toEqual({ targetIds: 'not_fitting' });
    expect((await api('POST', '/api/firmware_jobs/start', { firmwareId: other, targetKind: 'site', targetIds: [locId] })).body.fields).toEqual({ targetIds: 'no_chargers' });
    expect((await api('POST', '/api/firmware_jobs/start', { firmwareId: 999999, targetKind: 'site', targetIds: [locId] })).body.fields).toEqual({ firmwareId: 'not_found' });
    expect((await api('POST', '/api/firmware_jobs/start', { firmwareId: other, targetKind: 'bay', targetIds: [1] })).status).toBe(400);
  });

  it('needs CREATE_FIRMWARE_JOBS to start, EDIT_FIRMWARE_JOBS to stop and READ_ to follow; a stop is audited', async () => {
    const { cpIds } = await site('FW-PRM-', 1);
    const firmwareId = await addImage(s, '4.0.0');
    const body = { firmwareId, targetKind: 'chargers', targetIds: cpIds, retrieveDate: new Date(Date.now() + 3_600_000).toISOString() };
    const reader = await userWith(s, 'fwreader', [readPrivilege('firmware_jobs'), readPrivilege('cps')]);
    expect((await api('POST', '/api/firmware_jobs/start', body, reader)).status).toBe(403);
    const creator = await userWith(s, 'fwcreator', [createPrivilege('firmware_jobs'), readPrivilege('firmware_jobs')]);
    const { jobId } = (await api('POST', '/api/firmware_jobs/start', body, creator)).body;
    expect((await api('GET', `/api/firmware_jobs/${jobId}/progress`, undefined, reader)).status).toBe(200);
    expect((await api('GET', `/api/firmware_jobs/${jobId}/progress`, undefined, await userWith(s, 'fwnobody', [P.CP_CONFIG]))).status).toBe(403);
    expect((await api('POST', `/api/firmware_jobs/${jobId}/stop`, undefined, creator)).status).toBe(403);
    const stopper = await userWith(s, 'fwstopper', [editPrivilege('firmware_jobs')]);
    expect((await api('POST', `/api/firmware_jobs/${jobId}/stop`, undefined, stopper)).body).toEqual({ status: 'success' });
    expect((await api('POST', `/api/firmware_jobs/${jobId}/stop`, undefined, stopper)).body.fields).toEqual({ status: 'not_running' });
    expect((await api('POST', `/api/firmware_jobs/999999/stop`, undefined, stopper)).status).toBe(404);
    const [audit] = await s.db.query(`SELECT cre_user, new_data FROM portal_action_log WHERE target = 'firmware_jobs' AND action = 'UPDATE' AND target_id = $1`, [String(jobId)]);
    expect(audit).toMatchObject({ cre_user: 'fwstopper', new_data: { status: 'Stopped' } });
    const [created] = await s.db.query(`SELECT cre_user FROM portal_action_log WHERE target = 'firmware_jobs' AND action = 'CREATE' AND target_id = $1`, [String(jobId)]);
    expect(created.cre_user).toBe('fwcreator');
    // A charger of another site does not exist for a user limited to their own.
    const limited = await userWith(s, 'fwlimited', [createPrivilege('firmware_jobs')], [await addSite(s.db)]);
    expect((await api('POST', '/api/firmware_jobs/start', body, limited)).status).toBe(404);
  });

  it('adds the demo\'s finished job once (npm run demo)', async () => {
    const locId = await addSite(s.db);
    const cpIds = [await addCharger(s.db, 'FW-DEMO-1', { locId }), await addCharger(s.db, 'FW-DEMO-2', { locId }), await addCharger(s.db, 'FW-DEMO-3', { locId })];
    await addDemoFirmware(s.db, cpIds);
    await addDemoFirmware(s.db, cpIds);
    const [job] = await s.db.query(`SELECT firmware_job_id FROM firmware_jobs WHERE created_by_name = 'demo'`);
    const p = (await api('GET', `/api/firmware_jobs/${job.firmware_job_id}/progress`)).body;
    expect(p).toMatchObject({ status: 'Finished', version: '1.0.0', total: 3, counts: { Verified: 3 } });
    expect(p.chargers[2].history.map((h: any) => h.state)).toEqual(['Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Verified']);
    expect(new Date(p.chargers[2].sentAt).getTime() - new Date(p.chargers[0].sentAt).getTime()).toBe(600_000);
  });

  it('stores the last DiagnosticsStatusNotification of GetDiagnostics for the charger view', async () => {
    const { cpIds: [cpId] } = await site('FW-DIAG-', 1);
    sims.at(-1)!.diagnosticsStatus = 'Idle';
    expect((await api('GET', `/api/cps/getDiagnostics/${cpId}`)).body.status).toBe('success');
    const fw = await eventually(async () => {
      const b = (await api('GET', `/api/cps/${cpId}/firmware`)).body;
      return b.diagnosticsStatus === 'Uploaded' ? b : null;
    }, 4000);
    expect(fw).toMatchObject({ diagnosticsStatus: 'Uploaded', diagnosticsStatusAt: expect.any(String) });
  });
});
