import { describe, expect, it } from 'vitest';
import { withTestCentral } from './test-central.ts';

const t = withTestCentral({ connectors: 2 });
const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
const reserve = (params: object) => t.central.call('CP001', 'ReserveNow', { connectorId: 1, idTag: 'OWNER', reservationId: 1, expiryDate: soon(60_000), ...params });
const statuses = (connectorId: number) => t.central.messages('StatusNotification').filter((m) => m.params.connectorId === connectorId).map((m) => m.params.status);

/** The simulator's reservations (OCPP 1.6 Reservation profile) as the central system sees them. */
describe('reservations', () => {
  it('reserves a connector (Reserved), keeps other idTags off it, and starts the owner with its reservationId', async () => {
    const cp = t.charger();
    await cp.start();
    expect(await reserve({})).toEqual({ status: 'Accepted' });
    await t.central.waitFor(() => statuses(1).at(-1) === 'Reserved');
    expect(await reserve({ reservationId: 2, idTag: 'OTHER' })).toEqual({ status: 'Occupied' });
    await expect(cp.startTransaction(1, 'OTHER')).rejects.toThrow(/reserved/);
    // The other connector is free for anyone.
    await cp.startTransaction(2, 'OTHER');
    expect(await reserve({ reservationId: 3, connectorId: 2 })).toEqual({ status: 'Occupied' });
    await cp.startTransaction(1, 'owner');
    expect(t.central.messages('StartTransaction').at(-1)!.params).toMatchObject({ connectorId: 1, idTag: 'owner', reservationId: 1 });
    expect(cp.reservations.list()).toEqual([]);
  });

  it('lets another card in when its Authorize names the reservation\'s parentIdTag', async () => {
    const cp = t.charger();
    t.central.answers.set('Authorize', ({ idTag }) => ({ idTagInfo: { status: 'Accepted', ...(idTag === 'MATE' ? { parentIdTag: 'FAMILY' } : {}) } }));
    await cp.start();
    expect(await reserve({ parentIdTag: 'FAMILY' })).toEqual({ status: 'Accepted' });
    await expect(cp.startTransaction(1, 'STRANGER')).rejects.toThrow(/reserved/);
    await cp.startTransaction(1, 'MATE');
    expect(t.central.messages('StartTransaction').at(-1)!.params).toMatchObject({ idTag: 'MATE', reservationId: 1 });
  });

  it('answers Faulted, Unavailable and Rejected as a charger would, and expires at expiryDate (Available)', async () => {
    const cp = t.charger();
    await cp.start();
    expect(await reserve({ connectorId: 3 })).toEqual({ status: 'Rejected' });
    expect(await t.central.call('CP001', 'ChangeAvailability', { connectorId: 2, type: 'Inoperative' })).toEqual({ status: 'Accepted' });
    expect(await reserve({ connectorId: 2 })).toEqual({ status: 'Unavailable' });
    expect(await t.central.call('CP001', 'ChangeConfiguration', { key: 'ReserveConnectorZeroSupported', value: 'false' })).toEqual({ status: 'Accepted' });
    expect(await reserve({ connectorId: 0 })).toEqual({ status: 'Rejected' });
    expect(await t.central.call('CP001', 'ChangeConfiguration', { key: 'ReserveConnectorZeroSupported', value: 'true' })).toEqual({ status: 'Accepted' });
    // Connector 0 takes the one free connector: a second one is Occupied, and only the owner may start there.
    expect(await reserve({ connectorId: 0, reservationId: 5 })).toEqual({ status: 'Accepted' });
    expect(await reserve({ connectorId: 0, reservationId: 6 })).toEqual({ status: 'Occupied' });
    await expect(cp.startTransaction(1, 'OTHER')).rejects.toThrow(/reserved/);
    expect(await t.central.call('CP001', 'CancelReservation', { reservationId: 5 })).toEqual({ status: 'Accepted' });
    expect(await t.central.call('CP001', 'CancelReservation', { reservationId: 5 })).toEqual({ status: 'Rejected' });

    expect(await reserve({ expiryDate: soon(300) })).toEqual({ status: 'Accepted' });
    await t.central.waitFor(() => statuses(1).at(-1) === 'Reserved');
    await t.central.waitFor(() => statuses(1).at(-1) === 'Available', 3000);
    expect(cp.reservations.list()).toEqual([]);
  });

  it('answers Faulted for a faulted connector', async () => {
    const cp = t.charger();
    await cp.start();
    (cp as unknown as { connectorAt(id: number): { status: string } }).connectorAt(1).status = 'Faulted';
    expect(await reserve({})).toEqual({ status: 'Faulted' });
  });
});
