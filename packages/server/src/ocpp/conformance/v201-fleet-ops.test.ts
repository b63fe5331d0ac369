import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger, eventually, callRecorder } from '../../testing/ocpp-support.ts';
import { addImage, progressWhen } from '../../firmware/test-support.ts';
import { tool201, type Tool201 } from './v201-tool.ts';

/**
 * OCTT 2.0.1 (CSMS) cases of the other fleet operations the portal translates for a 2.0.1 station
 * (ocpp/v201/commands.ts): reservations (H), local list (D), firmware (L), log upload (N), the
 * authorization cache (C), and a command with no 2.0.1 form. The tool plays the station with a strict
 * 2.0.1 client; the operator acts through the portal's routes.
 *
 * Covered: TC_H_07_CSMS reserve a specific EVSE, used by its transaction (H01) · TC_H_01_CSMS reserve an
 *   unspecified EVSE (H01) · H01 refusals (Occupied, Faulted, Unavailable, Rejected) · TC_H_15_CSMS cancel (H02)
 *   · TC_D_01_CSMS / TC_D_02_CSMS SendLocalList Full and Differential, an empty Full list (D01) ·
 *   TC_D_08_CSMS GetLocalListVersion (D02) · TC_L_01_CSMS firmware update and its statuses (L01; unsigned) ·
 *   TC_N_01_CSMS retrieve log, DiagnosticsLog (N01) · TC_C_37_CSMS clear authorization cache (C11).
 */
