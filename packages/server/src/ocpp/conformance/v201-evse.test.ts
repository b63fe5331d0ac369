import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES, requestTypeId } from '@ev/core';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, callRecorder, connectCharger, eventually } from '../../testing/ocpp-support.ts';
import { InvalidCommandError } from '../commands.ts';
import { tool201, type Tool201 } from './v201-tool.ts';

/**
 * OCTT 2.0.1 (CSMS) cases of the targets only 2.0.1 has (issue 31, blocks B, F and G): a reset of one EVSE, the
 * availability of one connector within an EVSE, and the station's StatusNotification asked per EVSE. The tool
 * plays the station over a strict ocpp-rpc 2.0.1 client (every frame of the server checked against the 2.0.1
 * schemas); a 1.6 charger beside it shows the same parameters refused (400, nothing sent).
 *
 * Covered: TC_B_25_CSMS Reset EVSE without a transaction (B11) · TC_B_26_CSMS Reset EVSE with a transaction,
 *   OnIdle: Scheduled, then the transaction ends (B12.FR.07) · TC_B_27_CSMS Reset EVSE with a transaction,
 *   Immediate (B12) · G03 ChangeAvailability of a connector within an EVSE (evse.connectorId) · F06.FR.13
 *   TriggerMessage StatusNotification of the whole station: one per EVSE, each naming it.
 * Not covered: TC_B_21/TC_B_22 (the whole station with a transaction: v201-b-c.test.ts lists the station's resets).
 */
