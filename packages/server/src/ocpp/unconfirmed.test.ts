import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, addSite, BOOT, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { ratedCharger } from '../rsr/test-fixtures.ts';
import { userWith } from '../testing/users.ts';
import { autoCloseUnconfirmed } from '../housekeeping/unconfirmed-sessions.ts';

const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
const energy = (timestamp: string, wh: number) => ({ timestamp, sampledValue: [{ value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' }] });

/**
 * Sessions whose StopTransaction never came (issue 27): a charger drops its connection as a
 * transaction starts and comes back without the stop. Through a real WebSocket and HTTP.
 */
describe('unconfirmed sessions', () => {
  let s: TestServer;
  let cp: RPCClient;
  let locId: number;
  let admin: string;
  let closer: string;
  const session = async (tranId: number) => (await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tranId]))[0];
  /** Starts a session on the connector, with a meter reading of 4,500 Wh after its start at 1,000. */
  const start = async (connectorId: number, idTag: string, minAgo = 30): Promise<number> => {
    const res: any = await cp.call('StartTransaction', { connectorId, idTag, meterStart: 1000, timestamp: ago(minAgo) });
    await cp.call('MeterValues', { connectorId, transactionId: res.transactionId, meterValue: [energy(ago(minAgo - 5), 4500)] });
    return res.transactionId;
  };
  /** The connection drops and the charger comes back without the StopTransaction. */
  const reconnect = async () => {
    await cp.close();
    cp = await connectCharger(s.wsUrl, 'CP-U1');
  };
  const close = (id: number, body: unknown, token = closer, key = 'cp_sessions') => s.api('POST', `/api/${key}/${id}/close`, { token, body });

  beforeAll(async () => {
    s = await startTestServer();
    locId = await addSite(s.db);
    await addCharger(s.db, 'CP-U1', { locId });
    await addCard(s.db, ['U1', 'U2', 'U3', 'U4', 'U5', 'U6']);
    cp = await connectCharger(s.wsUrl, 'CP-U1');
    admin = await s.login();
    closer = await userWith(s, 'closer', ['READ_CP_SESSIONS', P.CLOSE_SESSION], [locId]);
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  it('flags a running session unconfirmed when its connector reports Available after the start, and lists it so', async () => {
    const tx = await start(1, 'U1');
    // A status queued before the start says nothing about the session.
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: ago(31) });
    expect((await session(tx)).unconfirmed_since).toBeNull();
    await reconnect();
    const at = ago(10);
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: at });
    const flagged = await session(tx);
    expect(flagged).toMatchObject({ unconfirmed_reason: 'Available', session_end_time: null });
    expect(new Date(flagged.unconfirmed_since).toISOString()).toBe(at);

    const list = await s.api('GET', `/api/cp_sessions?unconfirmed=Available,Boot`, { token: closer });
    expect(list.body.dataset.content).toEqual([expect.objectContaining({ session_id: flagged.session_id, unconfirmed: 'Available', unconfirmed_since: expect.any(String) })]);
  });

  it('flags the running sessions of a charger that boots without their stops, and a late StopTransaction still confirms one', async () => {
    const tx2 = await start(2, 'U2');
    await reconnect();
    await cp.call('BootNotification', BOOT);
    expect(await session(tx2)).toMatchObject({ unconfirmed_reason: 'Boot', session_end_time: null });
    const listed = await s.api('GET', `/api/cp_sessions_all?unconfirmed=Boot`, { token: admin });
    expect(listed.body.dataset.content.map((r: any) => r.tran_id)).toEqual([tx2]);

    // The charger's queued stop arrives after all: the session ends as it says, no longer unconfirmed.
    await cp.call('StopTransaction', { transactionId: tx2, meterStop: 6000, timestamp: ago(20), reason: 'Reboot' });
    expect(await session(tx2)).toMatchObject({ stop_reason: 'Reboot', end_meter: 6000, unconfirmed_since: null, unconfirmed_reason: null });
  });

  it('lets a holder of EDIT_CLOSE_SESSION close it with a reason: energy of its last reading, audited; a later stop leaves it', async () => {
    const [flagged] = await s.db.query(`SELECT * FROM cp_sessions WHERE id_tag = 'U1'`);
    const id = flagged.session_id;
    const reader = await userWith(s, 'reader', ['READ_CP_SESSIONS']);
    expect((await close(id, { reason: 'x' }, reader)).status).toBe(403);
    const elsewhere = await userWith(s, 'elsewhere', ['READ_CP_SESSIONS', P.CLOSE_SESSION], [await addSite(s.db)]);
    expect((await close(id, { reason: 'x' }, elsewhere)).status).toBe(404);
    const onlyAll = await userWith(s, 'only-all', ['READ_CP_SESSIONS_ALL', P.CLOSE_SESSION]);
    expect((await close(id, { reason: 'x' }, onlyAll)).status).toBe(403);
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'x', extra: 1 }, { reason: 5 }]) {
      const bad = await close(id, body);
      expect([bad.status, Object.keys(bad.body.fields).length > 0]).toEqual([400, true]);
    }
    expect((await s.api('POST', `/api/cp_sessions/abc/close`, { token: closer, body: { reason: 'x' } })).status).toBe(400);
    expect((await s.api('POST', `/api/cps/${id}/close`, { token: admin, body: { reason: 'x' } })).status).toBe(404);

    const res = await close(id, { reason: ' Charger lost the stop; customer confirmed unplugging ' });
    expect([res.status, res.body.status]).toEqual([200, 'success']);
    const closed = await session(flagged.tran_id);
    expect(closed).toMatchObject({
      stop_reason: 'ClosedByOperator', stop_note: 'Charger lost the stop; customer confirmed unplugging',
      end_meter: 4500, total_pw_consume: 3500, running_pw_consume: 3500, unconfirmed_reason: 'Available',
    });
    // It ended when the charger showed it was over, not when the operator noticed.
    expect(new Date(closed.session_end_time).getTime()).toBe(new Date(closed.unconfirmed_since).getTime());
    expect(closed.total_charge_time).toBeGreaterThanOrEqual(20 * 60);
    expect(closed.total_charge_time).toBeLessThan(20 * 60 + 10);
    const [audit] = await s.db.query(`SELECT * FROM portal_action_log WHERE target = 'cp_sessions' AND target_id = $1`, [String(id)]);
    expect(audit).toMatchObject({ action: 'UPDATE', cre_user: 'closer', remark: 'close' });
    expect(audit.new_data).toMatchObject({ stop_reason: 'ClosedByOperator', end_meter: 4500 });

    const again = await close(id, { reason: 'twice' });
    expect([again.status, again.body.errors]).toEqual([409, ['session_already_ended']]);
    // The charger's StopTransaction, long after: answered, and the closed session keeps its record.
    expect(await cp.call('StopTransaction', { transactionId: flagged.tran_id, meterStop: 9999, timestamp: ago(1), idTag: 'U1' })).toEqual({ idTagInfo: { status: 'Accepted' } });
    expect(await session(flagged.tran_id)).toMatchObject({ stop_reason: 'ClosedByOperator', end_meter: 4500 });
  });

  it('closes unconfirmed sessions by itself after the hours set in app_config, off by default, with its own stop reason', async () => {
    const tx3 = await start(3, 'U3');
    const tx4 = await start(4, 'U4');
    await cp.call('StatusNotification', { connectorId: 3, status: 'Available', errorCode: 'NoError', timestamp: ago(15) });
    const inThreeHours = new Date(Date.now() + 3 * 3_600_000);
    expect(await autoCloseUnconfirmed(s.app, inThreeHours)).toBe(0);
    expect((await session(tx3)).session_end_time).toBeNull();

    const [setting] = await s.db.query(`SELECT id, config_value FROM app_config WHERE config_key = 'unconfirmed_auto_close_hours'`);
    expect(setting.config_value).toBe('0');
    const bad = await s.api('PUT', `/api/app_config/${setting.id}`, { token: admin, body: { config_value: '5' } });
    expect([bad.status, bad.body.fields]).toEqual([400, { config_value: 'invalid' }]);
    expect((await s.api('PUT', `/api/app_config/${setting.id}`, { token: admin, body: { config_value: '4' } })).status).toBe(200);

    expect(await autoCloseUnconfirmed(s.app, new Date(Date.now() + 3 * 3_600_000))).toBe(0);
    expect(await autoCloseUnconfirmed(s.app, new Date(Date.now() + 4 * 3_600_000))).toBe(1);
    expect(await session(tx3)).toMatchObject({ stop_reason: 'ClosedUnconfirmed', end_meter: 4500, total_pw_consume: 3500 });
    // A running session the charger never showed as ended is left running.
    expect((await session(tx4)).session_end_time).toBeNull();
    const [audit] = await s.db.query(`SELECT * FROM portal_action_log WHERE target = 'cp_sessions' AND target_id = $1`, [String((await session(tx3)).session_id)]);
    expect(audit).toMatchObject({ action: 'UPDATE', cre_user: null, remark: 'auto-close' });
  });

  it('finishes the remote start request of a session it closes, as its stop would', async () => {
    const { cpId } = await ratedCharger(s.db, 'CP-U2', { locId });
    const rated = await connectCharger(s.wsUrl, 'CP-U2', { handlers: { RemoteStartTransaction: () => ({ status: 'Accepted' }) } });
    try {
      const started = await s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body: { connectorId: 1, time: '15', isFree: 'Y' } });
      const rsrId = started.body.data.rsrId;
      const tx: any = await rated.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: ago(5) });
      const rsr = async () => (await s.db.query(`SELECT * FROM cp_rsr WHERE rsr_id = $1`, [rsrId]))[0];
      await eventually(async () => (await rsr()).status === 'Charging');
      await rated.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError', timestamp: ago(1) });
      expect((await close((await session(tx.transactionId)).session_id, { reason: 'lost stop' })).status).toBe(200);
      expect(await rsr()).toMatchObject({ status: 'Settled', stop_type: 'ClosedByOperator', stop_reason: 'lost stop' });
    } finally {
      await rated.close();
    }
  });
});
