import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCharger, addSite, connectCharger, eventually } from '../../testing/ocpp-support.ts';
import { addImage, progressWhen } from '../../firmware/test-support.ts';

/**
 * OCTT 1.6 (Central System) firmware management cases, through the portal's firmware jobs: the tool
 * plays the charger (a strict ocpp-rpc client, which checks every request of the server against the
 * OCPP 1.6 schemas), answers UpdateFirmware and sends the case's FirmwareStatusNotifications and boot;
 * the operator starts a job for the charger in the portal and follows it.
 */
describe('OCTT 1.6 firmware management', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  const updates: any[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT-FW', { locId: await addSite(s.db) });
    charger = await connectCharger(s.wsUrl, 'OCTT-FW', {
      handlers: {
        UpdateFirmware: (params) => {
          updates.push(params);
          return {};
        },
      },
    });
    await charger.call('BootNotification', { chargePointVendor: 'EVSim', chargePointModel: 'Sim-AC22', firmwareVersion: '1.0.0' });
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  /** The operator starts a job for the tool's charger; the tool receives UpdateFirmware. */
  async function startUpdate(version: string): Promise<number> {
    const firmwareId = await addImage(s, version);
    const res = await s.api('POST', '/api/firmware_jobs/start', { token: admin, body: { firmwareId, targetKind: 'chargers', targetIds: [cpId] } });
    expect(res.body.status).toBe('success');
    const before = updates.length;
    await eventually(async () => updates.length > before);
    expect(updates.at(-1)).toEqual({ location: `https://fw.example.com/evsim-${version}.bin`, retrieveDate: expect.any(String) });
    return res.body.jobId;
  }
  const status = async (st: string) => expect(await charger.call('FirmwareStatusNotification', { status: st })).toEqual({});
  const finalState = (jobId: number) => progressWhen(s, admin, jobId, (p) => p.status === 'Finished').then((p) => p.chargers[0]);

  it('TC_044_1 Firmware Update - Download and Install', async () => {
    const jobId = await startUpdate('1.1.0');
    for (const st of ['Downloading', 'Downloaded', 'Installing']) await status(st);
    // The charger reboots into the new firmware, then reports Installed.
    expect(await charger.call('BootNotification', { chargePointVendor: 'EVSim', chargePointModel: 'Sim-AC22', firmwareVersion: '1.1.0' })).toMatchObject({ status: 'Accepted' });
    await charger.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Available' });
    await status('Installed');
    const row = await finalState(jobId);
    expect(row).toMatchObject({ state: 'Verified', reportedVersion: '1.1.0' });
    expect(row.history.map((h: any) => h.state)).toEqual(['Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Verified']);
    expect((await s.api('GET', `/api/cps/${cpId}/firmware`, { token: admin })).body).toMatchObject({ installedVersion: '1.1.0', firmwareStatus: 'Installed' });
  });

  it('TC_044_2 Firmware Update - Download failed', async () => {
    const jobId = await startUpdate('1.2.0');
    await status('Downloading');
    await status('DownloadFailed');
    expect(await finalState(jobId)).toMatchObject({ state: 'DownloadFailed', reportedVersion: null });
  });

  it('TC_044_3 Firmware Update - Installation failed', async () => {
    const jobId = await startUpdate('1.3.0');
    for (const st of ['Downloading', 'Downloaded', 'Installing', 'InstallationFailed']) await status(st);
    expect(await finalState(jobId)).toMatchObject({ state: 'InstallationFailed' });
    expect((await s.api('GET', `/api/cps/${cpId}/firmware`, { token: admin })).body).toMatchObject({ installedVersion: '1.1.0', firmwareStatus: 'InstallationFailed' });
  });
});
