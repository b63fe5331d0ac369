import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES, P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { connectCharger, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';
import { ratedCharger } from './test-fixtures.ts';

/** What the RSR screens list and send (issue 27): point redemptions, the request log's filter, start/stop/unlock. */
describe('RSR screens', () => {
  let s: TestServer;
  let admin: string;
  const chargers: RPCClient[] = [];
  const unlocked: number[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
  });
  afterAll(async () => {
    for (const c of chargers) await c.close();
    await s.close();
  });

  async function online(cpNo: string) {
    const c = await connectCharger(s.wsUrl, cpNo, {
      handlers: {
        RemoteStartTransaction: () => ({ status: 'Accepted' }),
        RemoteStopTransaction: () => ({ status: 'Accepted' }),
        UnlockConnector: (p) => {
          unlocked.push(p.connectorId);
          return { status: 'Unlocked' };
        },
      },
    });
    chargers.push(c);
    return c;
  }
  const get = (path: string, token = admin) => s.api('GET', path, { token });
  const post = (path: string, body: object, token = admin) => s.api('POST', path, { token, body });

  it('lists in point redemption only the requests that earned points, not cancelled or failed ones', async () => {
    const r = await ratedCharger(s.db, 'SCR-P', { point: 5 });
    const ids: Record<string, number> = {};
    for (const status of ['Settled', 'Cancelled', 'Failed']) {
      const [row] = await s.db.query(
        `INSERT INTO cp_rsr (cp_id, connector_id, status, point, external_account_id, charging_rate_id, max_charging_unit, duration, unit_in_minutes)
         VALUES ($1, 1, $2, 5, 'SCR-M', $3, 1, 15, 15) RETURNING rsr_id`,
        [r.cpId, status, r.rateId],
      );
      ids[status] = row.rsr_id;
    }
    const listed = (await get('/api/cpRsrPointRedeem?external_account_id=SCR-M')).body.dataset.content;
    expect(listed.map((x: { rsr_id: number }) => x.rsr_id)).toEqual([ids.Settled]);
    expect([403, 404]).toContain((await get(`/api/cpRsrPointRedeem/${ids.Cancelled}`)).status);
  });

  it('filters the RSR request log by rsr_id, exactly', async () => {
    const r = await ratedCharger(s.db, 'SCR-L');
    const rsr: number[] = [];
    for (let i = 0; i < 2; i++) {
      const [row] = await s.db.query(`INSERT INTO cp_rsr (cp_id, connector_id, status, max_charging_unit, duration, unit_in_minutes) VALUES ($1, 1, 'Failed', 1, 15, 15) RETURNING rsr_id`, [r.cpId]);
      rsr.push(row.rsr_id);
      await s.db.query(`INSERT INTO cp_rsr_request (rsr_id, cp_no, request_data) VALUES ($1, 'SCR-L', '{}'), ($1, 'SCR-L', '{}')`, [row.rsr_id]);
    }
    const res = await get(`/api/cp_rsr_request?rsr_id=${rsr[1]}`);
    expect(res.status).toBe(200);
    expect(res.body.dataset.content.map((x: { rsr_id: number }) => x.rsr_id)).toEqual([rsr[1], rsr[1]]);
    expect((await get('/api/cp_rsr_request?rsr_id=abc')).status).toBe(400);
  });

  it('starts, stops and unlocks from the RSR screens through the charger routes, with their checks', async () => {
    const r = await ratedCharger(s.db, 'SCR-C');
    const c = await online('SCR-C');
    const started = await post(`/api/cp_rsr/rsrStartCharger/${r.cpId}`, { connectorId: 1, time: '15', memberId: 'SCR-1' });
    expect(started.body).toMatchObject({ status: 'success', data: { rsrId: expect.any(Number) } });
    const rsrId = started.body.data.rsrId;
    // The same refusals as from the charger view: the connector has an open RSR.
    expect((await post(`/api/cp_rsr/rsrStartCharger/${r.cpId}`, { connectorId: 1, time: '15' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_STATUS });

    await c.call('StartTransaction', { connectorId: 1, idTag: 'SCR-1', meterStart: 0, timestamp: new Date().toISOString() });
    await c.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' });
    await eventually(async () => (await s.db.query(`SELECT status FROM cp_rsr WHERE rsr_id = $1`, [rsrId]))[0].status === 'Charging');
    expect((await post(`/api/cp_rsr/rsrStopCharger/${r.cpId}`, { connectorId: 1 })).body).toMatchObject({ status: 'success' });
    expect((await post(`/api/cp_rsr/unlockCharger/${r.cpId}`, { connectorId: 1 })).body).toMatchObject({ status: 'success' });
    expect(unlocked).toEqual([1]);
    const audited = await s.db.query(`SELECT new_data->>'command' AS command FROM portal_action_log WHERE target = 'cps' AND target_id = $1 ORDER BY 1`, [String(r.cpId)]);
    expect(audited.map((a) => a.command)).toEqual(['RemoteStartTransaction', 'RemoteStopTransaction', 'UnlockConnector']);

    // The privilege and the user's sites are checked as from the charger view.
    const reader = await userWith(s, 'scr-reader', [readPrivilege('cp_rsr')]);
    expect((await post(`/api/cp_rsr/unlockCharger/${r.cpId}`, { connectorId: 1 }, reader)).status).toBe(403);
    const elsewhere = await userWith(s, 'scr-elsewhere', [readPrivilege('cp_rsr'), P.REMOTE_START_CHARGER], [999_999]);
    expect((await post(`/api/cp_rsr/rsrStopCharger/${r.cpId}`, { connectorId: 1 }, elsewhere)).body).toEqual({ status: 'error', errorCode: ERROR_CODES.CP_NOT_FOUND });
    expect((await get(`/api/cp_rsr/getLp/${r.cpId}?connectorId=1`)).body.status).toBe('success');
    // Only start, stop, unlock and Get LP: the charger's other commands stay on the chargers' resource (the
    // path's resource is refused by the route's schema, as any bad input).
    for (const refused of [await get(`/api/cp_rsr/rsrResetCharger/${r.cpId}?type=Soft`), await post(`/api/cp_rsr_request/rsrStopCharger/${r.cpId}`, { connectorId: 1 })]) {
      expect([refused.status, refused.body.fields]).toEqual([400, { resource: 'invalid' }]);
    }
  });
});
