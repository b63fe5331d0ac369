/**
 * OCTT 2.0.1 (CSMS) blocks E (transactions) and J (meter values); B and C are in v201-b-c.test.ts. The tool plays
 * the station with a strict ocpp-rpc 2.0.1 client (every answer of the server is checked against the schemas).
 *
 * Covered (E): TC_E_02_CSMS start in energy transfer, TC_E_03_CSMS cable plug-in first (the idToken of a later
 * Updated names the session's card and account), TC_E_07/TC_E_15_CSMS local stop, TC_E_14/TC_E_20_CSMS
 * EVDisconnected, TC_E_16_CSMS Invalid idToken then DeAuthorized (also when the refused idToken comes after the
 * start), TC_E_21_CSMS remote stop (RequestStopTransaction), TC_E_29/TC_E_31_CSMS offline events replayed after a
 * reconnect and after a reboot (their own timestamps), TC_E_53_CSMS seqNo from 0 per transaction; E01 an event sent
 * again (no second session, no reading twice), E01 a transactionId used again after its transaction ended, E01
 * NoAuthorization, E03 a transaction on an Available connector, E01/E06 a transaction first heard of by an
 * Updated or by its Ended, E06 stoppedReason → the portal's stop reasons, E01/E02 idTokenInfo only when the event
 * had an idToken; F02 a remote start on a transaction already started at plug-in.
 * Covered (C): TC_C_08_CSMS / TC_C_20_CSMS idToken first seen in a TransactionEvent (no Authorize): Accepted / Invalid.
 * Covered (J): TC_J_01_CSMS MeterValues with no transaction (evseId 0 and 1), TC_J_07_CSMS Started with
 * Transaction.Begin (EVSE known), TC_J_08_CSMS Started without EVSE then Updated with it, TC_J_09/TC_J_10_CSMS
 * Updated and Ended readings (unitOfMeasure kWh, multiplier) as Wh with the session's energy, TC_J_11_CSMS signed
 * readings (the number is stored; the signature stays in the request log).
 * Not covered: TC_E_01/TC_E_04/TC_E_09-12/TC_E_38 (they differ from the covered ones only in the station's trigger,
 * which the central system treats alike); TC_E_17/TC_E_39 (the central system never deauthorizes a running
 * transaction); TC_E_26 suspend/resume (chargingState only, as in E_02); TC_E_30/TC_E_33/TC_E_34
 * GetTransactionStatus (the portal does not send it); TC_J_02/TC_J_03 clock-aligned readings inside a transaction
 * (handled as J_09/J_10); TC_J_04 (clock-aligned signed: as J_11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger, eventually } from '../../testing/ocpp-support.ts';

type Sample = { value: number; context?: string; measurand?: string; unitOfMeasure?: { unit?: string; multiplier?: number }; signedMeterValue?: object };
const SIGNED = { signedMeterData: 'T0NNRnx7fQ==', signingMethod: 'ECDSA-secp256r1-SHA256', encodingMethod: 'OCMF', publicKey: 'MFkwEwYH' };
const at = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 8, minutes)).toISOString();
const meter = (timestamp: string, ...sampledValue: Sample[]) => ({ timestamp, sampledValue });
const wh = (value: number, context = 'Sample.Periodic'): Sample => ({ value, context, measurand: 'Energy.Active.Import.Register' });

describe('OCTT 2.0.1 CSMS: E transactions, J meter values', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let accountId: number;
  let station: RPCClient;
  const seqNo = new Map<string, number>();
  const handlers = {
    RequestStopTransaction: () => ({ status: 'Accepted' }),
    RequestStartTransaction: () => ({ status: 'Accepted' }),
  };

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'OCTT-201-E', { locId });
    await addCard(s.db, ['100000C01']);
    [{ acc_id: accountId }] = await s.db.query(`INSERT INTO accounts (first_name, rfid_cards, acc_status) VALUES ('member', '100000C03', 1) RETURNING acc_id`);
    station = await connect();
  });
  afterAll(async () => {
    await station.close({ force: true });
    await s.close();
  });

  /** Connects the station; a reconnect after a lost connection sends no BootNotification (2.0.1 B01: only after a boot). */
  async function connect(boot = true): Promise<RPCClient> {
    const client = await connectCharger(s.wsUrl, 'OCTT-201-E', { protocol: 'ocpp2.0.1', handlers });
    if (boot) await client.call('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'OCTT', vendorName: 'OCTT' } });
    return client;
  }

  /** A TransactionEvent of transaction `id`; seqNo counts from 0 per transaction (TC_E_53). */
  function event(eventType: 'Started' | 'Updated' | 'Ended', id: string, timestamp: string, more: Record<string, any> = {}) {
    const n = seqNo.get(id) ?? 0;
    seqNo.set(id, n + 1);
    const { transactionInfo, ...rest } = more;
    return station.call('TransactionEvent', {
      eventType, timestamp, seqNo: n,
      triggerReason: eventType === 'Started' ? 'Authorized' : eventType === 'Ended' ? 'StopAuthorized' : 'MeterValuePeriodic',
      transactionInfo: { transactionId: id, ...transactionInfo }, ...rest,
    }) as Promise<any>;
  }
  const token = (idToken: string, type = 'ISO14443') => ({ idToken: { idToken, type } });
  const session = async (id: string) => (await s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = $2`, [cpId, id]))[0];
  const connectorStatus = async (evse: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, evse]))[0]?.status;
  const meters = (sessionId: number) => s.db.query(`SELECT ts, energy FROM cp_meter_values WHERE session_id = $1 ORDER BY ts`, [sessionId]);

  it('TC_E_02_CSMS / TC_C_08_CSMS / TC_J_09 / TC_J_10 / TC_E_15: started in energy transfer, metered (kWh, multiplier), stopped locally', async () => {
    const started = await event('Started', 'TX-E02', at(0), {
      ...token('100000C01'), evse: { id: 1, connectorId: 1 }, transactionInfo: { chargingState: 'Charging' },
      meterValue: [meter(at(0), wh(1000, 'Transaction.Begin'))],
    });
    expect(started).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const sess = await session('TX-E02');
    expect(sess).toMatchObject({ connector_id: 1, id_tag: '100000C01', id_tag_status: 'Accepted', start_meter: 1000, session_end_time: null });
    expect(new Date(sess.session_start_time).toISOString()).toBe(at(0));
    expect(await connectorStatus(1)).toBe('Charging');

    // Without an idToken the answer has no idTokenInfo (E01/E02).
    expect(await event('Updated', 'TX-E02', at(10), { meterValue: [meter(at(10), { ...wh(2.5), unitOfMeasure: { unit: 'kWh' } })] })).toEqual({});
    expect((await session('TX-E02'))).toMatchObject({ energy: 2500, running_pw_consume: 1500 });
    expect(await event('Updated', 'TX-E02', at(20), { meterValue: [meter(at(20), { ...wh(3.2), unitOfMeasure: { unit: 'Wh', multiplier: 3 } })] })).toEqual({});
    expect((await session('TX-E02'))).toMatchObject({ energy: 3200, running_pw_consume: 2200 });
    await event('Updated', 'TX-E02', at(25), { transactionInfo: { chargingState: 'SuspendedEV' }, triggerReason: 'ChargingStateChanged' });
    expect(await connectorStatus(1)).toBe('SuspendedEV');

    const ended = await event('Ended', 'TX-E02', at(30), {
      ...token('100000C01'), transactionInfo: { stoppedReason: 'Local', chargingState: 'EVConnected' },
      meterValue: [meter(at(30), { ...wh(4, 'Transaction.End'), unitOfMeasure: { unit: 'kWh' } })],
    });
    expect(ended).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const done = await session('TX-E02');
    expect(done).toMatchObject({ end_meter: 4000, total_pw_consume: 3000, total_charge_time: 1800, stop_reason: 'Local' });
    expect(new Date(done.session_end_time).toISOString()).toBe(at(30));
    expect((await meters(done.session_id)).map((m: any) => Number(m.energy))).toEqual([1000, 2500, 3200, 4000]);
    expect(await connectorStatus(1)).toBe('Finishing');
  });

  it('E01 an event sent again (same transactionId, same event) makes no second session and changes nothing', async () => {
    const first = { ...token('100000C01'), evse: { id: 2 }, transactionInfo: { chargingState: 'Charging' }, meterValue: [meter(at(40), wh(500, 'Transaction.Begin'))] };
    await event('Started', 'TX-AGAIN', at(40), first);
    seqNo.set('TX-AGAIN', 0);
    expect(await event('Started', 'TX-AGAIN', at(40), first)).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const endEvent = { transactionInfo: { stoppedReason: 'Remote' }, meterValue: [meter(at(50), wh(900, 'Transaction.End'))] };
    await event('Ended', 'TX-AGAIN', at(50), endEvent);
    seqNo.set('TX-AGAIN', 1);
    expect(await event('Ended', 'TX-AGAIN', at(50), endEvent)).toEqual({});
    const rows = await s.db.query(`SELECT * FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = 'TX-AGAIN'`, [cpId]);
    expect(rows).toHaveLength(1);
    // Each reading once: the events sent again added none.
    expect((await meters(rows[0].session_id)).map((m: any) => Number(m.energy))).toEqual([500, 900]);
    // Another Ended after the end (a station's bug) leaves the session as it closed.
    await event('Ended', 'TX-AGAIN', at(55), { ...endEvent, meterValue: [meter(at(55), wh(990, 'Transaction.End'))] });
    const [after] = await s.db.query(`SELECT * FROM cp_sessions WHERE session_id = $1`, [rows[0].session_id]);
    expect(after).toMatchObject({ total_pw_consume: 400, stop_reason: 'Remote' });
    expect(new Date(after.session_end_time).toISOString()).toBe(at(50));
  });

  it('TC_E_03_CSMS / TC_E_14_CSMS cable plugged in first: the idToken of a later Updated names the session\'s card and account', async () => {
    const plugged = await event('Started', 'TX-E03', at(60), {
      triggerReason: 'CablePluggedIn', evse: { id: 1 }, transactionInfo: { chargingState: 'EVConnected' }, meterValue: [meter(at(60), wh(5000, 'Transaction.Begin'))],
    });
    expect(plugged).toEqual({});
    expect(await session('TX-E03')).toMatchObject({ id_tag: '', account_id: null, session_end_time: null });
    expect(await connectorStatus(1)).toBe('Preparing');
    const authorized = await event('Updated', 'TX-E03', at(61), { ...token('100000C03'), triggerReason: 'Authorized', transactionInfo: { chargingState: 'Charging' } });
    expect(authorized).toEqual({ idTokenInfo: { status: 'Accepted' } });
    expect(await session('TX-E03')).toMatchObject({ id_tag: '100000C03', id_tag_status: 'Accepted', account_id: accountId });
    await event('Ended', 'TX-E03', at(70), { triggerReason: 'EVCommunicationLost', transactionInfo: { stoppedReason: 'EVDisconnected' }, meterValue: [meter(at(70), wh(5600, 'Transaction.End'))] });
    expect(await session('TX-E03')).toMatchObject({ stop_reason: 'EVDisconnected', total_pw_consume: 600 });
  });

  it('E01 a transactionId used again after its transaction ended (a station numbering again after a reset) is a new session', async () => {
    await event('Started', 'TX-1', at(33), { ...token('100000C01'), evse: { id: 2 } });
    await event('Ended', 'TX-1', at(34), { transactionInfo: { stoppedReason: 'Local' } });
    seqNo.set('TX-1', 0);
    await event('Started', 'TX-1', at(35), { ...token('100000C01'), evse: { id: 2 }, meterValue: [meter(at(35), wh(50, 'Transaction.Begin'))] });
    const [now] = await s.db.query(`SELECT session_id, session_end_time, start_meter FROM cp_sessions WHERE cp_id = $1 AND ocpp_transaction_id = 'TX-1'`, [cpId]);
    expect(now).toMatchObject({ session_end_time: null, start_meter: 50 });
    const [old] = await s.db.query(`SELECT ocpp_transaction_id FROM cp_sessions WHERE cp_id = $1 AND session_id < $2 AND ocpp_transaction_id LIKE 'TX-1 #%'`, [cpId, now.session_id]);
    expect(old).toBeTruthy();
    await event('Ended', 'TX-1', at(36), { transactionInfo: { stoppedReason: 'Local' } });
  });

  it('E03 authorized before the cable: the transaction runs on an Available connector and is not taken for lost', async () => {
    await event('Started', 'TX-E03-AUTH', at(37), { ...token('100000C01'), evse: { id: 2 } });
    await station.call('StatusNotification', { timestamp: at(38), connectorStatus: 'Available', evseId: 2, connectorId: 1 });
    expect(await session('TX-E03-AUTH')).toMatchObject({ session_end_time: null, unconfirmed_since: null });
    await event('Ended', 'TX-E03-AUTH', at(39), { triggerReason: 'EVConnectTimeout', transactionInfo: { stoppedReason: 'Timeout' } });
    expect(await session('TX-E03-AUTH')).toMatchObject({ stop_reason: 'Other' });
  });

  it('E01 NoAuthorization (an empty idToken) identifies no one: Accepted, the session names no card or account', async () => {
    await s.db.query(`INSERT INTO accounts (first_name, rfid_cards, acc_status) VALUES ('no cards', '', 1)`);
    const free = await event('Started', 'TX-FREE', at(75), { idToken: { idToken: '', type: 'NoAuthorization' }, evse: { id: 2 }, transactionInfo: { chargingState: 'Charging' } });
    expect(free).toEqual({ idTokenInfo: { status: 'Accepted' } });
    expect(await session('TX-FREE')).toMatchObject({ id_tag: '', id_tag_status: 'Accepted', account_id: null, session_end_time: null });
    await event('Ended', 'TX-FREE', at(76), { transactionInfo: { stoppedReason: 'Local' } });
  });

  it('TC_E_16_CSMS / TC_C_20_CSMS Deauthorized - Invalid idToken: answered Invalid, stopped DeAuthorized', async () => {
    const started = await event('Started', 'TX-E16', at(80), { ...token('100000C02', 'KeyCode'), evse: { id: 2 }, transactionInfo: { chargingState: 'Charging' } });
    expect(started).toEqual({ idTokenInfo: { status: 'Invalid' } });
    expect(await session('TX-E16')).toMatchObject({ id_tag_status: 'Invalid' });
    await event('Ended', 'TX-E16', at(81), { triggerReason: 'Deauthorized', transactionInfo: { stoppedReason: 'DeAuthorized' } });
    expect(await session('TX-E16')).toMatchObject({ stop_reason: 'DeAuthorized' });
  });

  it('E02 a token learnt later and refused: the stop still records its reason', async () => {
    await event('Started', 'TX-LATE-BAD', at(90), { triggerReason: 'CablePluggedIn', evse: { id: 2 }, transactionInfo: { chargingState: 'EVConnected' } });
    expect(await event('Updated', 'TX-LATE-BAD', at(91), { ...token('NOT-A-CARD') })).toEqual({ idTokenInfo: { status: 'Invalid' } });
    await event('Ended', 'TX-LATE-BAD', at(92), { triggerReason: 'Deauthorized', transactionInfo: { stoppedReason: 'DeAuthorized' } });
    expect(await session('TX-LATE-BAD')).toMatchObject({ id_tag: 'NOT-A-CARD', id_tag_status: 'Invalid', stop_reason: 'DeAuthorized' });
  });

  it('E01 a transaction first heard of by an Updated, or by its Ended, is recorded from that event', async () => {
    await event('Updated', 'TX-NO-START', at(100), { ...token('100000C01'), evse: { id: 1 }, transactionInfo: { chargingState: 'Charging' }, meterValue: [meter(at(100), wh(7000))] });
    expect(await session('TX-NO-START')).toMatchObject({ connector_id: 1, id_tag: '100000C01', start_meter: 7000, session_end_time: null });
    await event('Ended', 'TX-NO-START', at(110), { transactionInfo: { stoppedReason: 'Local' }, meterValue: [meter(at(110), wh(7300, 'Transaction.End'))] });
    expect(await session('TX-NO-START')).toMatchObject({ total_pw_consume: 300 });

    // Only its Ended: begins at its Transaction.Begin reading, ends at the last.
    await event('Ended', 'TX-ONLY-END', at(130), {
      ...token('100000C01'), evse: { id: 2 }, transactionInfo: { stoppedReason: 'EVDisconnected' },
      meterValue: [meter(at(120), wh(100, 'Transaction.Begin')), meter(at(130), wh(450, 'Transaction.End'))],
    });
    const only = await session('TX-ONLY-END');
    expect(only).toMatchObject({ connector_id: 2, start_meter: 100, end_meter: 450, total_pw_consume: 350, stop_reason: 'EVDisconnected' });
    expect(new Date(only.session_start_time).toISOString()).toBe(at(120));

    // No EVSE and never started: nothing to put it on, still answered.
    expect(await event('Updated', 'TX-NOWHERE', at(131))).toEqual({});
    expect(await session('TX-NOWHERE')).toBeUndefined();
  });

  it('E06 stoppedReason → the portal\'s stop reasons (ImmediateReset is HardReset, StoppedByEV is EVDisconnected …)', async () => {
    const cases: [string | undefined, string][] = [
      ['Remote', 'Remote'], ['EVDisconnected', 'EVDisconnected'], ['ImmediateReset', 'HardReset'], ['StoppedByEV', 'EVDisconnected'],
      ['PowerLoss', 'PowerLoss'], ['EmergencyStop', 'EmergencyStop'], ['MasterPass', 'Local'], ['Timeout', 'Other'], [undefined, 'Local'],
    ];
    let minute = 140;
    for (const [reason, expected] of cases) {
      const id = `TX-REASON-${reason ?? 'none'}`;
      await event('Started', id, at(minute++), { ...token('100000C01'), evse: { id: 1 } });
      await event('Ended', id, at(minute++), { transactionInfo: reason ? { stoppedReason: reason } : {} });
      expect((await session(id)).stop_reason, reason).toBe(expected);
    }
  });

  it('TC_E_29_CSMS / TC_E_31_CSMS offline: events queued while away are replayed after the reconnect and keep their timestamps', async () => {
    // Started online, then the connection is lost; the station charges on and queues its events.
    await event('Started', 'TX-OFFLINE', at(200), { ...token('100000C01'), evse: { id: 1 }, transactionInfo: { chargingState: 'Charging' }, meterValue: [meter(at(200), wh(10_000, 'Transaction.Begin'))] });
    await station.close({ force: true });
    expect(await eventually(async () => (await s.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag === 0)).toBe(true);
    station = await connect(false);
    const offline = { offline: true };
    await event('Updated', 'TX-OFFLINE', at(215), { ...offline, meterValue: [meter(at(215), wh(10_400))] });
    await event('Ended', 'TX-OFFLINE', at(230), { ...offline, transactionInfo: { stoppedReason: 'EVDisconnected' }, meterValue: [meter(at(230), wh(10_900, 'Transaction.End'))] });
    const sess = await session('TX-OFFLINE');
    expect(new Date(sess.session_start_time).toISOString()).toBe(at(200));
    expect(new Date(sess.session_end_time).toISOString()).toBe(at(230));
    expect(sess).toMatchObject({ total_pw_consume: 900, total_charge_time: 1800, stop_reason: 'EVDisconnected' });
    expect((await meters(sess.session_id)).map((m: any) => new Date(m.ts).toISOString())).toEqual([at(200), at(215), at(230)]);

    // A whole transaction done offline, replayed after a reboot (BootNotification first).
    await station.close({ force: true });
    station = await connect();
    await event('Started', 'TX-OFFLINE-2', at(240), { ...offline, ...token('100000C01'), evse: { id: 2 }, meterValue: [meter(at(240), wh(300, 'Transaction.Begin'))] });
    await event('Ended', 'TX-OFFLINE-2', at(250), { ...offline, transactionInfo: { stoppedReason: 'PowerLoss' }, meterValue: [meter(at(250), wh(800, 'Transaction.End'))] });
    const whole = await session('TX-OFFLINE-2');
    expect(whole).toMatchObject({ total_pw_consume: 500, total_charge_time: 600, stop_reason: 'PowerLoss', id_tag_status: 'Accepted' });
    const [logged] = await s.db.query(`SELECT cre_dttm FROM cp_requests WHERE session_id = $1 AND request_data->>'eventType' = 'Ended'`, [whole.session_id]);
    expect(new Date(logged.cre_dttm).toISOString()).toBe(at(250));
  });

  it('TC_E_21_CSMS remote stop: the portal sends RequestStopTransaction with the station\'s transactionId', async () => {
    await event('Started', 'TX-E21', at(300), { ...token('100000C01'), evse: { id: 2 }, transactionInfo: { chargingState: 'Charging' } });
    const res = await s.api('POST', `/api/cps/rsrStopCharger/${cpId}`, { token: admin, body: { connectorId: 2 } });
    expect(res.body).toMatchObject({ status: 'success' });
    const [sent] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_type = 122 ORDER BY req_id DESC LIMIT 1`, [cpId]);
    expect(sent.request_data).toEqual({ transactionId: 'TX-E21' });
    await event('Ended', 'TX-E21', at(301), { triggerReason: 'RemoteStop', transactionInfo: { stoppedReason: 'Remote' } });
    expect(await session('TX-E21')).toMatchObject({ stop_reason: 'Remote' });
  });

  it('F02 remote start of a transaction already started at plug-in: the portal\'s Central idToken is Accepted', async () => {
    const now = () => new Date().toISOString();
    await station.call('StatusNotification', { timestamp: now(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    await event('Started', 'TX-F02', now(), { triggerReason: 'CablePluggedIn', evse: { id: 1 }, transactionInfo: { chargingState: 'EVConnected' } });
    const started = await s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body: { connectorId: 1, time: '30' } });
    expect(started.body.status, JSON.stringify(started.body)).toBe('success');
    const [req] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_type = 121 ORDER BY req_id DESC LIMIT 1`, [cpId]);
    const answer = await event('Updated', 'TX-F02', now(), {
      idToken: req.request_data.idToken, triggerReason: 'RemoteStart', transactionInfo: { chargingState: 'Charging', remoteStartId: req.request_data.remoteStartId },
    });
    expect(answer).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const sess = await session('TX-F02');
    expect(sess).toMatchObject({ id_tag: req.request_data.idToken.idToken, id_tag_status: 'Accepted' });
    expect(sess.planned_end_dttm).not.toBeNull();
  });

  describe('J meter values', () => {
    it('TC_J_01_CSMS clock-aligned MeterValues with no transaction (evseId 0 and 1) are stored per connector', async () => {
      const before = (await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values WHERE cp_id = $1 AND session_id IS NULL`, [cpId]))[0].n;
      for (const evseId of [0, 1]) {
        expect(await station.call('MeterValues', { evseId, meterValue: [meter(at(400 + evseId), { ...wh(12.345, 'Sample.Clock'), unitOfMeasure: { unit: 'kWh' } })] })).toEqual({});
      }
      const rows = await s.db.query(`SELECT connector_id, energy FROM cp_meter_values WHERE cp_id = $1 AND session_id IS NULL ORDER BY connector_id`, [cpId]);
      expect(rows.length - before).toBe(2);
      expect(rows.slice(-2).map((r: any) => [r.connector_id, Number(r.energy)])).toEqual([[0, 12345], [1, 12345]]);
    });

    it('TC_J_07_CSMS / TC_J_11_CSMS Started with Transaction.Begin, EVSE known, signed: the start reading', async () => {
      await event('Started', 'TX-J07', at(420), { triggerReason: 'CablePluggedIn', evse: { id: 2 }, meterValue: [meter(at(420), { ...wh(1.5, 'Transaction.Begin'), unitOfMeasure: { unit: 'kWh' }, signedMeterValue: SIGNED })] });
      expect(await session('TX-J07')).toMatchObject({ start_meter: 1500, connector_id: 2 });
      await event('Ended', 'TX-J07', at(421), { transactionInfo: { stoppedReason: 'EVDisconnected' }, meterValue: [meter(at(421), { ...wh(1800, 'Transaction.End'), signedMeterValue: SIGNED })] });
      expect(await session('TX-J07')).toMatchObject({ end_meter: 1800, total_pw_consume: 300 });
    });

    it('TC_J_08_CSMS Started without EVSE (Authorized first), Updated with the EVSE and Transaction.Begin', async () => {
      expect(await event('Started', 'TX-J08', at(430), { ...token('100000C03') })).toEqual({ idTokenInfo: { status: 'Accepted' } });
      expect(await session('TX-J08')).toBeUndefined();
      await event('Updated', 'TX-J08', at(431), { triggerReason: 'CablePluggedIn', evse: { id: 2, connectorId: 1 }, meterValue: [meter(at(431), wh(2000, 'Transaction.Begin'))] });
      await event('Updated', 'TX-J08', at(432), { triggerReason: 'ChargingStateChanged', transactionInfo: { chargingState: 'Charging' } });
      const sess = await session('TX-J08');
      expect(sess).toMatchObject({ connector_id: 2, id_tag: '100000C03', account_id: accountId, start_meter: 2000 });
      expect(await connectorStatus(2)).toBe('Charging');
      expect(new Date(sess.session_start_time).toISOString()).toBe(at(430));
      await event('Ended', 'TX-J08', at(440), { transactionInfo: { stoppedReason: 'Local' }, meterValue: [meter(at(440), wh(2600, 'Transaction.End'))] });
      expect(await session('TX-J08')).toMatchObject({ total_pw_consume: 600, stop_reason: 'Local' });
      expect(await connectorStatus(2)).toBe('Finishing');
    });
  });
});
