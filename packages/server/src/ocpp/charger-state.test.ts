import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { CONNECTOR_STATUSES, ERROR_CODES, shownStatus } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, eventually } from '../testing/ocpp-support.ts';
import { shownStatusSql } from './shown-status.ts';

/**
 * Spec part 1 §4 as an operator relies on it: a charger that is not connected is Offline everywhere, with
 * what it last reported marked as last known, and the remote actions are offered and accepted only where
 * they can work (the simulator as the charger, over its WebSocket).
 */
describe('charger state: Offline when not connected, remote actions where they can work', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let sim: SimulatedCharger;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    // Two sessions at once, so each connector's own state is what decides.
    cpId = await addCharger(s.db, 'SIM-STATE', { password: 'sim-pass', doubleUse: 1 });
    await addCard(s.db, ['CARD-S']);
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'SIM-STATE', password: 'sim-pass', connectors: 2, reconnect: false });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const charger = async () => (await api('GET', `/api/cps/${cpId}`)).body;
  const connectors = async () =>
    (await api('GET', `/api/cp_connectors?cp_id=${cpId}&size=100&page=0&sort_by=connector_id&order=asc`)).body.dataset.content;
  const stored = async (n: number) => (await s.db.query(`SELECT status FROM cp_connectors WHERE cp_id = $1 AND connector_id = $2`, [cpId, n]))[0]?.status;
  const lastAudit = async () => (await s.db.query(`SELECT * FROM portal_action_log WHERE action = 'COMMAND' ORDER BY id DESC LIMIT 1`))[0];

  it('while connected: the reported statuses, the running session per connector, start only where it can work', async () => {
    await sim.plugIn(1);
    await sim.startTransaction(1, 'CARD-S');
    await sim.plugIn(2);
    await sim.startTransaction(2, 'CARD-S');
    await eventually(async () => (await stored(1)) === 'Charging' && (await stored(2)) === 'Charging');

    // Stop with a remark (spec §7 rsrStopCharger connectorId, remark): the remark is the command's audit remark.
    expect((await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 2, remark: 'driver called' })).body.status).toBe('success');
    expect(await lastAudit()).toMatchObject({ remark: 'driver called', new_data: { command: 'RemoteStopTransaction' } });
    await eventually(async () => (await stored(2)) === 'Finishing');

    const [one, two] = await connectors();
    const [running] = await s.db.query(`SELECT session_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = 1 AND session_end_time IS NULL`, [cpId]);
    expect(one).toMatchObject({ connector_id: 1, status: 'Charging', last_known_status: null, session_id: running.session_id });
    expect(two).toMatchObject({ connector_id: 2, status: 'Finishing', last_known_status: null, session_id: null });
    expect(await charger()).toMatchObject({ charging_status: 'Charging', connectora_status: 'Charging', last_known_status: null, online_flag: 1 });
    expect((await charger()).online_since).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await charger()).offline_since).toBeNull();

    // Refused here with the spec's codes rather than sent for the charger to refuse: Finishing 10015, a session 10016.
    expect((await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 2, time: 30 })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.PLUG_NOT_READY });
    expect((await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: 30 })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_STATUS });
    const starts = await s.db.query(`SELECT 1 FROM cp_requests WHERE cp_id = $1 AND request_type = 10`, [cpId]);
    expect(starts).toHaveLength(0);

    // Unlock with a remark, audited with it.
    expect((await api('POST', `/api/cps/unlockCharger/${cpId}`, { connectorId: 2, remark: 'cable stuck' })).body.status).toBe('success');
    expect(await lastAudit()).toMatchObject({ remark: 'cable stuck', new_data: { command: 'UnlockConnector' } });
  });

  it('not connected: Offline as the current status, the last reported one marked as last known; actions answer 10030', async () => {
    sim.disconnect();
    await eventually(async () => (await s.db.query(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]))[0].online_flag === 0);

    const cp = await charger();
    expect(cp).toMatchObject({ charging_status: 'Offline', connectora_status: 'Offline', connectorb_status: 'Offline', last_known_status: 'Charging', online_since: null });
    // Since when it is offline: the moment the connection ended.
    expect(cp.offline_since).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(cp.last_status_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(cp.cp_connectors[0]).toMatchObject({ connector_id: 1, status: 'Offline', last_known_status: 'Charging' });

    // The list filters and shows by the same rule.
    const listed = async (filter: string) =>
      (await api('GET', `/api/cps?size=100&page=0&${filter}`)).body.dataset.content.map((r: any) => r.cp_id);
    expect(await listed('charging_status=Offline')).toContain(cpId);
    expect(await listed('charging_status=Charging')).not.toContain(cpId);
    expect(await listed('last_known_status=Charging')).toContain(cpId);

    const [one] = await connectors();
    expect(one).toMatchObject({ status: 'Offline', last_known_status: 'Charging' });
    expect(one.session_id).toEqual(expect.any(Number));

    // What it said last is not judged (connector 1 "Charging" would be 10016): the charger is not there to act, nothing is sent.
    const offline = { status: 'error', errorCode: ERROR_CODES.CP_OFFLINE };
    const sent = async () => (await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1 AND request_type >= 10`, [cpId]))[0].n;
    const before = await sent();
    expect((await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: 30 })).body).toMatchObject(offline);
    expect((await api('POST', `/api/cps/rsrStopCharger/${cpId}`, { connectorId: 1, remark: 'x' })).body).toMatchObject(offline);
    expect((await api('POST', `/api/cps/unlockCharger/${cpId}`, { connectorId: 1 })).body).toMatchObject(offline);
    expect(await sent()).toBe(before);
  });

  it('the SQL rule of the lists and dashboards is core shownStatus', async () => {
    for (const online of [0, 1]) {
      for (const reported of [...CONNECTOR_STATUSES, '', null]) {
        const [row] = await s.db.query(`SELECT ${shownStatusSql('$1::smallint', '$2::text')} AS shown`, [online, reported]);
        expect(row.shown).toBe(shownStatus(online === 1, reported));
      }
    }
  });
});
