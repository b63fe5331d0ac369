import { describe, expect, it } from 'vitest';
import { withTestCentral201 } from './test-central.ts';

/** The 2.0.1 station's reservations (H), local list (D) and log upload (N), through a strict 2.0.1 central. */
const t = withTestCentral201({ connectors: 2, diagnosticsUploadMs: 30 });
const call = (method: string, params: Record<string, unknown>) => t.central.call('CS001', method, params);
const statuses = (evseId: number) => t.central.messages('StatusNotification').filter((m) => m.params.evseId === evseId).map((m) => m.params.connectorStatus);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const token = (idToken: string) => ({ idToken, type: 'ISO14443' });

describe('ReserveNow and CancelReservation', () => {
  it('reserves an EVSE (Reserved), starts only for its idToken with the reservationId, then frees it', async () => {
    const cp = t.charger();
    await cp.start();
    expect(await call('ReserveNow', { id: 7, expiryDateTime: inAnHour(), idToken: token('TAG-R'), evseId: 1 })).toEqual({ status: 'Accepted' });
    await t.central.waitFor(() => statuses(1).at(-1) === 'Reserved');
    expect(cp.ocppStatus(1)).toBe('Reserved');
    // Another idToken may not take the reserved EVSE, by remote start or locally.
    expect(await call('RequestStartTransaction', { evseId: 1, remoteStartId: 1, idToken: { idToken: 'OTHER', type: 'Central' } })).toEqual({ status: 'Rejected' });
    await expect(cp.startTransaction(1, 'OTHER')).rejects.toThrow(/reserved/);
    // Its own idToken starts, remotely: the Started event names the reservation.
    expect(await call('RequestStartTransaction', { evseId: 1, remoteStartId: 2, idToken: { idToken: 'TAG-R', type: 'Central' } })).toEqual({ status: 'Accepted' });
    const started = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.eventType === 'Started');
    expect(started.params).toMatchObject({ reservationId: 7, idToken: { idToken: 'TAG-R' }, evse: { id: 1 }, transactionInfo: { remoteStartId: 2 } });
    expect(cp.reservations.list()).toEqual([]);
    // An EVSE in use is Occupied for a new reservation; the same id again is refused as well.
    expect(await call('ReserveNow', { id: 8, expiryDateTime: inAnHour(), idToken: token('TAG-R'), evseId: 1 })).toEqual({ status: 'Occupied' });
  });

  it('reserves any EVSE without evseId, answers Faulted / Unavailable / Rejected as a station does', async () => {
    const cp = t.charger();
    await cp.start();
    expect(await call('ReserveNow', { id: 1, expiryDateTime: inAnHour(), idToken: token('ANY') })).toEqual({ status: 'Accepted' });
    expect(cp.reservations.list()).toEqual([expect.objectContaining({ reservationId: 1, connectorId: 0, idTag: 'ANY' })]);
    expect(await call('ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } })).toEqual({ status: 'Accepted' });
    expect(await call('ReserveNow', { id: 2, expiryDateTime: inAnHour(), idToken: token('X'), evseId: 2 })).toEqual({ status: 'Unavailable' });
    expect(await call('ReserveNow', { id: 3, expiryDateTime: inAnHour(), idToken: token('X'), evseId: 9 })).toEqual({ status: 'Rejected' });
    // A group's other card uses the reservation: the CSMS's Authorize answer names the group.
    t.central.answers.set('Authorize', () => ({ idTokenInfo: { status: 'Accepted', groupIdToken: { idToken: 'GROUP', type: 'Central' } } }));
    expect(await call('ReserveNow', { id: 4, expiryDateTime: inAnHour(), idToken: token('OWNER'), evseId: 1, groupIdToken: { idToken: 'GROUP', type: 'Central' } })).toEqual({ status: 'Accepted' });
    await call('CancelReservation', { reservationId: 1 });
    await cp.plugIn(1);
    await cp.startTransaction(1, 'MATE');
    const started = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.eventType === 'Started');
    expect(started.params.reservationId).toBe(4);
  });

  it('cancels a reservation (Available again); an unknown id is Rejected; expiry frees the EVSE', async () => {
    const cp = t.charger();
    await cp.start();
    await call('ReserveNow', { id: 5, expiryDateTime: inAnHour(), idToken: token('TAG'), evseId: 2 });
    expect(await call('CancelReservation', { reservationId: 5 })).toEqual({ status: 'Accepted' });
    expect(await call('CancelReservation', { reservationId: 5 })).toEqual({ status: 'Rejected' });
    await t.central.waitFor(() => statuses(2).join() === 'Available,Reserved,Available');
    await call('ReserveNow', { id: 6, expiryDateTime: new Date(Date.now() + 50).toISOString(), idToken: token('TAG'), evseId: 2 });
    await t.central.waitFor(() => statuses(2).length === 5);
    expect(statuses(2).slice(3)).toEqual(['Reserved', 'Available']);
    expect(cp.reservations.list()).toEqual([]);
  });
});