describe('OCTT 2.0.1 EVSE and connector targets (B11/B12, G03, F06)', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let cp16: number;
  let station: RPCClient;
  let old16: RPCClient;
  let t: Tool201;
  let resetAnswer = 'Accepted';
  let triggerAnswer = (_evseId?: number) => 'Accepted';
  const { received, last, record } = callRecorder();
  const sent16: { action: string; params: any }[] = [];

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'OCTT201-EVSE', { locId });
    cp16 = await addCharger(s.db, 'OCTT16-EVSE', { locId });
    await addCard(s.db, ['OCTT-TAG']);
    station = await connectCharger(s.wsUrl, 'OCTT201-EVSE', {
      protocol: 'ocpp2.0.1',
      handlers: {
        Reset: record('Reset', () => ({ status: resetAnswer })),
        ChangeAvailability: record('ChangeAvailability', () => ({ status: 'Accepted' })),
        TriggerMessage: record('TriggerMessage', (p) => ({ status: triggerAnswer(p.evse?.id) })),
        RequestStopTransaction: record('RequestStopTransaction', () => ({ status: 'Accepted' })),
      },
    });
    t = tool201(station);
    await t.boot();
    for (const evseId of [1, 2]) await t.status(evseId, 'Available');
    const keep = (action: string, answer: object) => (params: any) => (sent16.push({ action, params }), answer);
    old16 = await connectCharger(s.wsUrl, 'OCTT16-EVSE', {
      handlers: { Reset: keep('Reset', { status: 'Accepted' }), ChangeAvailability: keep('ChangeAvailability', { status: 'Accepted' }), TriggerMessage: keep('TriggerMessage', { status: 'Accepted' }) },
    });
    await old16.call('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'AC22' });
    for (const connectorId of [1, 2]) await old16.call('StatusNotification', { connectorId, errorCode: 'NoError', status: 'Available' });
  });
  afterAll(async () => {
    await station.close({ force: true });
    await old16.close({ force: true });
    await s.close();
  });

  const api = (path: string) => s.api('GET', path, { token: admin });
  const reset = (id: number, type: 'Hard' | 'Soft', evseId?: number | string) => api(`/api/cps/rsrResetCharger/${id}?type=${type}${evseId !== undefined ? `&evseId=${evseId}` : ''}`);
  const session = (txId: string) => s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [cpId, txId]).then((r) => r[0]);

  it('TC_B_25_CSMS Reset EVSE - without ongoing transaction: Reset {type, evseId}, logged on the connector', async () => {
    expect((await reset(cpId, 'Hard', 2)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('Reset')).toEqual({ type: 'Immediate', evseId: 2 });
    expect((await reset(cpId, 'Soft', '1')).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('Reset')).toEqual({ type: 'OnIdle', evseId: 1 });
    // The whole station still goes without one.
    await reset(cpId, 'Soft');
    expect(last('Reset')).toEqual({ type: 'OnIdle' });
    const rows = await s.db.query(`SELECT connector_id, request_data FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id`, [cpId, requestTypeId('Reset', 'out', 'ocpp2.0.1')]);
    expect(rows.map((r) => [r.connector_id, r.request_data])).toEqual([[2, { type: 'Immediate', evseId: 2 }], [1, { type: 'OnIdle', evseId: 1 }], [null, { type: 'OnIdle' }]]);
    // The EVSE restarts and reports back as any status.
    await t.status(2, 'Unavailable');
    await t.status(2, 'Available');
  });

  it('TC_B_26_CSMS Reset EVSE - with ongoing transaction - OnIdle: Scheduled is a success, the transaction ends first', async () => {
    await t.status(1, 'Occupied');
    await t.started(1, 'tx-B26');
    resetAnswer = 'Scheduled';
    try {
      expect((await reset(cpId, 'Soft', 1)).body).toEqual({ status: 'success', data: { status: 'Scheduled' } });
    } finally {
      resetAnswer = 'Accepted';
    }
    expect(last('Reset')).toEqual({ type: 'OnIdle', evseId: 1 });
    await t.ended(1, 'tx-B26', 'EVDisconnected');
    expect(await session('tx-B26')).toMatchObject({ stop_reason: 'EVDisconnected', session_end_time: expect.any(Date) });
    await t.status(1, 'Available');
  });

  it('TC_B_27_CSMS Reset EVSE - with ongoing transaction - Immediate: the transaction ends as a hard reset', async () => {
    await t.status(2, 'Occupied');
    await t.started(2, 'tx-B27');
    expect((await reset(cpId, 'Hard', 2)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('Reset')).toEqual({ type: 'Immediate', evseId: 2 });
    await t.ended(2, 'tx-B27', 'ImmediateReset');
    expect(await session('tx-B27')).toMatchObject({ stop_reason: 'HardReset', session_end_time: expect.any(Date) });
    await t.status(2, 'Available');
  });

  it('shows a Rejected reset as the refusal; refuses an EVSE the station never reported and a bad one, sending nothing', async () => {
    resetAnswer = 'Rejected';
    try {
      expect((await reset(cpId, 'Hard', 1)).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_REJECTED, data: { status: 'Rejected' } });
    } finally {
      resetAnswer = 'Accepted';
    }
    const before = received.length;
    expect((await reset(cpId, 'Hard', 9)).body).toEqual({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_ERROR });
    for (const bad of ['0', 'x', '-1']) expect((await reset(cpId, 'Hard', bad)).status).toBe(400);
    expect(received.length).toBe(before);
  });

  it('G03 ChangeAvailability of one connector within an EVSE: evse {id, connectorId}', async () => {
    const change = (connectorId: number, type: string, evseConnectorId?: number) =>
      api(`/api/cps/change_availability/${cpId}/${connectorId}?availabilityType=${type}${evseConnectorId !== undefined ? `&evseConnectorId=${evseConnectorId}` : ''}`);
    expect((await change(2, 'Unavailable', 1)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Inoperative', evse: { id: 2, connectorId: 1 } });
    await change(2, 'Available', 3);
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Operative', evse: { id: 2, connectorId: 3 } });
    // Without one: the EVSE as before.
    await change(1, 'Available');
    expect(last('ChangeAvailability')).toEqual({ operationalStatus: 'Operative', evse: { id: 1 } });
    // A connector needs its EVSE (not the station, 0), and is 1 or more.
    const before = received.length;
    const station0 = await change(0, 'Unavailable', 1);
    expect(station0.status).toBe(400);
    expect(station0.body.fields).toEqual({ evseConnectorId: 'needs_evse' });
    expect((await change(1, 'Unavailable', 0)).status).toBe(400);
    expect(received.length).toBe(before);
  });

  it('F06.FR.13 TriggerMessage StatusNotification of the whole station: one per EVSE, each naming its connector', async () => {
    const trigger = (connectorId?: number) => api(`/api/cps/triggerMessage/${cpId}?requestedMessage=StatusNotification${connectorId !== undefined ? `&connectorId=${connectorId}` : ''}`);
    for (const whole of [undefined, 0]) {
      const before = received.length;
      expect((await trigger(whole)).body).toEqual({
        status: 'success', data: { status: 'Accepted', evses: [{ evseId: 1, status: 'Accepted' }, { evseId: 2, status: 'Accepted' }] },
      });
      expect(received.slice(before)).toEqual([
        { action: 'TriggerMessage', params: { requestedMessage: 'StatusNotification', evse: { id: 1, connectorId: 1 } } },
        { action: 'TriggerMessage', params: { requestedMessage: 'StatusNotification', evse: { id: 2, connectorId: 1 } } },
      ]);
    }
    // One EVSE refusing: the others are still asked; the answer is the refusal, with each EVSE's word.
    triggerAnswer = (evseId) => (evseId === 1 ? 'Rejected' : 'Accepted');
    try {
      expect((await trigger()).body).toMatchObject({
        status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: expect.stringMatching(/^EVSE 1: /),
        data: { status: 'Rejected', evses: [{ evseId: 1, status: 'Rejected', errorCode: ERROR_CODES.CP_REJECTED }, { evseId: 2, status: 'Accepted' }] },
      });
    } finally {
      triggerAnswer = () => 'Accepted';
    }
    // Other messages of the whole station go once, without an EVSE.
    await api(`/api/cps/triggerMessage/${cpId}?requestedMessage=Heartbeat`);
    expect(last('TriggerMessage')).toEqual({ requestedMessage: 'Heartbeat' });
  });

  it('a station that reported no EVSE yet is asked without one (its only chance to say which it has)', async () => {
    const newId = await addCharger(s.db, 'OCTT201-NEW');
    const fresh = callRecorder();
    const c = await connectCharger(s.wsUrl, 'OCTT201-NEW', { protocol: 'ocpp2.0.1', handlers: { TriggerMessage: fresh.record('TriggerMessage', () => ({ status: 'Accepted' })) } });
    try {
      expect((await api(`/api/cps/triggerMessage/${newId}?requestedMessage=StatusNotification`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
      expect(fresh.received).toEqual([{ action: 'TriggerMessage', params: { requestedMessage: 'StatusNotification' } }]);
    } finally {
      await c.close({ force: true });
    }
  });

  it('refuses the 2.0.1-only targets for an OCPP 1.6 charger with a 400, sending nothing; its own commands unchanged', async () => {
    const evse = await reset(cp16, 'Hard', 1);
    expect(evse.status).toBe(400);
    expect(evse.body).toMatchObject({ errors: [expect.stringContaining('OCPP 2.0.1')], fields: { evseId: 'not_ocpp201' } });
    const connector = await api(`/api/cps/change_availability/${cp16}/1?availabilityType=Unavailable&evseConnectorId=1`);
    expect(connector.status).toBe(400);
    expect(connector.body.fields).toEqual({ evseConnectorId: 'not_ocpp201' });
    expect(sent16).toEqual([]);
    // The dispatcher refuses them too, whoever calls it.
    await expect(s.app.ocpp.commands.send(cp16, 'Reset', { type: 'Hard', connectorId: 1 })).rejects.toThrow(InvalidCommandError);
    expect(sent16).toEqual([]);
    // 1.6 as before: Reset {type}; the whole charger's StatusNotification in one message.
    expect((await reset(cp16, 'Hard')).body.status).toBe('success');
    await api(`/api/cps/triggerMessage/${cp16}?requestedMessage=StatusNotification`);
    expect(await eventually(async () => sent16.length === 2)).toBe(true);
    expect(sent16).toEqual([{ action: 'Reset', params: { type: 'Hard' } }, { action: 'TriggerMessage', params: { requestedMessage: 'StatusNotification' } }]);
  });
});
