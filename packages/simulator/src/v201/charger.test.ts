import { describe, expect, it } from 'vitest';
import { withTestCentral201 } from './test-central.ts';

const t = withTestCentral201({ connectors: 2, rebootDelayMs: 50 });
const charger = t.charger;

const events = () => t.central.messages('TransactionEvent').map((m) => m.params);
const energyOf = (params: any) => params.meterValue[0].sampledValue.find((v: any) => v.measurand === 'Energy.Active.Import.Register').value;

describe('boot and status', () => {
  it('boots as a 2.0.1 station and reports each EVSE connector', async () => {
    const cp = charger({ vendor: 'Acme', model: 'X1', firmwareVersion: '2.3.4' });
    await cp.start();
    expect(cp.isConnected).toBe(true);
    expect(t.central.messages('BootNotification')[0].params).toEqual({
      reason: 'PowerUp', chargingStation: { model: 'X1', vendorName: 'Acme', serialNumber: 'SN-CS001', firmwareVersion: '2.3.4' },
    });
    await t.central.waitFor(() => t.central.messages('StatusNotification').length === 2);
    expect(t.central.messages('StatusNotification').map((m) => [m.params.evseId, m.params.connectorId, m.params.connectorStatus]))
      .toEqual([[1, 1, 'Available'], [2, 1, 'Available']]);
    expect(Date.parse(t.central.messages('StatusNotification')[0].params.timestamp)).not.toBeNaN();
    expect(cp.config.int('HeartbeatInterval')).toBe(300);
    expect(await cp.heartbeat()).toBeTypeOf('string');
  });

  it('asks again after the interval while the CSMS answers Pending', async () => {
    let boots = 0;
    t.central.answers.set('BootNotification', () => ({
      status: ++boots < 2 ? 'Pending' : 'Accepted', currentTime: new Date().toISOString(), interval: 1,
    }));
    const cp = charger();
    await cp.start();
    expect(boots).toBe(2);
    expect(cp.isConnected).toBe(true);
  });
});

describe('transactions', () => {
  it('authorizes and runs a session: Started, Updated, Ended with rising seqNo and meter values', async () => {
    let now = Date.now();
    const cp = charger({ connectors: 1, clock: () => now, maxCurrentA: 32, voltage: 230 });
    await cp.start();
    await cp.plugIn(1);
    expect(await cp.authorize('TAG1')).toEqual({ status: 'Accepted' });
    expect(t.central.messages('Authorize')[0].params).toEqual({ idToken: { idToken: 'TAG1', type: 'ISO14443' } });
    const txId = await cp.startTransaction(1, 'TAG1');
    expect(cp.transactionId(1)).toBe(txId);
    expect(cp.connectorOf(txId)).toBe(1);
    now += 360_000;
    await cp.sendMeterValues(1);
    now += 360_000;
    await cp.stopTransaction(1);
    await cp.unplug(1);

    const [started, updated, ended] = events();
    expect(started).toMatchObject({
      eventType: 'Started', triggerReason: 'Authorized', seqNo: 0, idToken: { idToken: 'TAG1', type: 'ISO14443' },
      evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId: txId, chargingState: 'Charging' },
    });
    expect(started.offline).toBeUndefined();
    expect(updated).toMatchObject({ eventType: 'Updated', triggerReason: 'MeterValuePeriodic', seqNo: 1 });
    expect(ended).toMatchObject({
      eventType: 'Ended', triggerReason: 'StopAuthorized', seqNo: 2,
      transactionInfo: { transactionId: txId, stoppedReason: 'Local', chargingState: 'EVConnected' },
    });
    // 32 A × 230 V × 0.1 h = 736 Wh per step.
    expect(energyOf(started)).toBe(0);
    expect(energyOf(updated)).toBe(736);
    expect(energyOf(ended)).toBe(1472);
    const sampled = updated.meterValue[0].sampledValue;
    expect(sampled.find((v: any) => v.measurand === 'Power.Active.Import')).toMatchObject({ value: 7360, unitOfMeasure: { unit: 'W' } });
    expect(sampled.find((v: any) => v.measurand === 'Current.Import')).toMatchObject({ value: 32, unitOfMeasure: { unit: 'A' } });
    expect(sampled.find((v: any) => v.measurand === 'Voltage')).toMatchObject({ value: 230 });
    // The EV's presence is the connector status; the charging state rides on the events.
    expect(t.central.messages('StatusNotification').map((m) => m.params.connectorStatus)).toEqual(['Available', 'Occupied', 'Available']);
  });

  it('numbers TransactionEvents per station across EVSEs, and a meter sample without a transaction is a MeterValues', async () => {
    const cp = charger();
    await cp.start();
    await cp.startTransaction(1, 'A');
    await cp.startTransaction(2, 'B');
    await cp.stopTransaction(1);
    await cp.sendMeterValues(1);
    expect(events().map((e) => [e.seqNo, e.evse.id, e.eventType])).toEqual([[0, 1, 'Started'], [1, 2, 'Started'], [2, 1, 'Ended']]);
    expect(t.central.messages('MeterValues')[0].params).toMatchObject({ evseId: 1 });
  });

  it('stops a transaction whose idToken the CSMS refuses in its TransactionEvent answer', async () => {
    t.central.answers.set('TransactionEvent', (p) => (p.idToken ? { idTokenInfo: { status: 'Blocked' } } : {}));
    const cp = charger();
    await cp.start();
    await cp.startTransaction(1, 'BAD');
    expect(cp.hasTransaction(1)).toBe(false);
    expect(events().at(-1)).toMatchObject({ eventType: 'Ended', triggerReason: 'Deauthorized', transactionInfo: { stoppedReason: 'DeAuthorized' } });
  });
});