describe('SendLocalList and GetLocalListVersion', () => {
  it('takes a Full then a Differential list, refuses an old version, and authorizes from it offline', async () => {
    const cp = t.charger({ reconnect: false });
    await cp.start();
    expect(await call('GetLocalListVersion', {})).toEqual({ versionNumber: 0 });
    expect(await call('SendLocalList', {
      versionNumber: 3, updateType: 'Full',
      localAuthorizationList: [{ idToken: token('LIST-1'), idTokenInfo: { status: 'Accepted' } }, { idToken: token('LIST-2'), idTokenInfo: { status: 'Blocked' } }],
    })).toEqual({ status: 'Accepted' });
    expect(await call('GetLocalListVersion', {})).toEqual({ versionNumber: 3 });
    expect(await call('SendLocalList', { versionNumber: 3, updateType: 'Differential', localAuthorizationList: [{ idToken: token('LIST-1') }] })).toEqual({ status: 'VersionMismatch' });
    // Without idTokenInfo a Differential entry is removed.
    expect(await call('SendLocalList', {
      versionNumber: 4, updateType: 'Differential',
      localAuthorizationList: [{ idToken: token('LIST-2') }, { idToken: token('LIST-3'), idTokenInfo: { status: 'Accepted', cacheExpiryDateTime: '2000-01-01T00:00:00Z' } }],
    })).toEqual({ status: 'Accepted' });
    expect(cp.localList.size).toBe(2);
    cp.disconnect();
    expect(await cp.authorize('LIST-1')).toEqual({ status: 'Accepted' });
    expect(await cp.authorize('LIST-3')).toMatchObject({ status: 'Expired' });
  });

  it('answers Failed and version 0 when its local list is off (2.0.1 has no NotSupported)', async () => {
    const cp = t.charger();
    await cp.start();
    cp.config.change('LocalAuthListEnabled', 'false');
    expect(await call('SendLocalList', { versionNumber: 1, updateType: 'Full' })).toEqual({ status: 'Failed' });
    expect(await call('GetLocalListVersion', {})).toEqual({ versionNumber: 0 });
  });
});

describe('GetLog', () => {
  it('uploads with LogStatusNotifications naming the requestId; a second request cancels the first', async () => {
    const cp = t.charger();
    await cp.start();
    const answer = await call('GetLog', { logType: 'DiagnosticsLog', requestId: 41, log: { remoteLocation: 'https://logs.example.com/up' } });
    expect(answer).toEqual({ status: 'Accepted', filename: expect.stringMatching(/^CS001-diagnostics-\d{8}T\d{6}\.log$/) });
    expect(await call('GetLog', { logType: 'SecurityLog', requestId: 42, log: { remoteLocation: 'https://logs.example.com/up' } }))
      .toMatchObject({ status: 'AcceptedCanceled', filename: expect.stringContaining('-security-') });
    await t.central.waitFor((m) => m.method === 'LogStatusNotification' && m.params.status === 'Uploaded');
    const log = () => t.central.messages('LogStatusNotification').map((m) => m.params);
    expect(log()).toEqual([
      { status: 'Uploading', requestId: 41 }, { status: 'Uploading', requestId: 42 }, { status: 'Uploaded', requestId: 42 },
    ]);
    // TriggerMessage tells the last status; the cancelled upload never says Uploaded.
    expect(await call('TriggerMessage', { requestedMessage: 'LogStatusNotification' })).toEqual({ status: 'Accepted' });
    await t.central.waitFor(() => log().length === 4);
    expect(log()[3]).toEqual({ status: 'Uploaded', requestId: 42 });
  });
});