describe('OCTT 2.0.1 fleet operations (H, D, L, N, C)', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  let t: Tool201;
  const answers: Record<string, string> = {};
  const { received, last, record } = callRecorder();
  const status = (action: string) => answers[action] ?? 'Accepted';

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT201-OPS', { locId: await addSite(s.db) });
    await addCard(s.db, ['OCTT-TAG']);
    charger = await connectCharger(s.wsUrl, 'OCTT201-OPS', {
      protocol: 'ocpp2.0.1',
      handlers: {
        ReserveNow: record('ReserveNow', () => ({ status: status('ReserveNow') })),
        CancelReservation: record('CancelReservation', () => ({ status: status('CancelReservation') })),
        SendLocalList: record('SendLocalList', () => ({ status: status('SendLocalList') })),
        GetLocalListVersion: record('GetLocalListVersion', () => ({ versionNumber: 7 })),
        UpdateFirmware: record('UpdateFirmware', () => ({ status: status('UpdateFirmware') })),
        GetLog: record('GetLog', () => ({ status: status('GetLog'), ...(status('GetLog') === 'Rejected' ? {} : { filename: 'octt-diag.log' }) })),
        ClearCache: record('ClearCache', () => ({ status: status('ClearCache') })),
      },
    });
    t = tool201(charger);
    await charger.call('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'Sim-AC22', vendorName: 'EVSim', firmwareVersion: '1.0.0' } });
    for (const evseId of [1, 2]) await t.status(evseId, 'Available');
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const answering = async <T>(action: string, answer: string, fn: () => Promise<T>): Promise<T> => {
    answers[action] = answer;
    try {
      return await fn();
    } finally {
      delete answers[action];
    }
  };
  const reserve = (connectorId: number) =>
    api('POST', '/api/reservations', { cp_id: cpId, connector_id: connectorId, id_tag: 'OCTT-TAG', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString() });
  const reservation = async (id: number) => (await s.db.query(`SELECT * FROM reservations WHERE reservation_id = $1`, [id]))[0];
  const shown = async (connectorId: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, connectorId]))[0]?.status;

  it('TC_H_07_CSMS Reserve a specific EVSE: the station reports Reserved, the transaction uses it', async () => {
    const res = await reserve(1);
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted' } });
    const id = res.body.data.reservation_id;
    expect(last('ReserveNow')).toEqual({ id, expiryDateTime: expect.any(String), idToken: { idToken: 'OCTT-TAG', type: 'ISO14443' }, evseId: 1 });
    await t.status(1, 'Reserved');
    expect(await shown(1)).toBe('Reserved');
    await t.status(1, 'Occupied');
    await t.started(1, 'tx-H07', { reservationId: id });
    expect(await eventually(async () => (await reservation(id)).status === 'Used')).toBe(true);
    await t.ended(1, 'tx-H07', 'Local');
    await t.status(1, 'Available');
  });

  it('TC_H_01_CSMS Reserve an unspecified EVSE: no evseId; the station\'s refusals shown', async () => {
    const res = await reserve(0);
    expect(res.body).toMatchObject({ status: 'success', data: { status: 'Accepted', connector_id: 0 } });
    expect(last('ReserveNow')).not.toHaveProperty('evseId');
    await api('POST', `/api/reservations/${res.body.data.reservation_id}/cancel`);
    for (const answer of ['Occupied', 'Faulted', 'Unavailable', 'Rejected']) {
      const refused = await answering('ReserveNow', answer, () => reserve(2));
      expect(refused.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: answer } });
      expect(await reservation(refused.body.data.reservation_id)).toMatchObject({ status: answer });
    }
  });

  it('TC_H_15_CSMS Cancel a reservation: Accepted ends it, Rejected keeps it', async () => {
    const id = (await reserve(2)).body.data.reservation_id;
    await t.status(2, 'Reserved');
    expect((await answering('CancelReservation', 'Rejected', () => api('POST', `/api/reservations/${id}/cancel`))).body)
      .toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
    expect(await reservation(id)).toMatchObject({ status: 'Accepted' });
    expect((await api('POST', `/api/reservations/${id}/cancel`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('CancelReservation')).toEqual({ reservationId: id });
    await t.status(2, 'Available');
    expect(await reservation(id)).toMatchObject({ status: 'Cancelled' });
    expect(await shown(2)).toBe('Available');
  });

  it('TC_D_01_CSMS / TC_D_02_CSMS / TC_D_08_CSMS Send local list (Full, Differential, empty) and get its version', async () => {
    const full = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
    expect(full.body).toMatchObject({ updateType: 'Full', answer: 'Accepted', entries: 1 });
    expect(last('SendLocalList')).toEqual({
      versionNumber: full.body.listVersion, updateType: 'Full',
      localAuthorizationList: [{ idToken: { idToken: 'OCTT-TAG', type: 'ISO14443' }, idTokenInfo: { status: 'Accepted' } }],
    });
    // A Differential refused as VersionMismatch is followed by a Full list.
    const diff = await answering('SendLocalList', 'VersionMismatch', () => api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Differential' }));
    expect(received.filter((r) => r.action === 'SendLocalList').at(-1)?.params.updateType).toBe('Full');
    expect(diff.body).toMatchObject({ fallbackFrom: 'Differential', answer: 'VersionMismatch' });
    expect((await api('POST', `/api/cps/${cpId}/localList/version`)).body).toEqual({ listVersion: 7, reportedAt: expect.any(String) });
    expect(last('GetLocalListVersion')).toEqual({});
    // No card left: the Full list that empties the station's has no localAuthorizationList (2.0.1: minItems 1).
    await s.db.query(`DELETE FROM auth_card`);
    const empty = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
    expect(empty.body).toMatchObject({ answer: 'Accepted', entries: 0 });
    expect(last('SendLocalList')).toEqual({ versionNumber: empty.body.listVersion, updateType: 'Full' });
    await addCard(s.db, ['OCTT-TAG']);
  });

  it('TC_L_01_CSMS Firmware update: UpdateFirmware with requestId, 2.0.1 statuses followed to Verified', async () => {
    const firmwareId = await addImage(s, '1.1.0');
    const job = await api('POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'chargers', targetIds: [cpId] });
    expect(job.body.status).toBe('success');
    const update = await eventually(async () => last('UpdateFirmware'));
    expect(update).toEqual({ requestId: expect.any(Number), firmware: { location: 'https://fw.example.com/evsim-1.1.0.bin', retrieveDateTime: expect.any(String) } });
    const notify = (st: string) => charger.call('FirmwareStatusNotification', { status: st, requestId: update.requestId });
    for (const st of ['Downloading', 'Downloaded', 'SignatureVerified', 'Installing', 'InstallRebooting']) expect(await notify(st)).toEqual({});
    await charger.call('BootNotification', { reason: 'FirmwareUpdate', chargingStation: { model: 'Sim-AC22', vendorName: 'EVSim', firmwareVersion: '1.1.0' } });
    await notify('Installed');
    const done = await progressWhen(s, admin, job.body.jobId, (p) => p.status === 'Finished');
    expect(done.chargers[0]).toMatchObject({ state: 'Verified', reportedVersion: '1.1.0' });
    // The 2.0.1-only steps count as the 1.6 step they belong to.
    expect(new Set(done.chargers[0].history.map((h: any) => h.state))).toEqual(new Set(['Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Verified']));
    expect((await api('GET', `/api/cps/${cpId}/firmware`)).body).toMatchObject({ installedVersion: '1.1.0', firmwareStatus: 'Installed' });
  });

  it('TC_N_01_CSMS Retrieve log (GetDiagnostics as GetLog) and its LogStatusNotifications', async () => {
    const res = await api('GET', `/api/cps/getDiagnostics/${cpId}?location=${encodeURIComponent('https://logs.example.com/upload')}`);
    expect(res.body).toEqual({ status: 'success', data: { fileName: 'octt-diag.log' } });
    const asked = last('GetLog');
    expect(asked).toEqual({ logType: 'DiagnosticsLog', requestId: expect.any(Number), log: { remoteLocation: 'https://logs.example.com/upload' } });
    for (const st of ['Uploading', 'Uploaded']) expect(await charger.call('LogStatusNotification', { status: st, requestId: asked.requestId })).toEqual({});
    expect((await api('GET', `/api/cps/${cpId}/firmware`)).body).toMatchObject({ diagnosticsStatus: 'Uploaded' });
    // A station that refuses says so: not a success without a file.
    const refused = await answering('GetLog', 'Rejected', () => api('GET', `/api/cps/getDiagnostics/${cpId}?location=${encodeURIComponent('https://logs.example.com/upload')}`));
    expect(refused.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
    await charger.call('LogStatusNotification', { status: 'UploadFailure', requestId: asked.requestId });
    expect((await api('GET', `/api/cps/${cpId}/firmware`)).body).toMatchObject({ diagnosticsStatus: 'UploadFailed' });
  });

  it('TC_C_37_CSMS Clear authorization cache', async () => {
    expect((await api('GET', `/api/cps/clearCache/${cpId}`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ClearCache')).toEqual({});
    expect((await answering('ClearCache', 'Rejected', () => api('GET', `/api/cps/clearCache/${cpId}`))).body)
      .toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
  });

  it('A command with no 2.0.1 form is refused with its reason, nothing sent', async () => {
    const before = received.length;
    const [{ n: logged }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1`, [cpId]);
    const res = await api('POST', `/api/cps/${cpId}/changeConfiguration`, { key: 'ConnectorPhaseRotation', value: '1.RST' });
    expect(res.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: expect.stringMatching(/ConnectorPhaseRotation has no OCPP 2\.0\.1 variable/) });
    expect(received.length).toBe(before);
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1`, [cpId]);
    expect(n).toBe(logged);
  });
});
