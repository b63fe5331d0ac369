import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { requestTypeId, storedText } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';
import { schemaProblem } from './protocol.ts';
import { CHARGER_ACTIONS_201, TESTER_MESSAGES_201 } from './tester-201.ts';

/** The message tester and charger simulator for an OCPP 2.0.1 station: its own messages, handled as its own frames. */
describe('OCPP message tester with a 2.0.1 station', () => {
  let s: TestServer;
  let admin: string;
  let station: RPCClient;
  let onlineId: number;
  let offlineId: number;
  let id16: number;

  beforeAll(async () => {
    s = await startTestServer({ logLevel: 'error' });
    admin = await s.login();
    const locId = await addSite(s.db);
    onlineId = await addCharger(s.db, 'CS-T201', { locId });
    offlineId = await addCharger(s.db, 'CS-T201-OFF', { locId });
    id16 = await addCharger(s.db, 'CP-T16', { locId });
    // Not connected now: the version it last connected with counts.
    await s.db.query(`UPDATE cps SET ocpp_protocol = 'ocpp2.0.1' WHERE cp_id = $1`, [offlineId]);
    await addCard(s.db, ['TESTTAG']);
    station = await connectCharger(s.wsUrl, 'CS-T201', { protocol: 'ocpp2.0.1' });
  });
  afterAll(async () => {
    await station.close();
    await s.close();
  });

  const send = (body: unknown, set = 'test/cp_request') => s.api('POST', `/api/${set}`, { token: admin, body });
  const templatesOf = async (cpId?: number, set = 'test/cp_request') => {
    const res = await s.api('GET', `/api/${set}/templates${cpId ? `?cpId=${cpId}` : ''}`, { token: admin });
    expect(res.status).toBe(200);
    return res.body as { protocol: string; messages: { name: string; action: string; direction: string; template: any }[] };
  };
  const template = async (name: string, cpId = onlineId, set = 'test/cp_request') =>
    (await templatesOf(cpId, set)).messages.find((m) => m.name === name)!;
  const countRequests = async () => (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`))[0].n;

  it('offers the 2.0.1 messages for a 2.0.1 charger, schema-valid in that version; a 1.6 charger keeps the 1.6 list', async () => {
    const list = await templatesOf(onlineId);
    expect(list.protocol).toBe('ocpp2.0.1');
    expect(list.messages.map((m) => m.name)).toEqual(TESTER_MESSAGES_201.map((m) => m.name));
    expect(list.messages.map((m) => m.action)).toEqual(expect.arrayContaining(['TransactionEvent', 'NotifyEvent', 'SecurityEventNotification']));
    for (const m of list.messages) {
      // Commands are the portal's, sent as the 2.0.1 message of the same meaning.
      expect(schemaProblem(m.action, 'req', m.template, m.direction === 'in' ? 'ocpp2.0.1' : 'ocpp1.6'), m.name).toBeNull();
    }
    expect((await templatesOf(offlineId)).protocol).toBe('ocpp2.0.1');
    for (const cpId of [id16, undefined]) {
      const old = await templatesOf(cpId);
      expect(old.protocol).toBe('ocpp1.6');
      expect(old.messages.map((m) => m.action)).toContain('StartTransaction');
      expect(old.messages.map((m) => m.action)).not.toContain('TransactionEvent');
    }
    expect((await s.api('GET', '/api/test/cp_request/templates?cpId=999999', { token: admin })).status).toBe(404);
    expect((await s.api('GET', '/api/test/cp_request/templates?cpId=x', { token: admin })).status).toBe(400);

    const sim = await templatesOf(onlineId, 'lms/cp_simulator');
    expect([...new Set(sim.messages.map((m) => m.action))].sort()).toEqual([...CHARGER_ACTIONS_201].sort());
    for (const m of sim.messages) expect(schemaProblem(m.action, 'req', m.template, 'ocpp2.0.1'), m.name).toBeNull();
  });

  it('injects TransactionEvent Started then Ended as the station: the session starts and ends, logged as 2.0.1', async () => {
    const started = (await template('TransactionEvent: Started')).template;
    const transactionId = started.transactionInfo.transactionId;
    const res = await send({ cpId: onlineId, action: 'TransactionEvent', payload: started });
    expect(res.body).toMatchObject({ status: 'success', data: { response: { idTokenInfo: { status: 'Accepted' } } } });
    expect(res.body.data.request).toMatchObject({ request_type: requestTypeId('TransactionEvent', 'in', 'ocpp2.0.1'), cp_no: 'CS-T201' });
    const [session] = await s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [onlineId, transactionId]);
    expect(session).toMatchObject({ connector_id: 1, id_tag: 'TESTTAG', session_end_time: null });
    const [connector] = await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = 1`, [onlineId]);
    expect(connector.status).toBe('Charging');

    const ended = (await template('TransactionEvent: Ended')).template;
    ended.transactionInfo.transactionId = transactionId;
    ended.timestamp = ended.meterValue[0].timestamp = new Date(Date.parse(started.timestamp) + 600_000).toISOString();
    const stop = await send({ cpId: onlineId, action: 'TransactionEvent', payload: ended });
    expect(stop.body.status).toBe('success');
    const [done] = await s.db.query(`SELECT * FROM cp_sessions WHERE session_id = $1`, [session.session_id]);
    expect(done.session_end_time).not.toBeNull();
    expect(done).toMatchObject({ stop_reason: 'Local', total_pw_consume: 1000 });
    const [row] = await s.db.query(`SELECT request_type, request_data FROM cp_requests WHERE req_id = $1`, [stop.body.data.request_id]);
    expect(row).toEqual({ request_type: requestTypeId('TransactionEvent', 'in', 'ocpp2.0.1'), request_data: ended });
  });

  it('injects for a 2.0.1 station that is not connected, through the 2.0.1 handling', async () => {
    const payload = { timestamp: new Date().toISOString(), connectorStatus: 'Faulted', evseId: 2, connectorId: 1 };
    const res = await send({ cpId: offlineId, action: 'StatusNotification', payload });
    expect(res.body).toMatchObject({ status: 'success', data: { response: {} } });
    expect((await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = 2`, [offlineId]))[0].status).toBe('Faulted');
    expect(res.body.data.request).toMatchObject({ request_type: requestTypeId('StatusNotification', 'in', 'ocpp2.0.1'), connector_id: 2 });
    const boot = await send({ cpId: offlineId, action: 'BootNotification', payload: (await template('BootNotification', offlineId)).template });
    expect(boot.body.data.response).toMatchObject({ status: 'Accepted', interval: expect.any(Number) });
  });

  it('refuses a message of the other version with a clear error, and a payload breaking the 2.0.1 schema; nothing stored', async () => {
    const before = await countRequests();
    const te = (await template('TransactionEvent: Started')).template;
    const to16 = await send({ cpId: id16, action: 'TransactionEvent', payload: te });
    expect(to16.status).toBe(400);
    expect(to16.body.errors).toEqual([storedText('msg.log.schema.otherVersion', { action: 'TransactionEvent', version: '1.6' })]);
    // A 1.6 payload of an action both versions have is checked against the charger's schema.
    const boot16 = await send({ cpId: id16, action: 'BootNotification', payload: { reason: 'PowerUp', chargingStation: { vendorName: 'X', model: 'Y' } } });
    expect(boot16.status).toBe(400);
    const start = await send({ cpId: onlineId, action: 'StartTransaction', payload: { connectorId: 1, idTag: 'TESTTAG', meterStart: 0, timestamp: new Date().toISOString() } });
    expect(start.body.errors).toEqual([storedText('msg.log.schema.otherVersion', { action: 'StartTransaction', version: '2.0.1' })]);
    const bad = await send({ cpId: onlineId, action: 'StatusNotification', payload: { connectorId: 1, errorCode: 'NoError', status: 'Available' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([storedText('msg.log.schema.required', { path: 'payload', name: 'timestamp' })]);
    expect(await countRequests()).toBe(before);
  });

  it('the simulator injects a charging state with per-phase readings for load management', async () => {
    // On EVSE 2: the transaction of EVSE 1 above ended in the future (its status then wins over older reports).
    const onEvse2 = (p: any) => ({ ...p, evse: { id: 2, connectorId: 1 }, transactionInfo: { ...p.transactionInfo, transactionId: 'SIM-201' } });
    const started = onEvse2((await template('TransactionEvent: Started', onlineId, 'lms/cp_simulator')).template);
    expect((await send({ cpId: onlineId, action: 'TransactionEvent', payload: started }, 'lms/cp_simulator')).body.status).toBe('success');
    const status = async () => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = 2`, [onlineId]))[0].status;
    expect(await status()).toBe('Charging');
    const held = onEvse2((await template('TransactionEvent: SuspendedEVSE', onlineId, 'lms/cp_simulator')).template);
    const res = await send({ cpId: onlineId, action: 'TransactionEvent', payload: held }, 'lms/cp_simulator');
    expect(res.body.status).toBe('success');
    expect(await status()).toBe('SuspendedEVSE');
    const [row] = await s.db.query(`SELECT ampere, energy FROM cp_requests WHERE req_id = $1`, [res.body.data.request_id]);
    expect(Number(row.energy)).toBe(2500);
  });
});