describe('CSMS commands', () => {
  it('RequestStartTransaction and RequestStopTransaction', async () => {
    const cp = charger();
    await cp.start();
    expect(await t.central.call('CS001', 'RequestStartTransaction', { evseId: 2, remoteStartId: 77, idToken: { idToken: 'REMOTE', type: 'Central' } }))
      .toEqual({ status: 'Accepted' });
    const started = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.eventType === 'Started');
    expect(started.params).toMatchObject({ triggerReason: 'RemoteStart', evse: { id: 2 }, transactionInfo: { remoteStartId: 77 } });
    const transactionId = started.params.transactionInfo.transactionId;
    expect(await t.central.call('CS001', 'RequestStopTransaction', { transactionId: 'nope' })).toEqual({ status: 'Rejected' });
    expect(await t.central.call('CS001', 'RequestStopTransaction', { transactionId })).toEqual({ status: 'Accepted' });
    const ended = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.eventType === 'Ended');
    expect(ended.params).toMatchObject({ triggerReason: 'RemoteStop', transactionInfo: { transactionId, stoppedReason: 'Remote' } });
    expect(cp.hasTransaction(2)).toBe(false);
  });

  it('Reset OnIdle waits for the transaction, then the station boots again with reason RemoteReset', async () => {
    const cp = charger();
    await cp.start();
    await cp.startTransaction(1, 'TAG1');
    expect(await t.central.call('CS001', 'Reset', { type: 'OnIdle' })).toEqual({ status: 'Scheduled' });
    expect(cp.hasTransaction(1)).toBe(true);
    await cp.stopTransaction(1);
    await t.central.waitFor(() => t.central.messages('BootNotification').length === 2 && cp.isConnected);
    expect(t.central.messages('BootNotification')[1].params.reason).toBe('RemoteReset');
  });

  it('Reset Immediate ends transactions with ImmediateReset', async () => {
    const cp = charger();
    await cp.start();
    await cp.startTransaction(1, 'TAG1');
    expect(await t.central.call('CS001', 'Reset', { type: 'Immediate' })).toEqual({ status: 'Accepted' });
    await t.central.waitFor(() => t.central.messages('BootNotification').length === 2 && cp.isConnected);
    expect(events().at(-1)).toMatchObject({ eventType: 'Ended', triggerReason: 'ResetCommand', transactionInfo: { stoppedReason: 'ImmediateReset' } });
  });

  it('Reset of one EVSE: its transaction alone ends (Immediate) or waits (OnIdle); the EVSE reports back, no reboot', async () => {
    const cp = charger();
    await cp.start();
    await cp.startTransaction(1, 'TAG1');
    await cp.startTransaction(2, 'TAG2');
    expect(await t.central.call('CS001', 'Reset', { type: 'OnIdle', evseId: 2 })).toEqual({ status: 'Scheduled' });
    expect(await t.central.call('CS001', 'Reset', { type: 'Immediate', evseId: 1 })).toEqual({ status: 'Accepted' });
    await t.central.waitFor((m) => m.method === 'StatusNotification' && m.params.evseId === 1 && m.params.connectorStatus === 'Occupied');
    const ended = events().filter((e) => e.eventType === 'Ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ triggerReason: 'ResetCommand', transactionInfo: { stoppedReason: 'ImmediateReset' } });
    expect([cp.hasTransaction(1), cp.hasTransaction(2)]).toEqual([false, true]);
    expect(await t.central.call('CS001', 'Reset', { type: 'Immediate', evseId: 3 })).toEqual({ status: 'Rejected' });
    expect(t.central.messages('BootNotification')).toHaveLength(1);
  });

  it('ChangeAvailability of an EVSE and of the station; Scheduled while a transaction runs', async () => {
    const cp = charger();
    await cp.start();
    const statuses = () => t.central.messages('StatusNotification').slice(2).map((m) => [m.params.evseId, m.params.connectorStatus]);
    expect(await t.central.call('CS001', 'ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } })).toEqual({ status: 'Accepted' });
    expect(cp.ocppStatus(2)).toBe('Unavailable');
    await expect(cp.startTransaction(2, 'TAG1')).rejects.toThrow(/unavailable/);
    expect(await t.central.call('CS001', 'ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 3 } })).toEqual({ status: 'Rejected' });
    await cp.startTransaction(1, 'TAG1');
    expect(await t.central.call('CS001', 'ChangeAvailability', { operationalStatus: 'Operative' })).toEqual({ status: 'Scheduled' });
    expect(cp.ocppStatus(2)).toBe('Available');
    await cp.stopTransaction(1);
    await cp.unplug(1);
    expect(statuses()).toEqual([[2, 'Unavailable'], [1, 'Occupied'], [2, 'Available'], [1, 'Available']]);
  });

  it('UnlockConnector, TriggerMessage, DataTransfer and unknown messages', async () => {
    const cp = charger({ vendor: 'Acme' });
    await cp.start();
    await cp.startTransaction(1, 'TAG1');
    expect(await t.central.call('CS001', 'UnlockConnector', { evseId: 1, connectorId: 1 })).toEqual({ status: 'OngoingAuthorizedTransaction' });
    expect(await t.central.call('CS001', 'UnlockConnector', { evseId: 2, connectorId: 1 })).toEqual({ status: 'Unlocked' });
    expect(await t.central.call('CS001', 'UnlockConnector', { evseId: 2, connectorId: 2 })).toEqual({ status: 'UnknownConnector' });
    for (const requestedMessage of ['TransactionEvent', 'MeterValues', 'StatusNotification', 'BootNotification']) {
      expect(await t.central.call('CS001', 'TriggerMessage', { requestedMessage, evse: { id: 1 } })).toEqual({ status: 'Accepted' });
    }
    await t.central.waitFor(() => t.central.messages('BootNotification').length === 2);
    expect(events().at(-1)).toMatchObject({ eventType: 'Updated', triggerReason: 'Trigger', evse: { id: 1 } });
    expect(t.central.messages('MeterValues')[0].params.meterValue[0].sampledValue[0].context).toBe('Trigger');
    expect(t.central.messages('BootNotification')[1].params.reason).toBe('Triggered');
    expect(await t.central.call('CS001', 'TriggerMessage', { requestedMessage: 'PublishFirmwareStatusNotification' })).toEqual({ status: 'NotImplemented' });
    expect(await t.central.call('CS001', 'DataTransfer', { vendorId: 'Acme', data: 'x' })).toEqual({ status: 'Accepted', data: 'x' });
    expect(await t.central.call('CS001', 'DataTransfer', { vendorId: 'Other' })).toEqual({ status: 'UnknownVendorId' });
    await expect(t.central.call('CS001', 'CustomerInformation', { requestId: 1, report: true, clear: false })).rejects.toThrow(/not implemented/);
  });
});

it('UpdateFirmware: reports each step with its requestId and boots with reason FirmwareUpdate and the new version', async () => {
  const cp = charger({ firmwareVersion: '1.0.0' });
  cp.firmware.options = { stepMs: 10 };
  await cp.start();
  const firmware = { location: 'https://fw.example.com/evsim-2.1.0.bin', retrieveDateTime: new Date().toISOString() };
  expect(await t.central.call('CS001', 'UpdateFirmware', { requestId: 42, firmware })).toEqual({ status: 'Accepted' });
  await t.central.waitFor((m) => m.method === 'FirmwareStatusNotification' && m.params.status === 'Installed');
  expect(t.central.messages('FirmwareStatusNotification').map((m) => [m.params.status, m.params.requestId])).toEqual([
    ['Downloading', 42], ['Downloaded', 42], ['Installing', 42], ['Installed', 42],
  ]);
  expect(t.central.messages('BootNotification')[1].params).toMatchObject({ reason: 'FirmwareUpdate', chargingStation: { firmwareVersion: '2.1.0' } });
});
