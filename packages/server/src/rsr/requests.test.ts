import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { editPrivilege, ERROR_CODES, P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { connectCharger, eventually } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';
import { addVouchers, ratedCharger } from './test-fixtures.ts';

/** RSR refusals at creation (limits, members), cancel, the penalty edit, and the lists. */
describe('RSR requests', () => {
  let s: TestServer;
  let admin: string;
  const chargers: RPCClient[] = [];
  const stops: number[] = [];

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
        RemoteStopTransaction: (p) => {
          stops.push(p.transactionId);
          return { status: 'Accepted' };
        },
      },
    });
    chargers.push(c);
    return c;
  }
  const start = (cpId: number, body: object, token = admin) => s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token, body });
  const rsr = async (id: number) => (await s.db.query(`SELECT * FROM cp_rsr WHERE rsr_id = $1`, [id]))[0];

  it('a rate that limits members needs a member ID (10014), and counts their sessions per day (10018)', async () => {
    const r = await ratedCharger(s.db, 'LIM-1', { max_daily_charging_session: 2 });
    await online('LIM-1');
    expect((await start(r.cpId, { connectorId: 1, time: '15' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.MEMBER_INVALID });
    const first = (await start(r.cpId, { connectorId: 1, time: '15', memberId: 'D-1' })).body;
    expect(first.status).toBe('success');
    // A cancelled one does not count.
    expect((await s.api('GET', `/api/cp_rsr/cancel/${first.data.rsrId}`, { token: admin })).body).toEqual({ status: 'success' });
    expect((await start(r.cpId, { connectorId: 1, time: '15', memberId: 'D-1' })).body.status).toBe('success');
    expect((await start(r.cpId, { connectorId: 2, time: '15', memberId: 'D-1' })).body.status).toBe('success');
    expect((await start(r.cpId, { connectorId: 3, time: '15', memberId: 'D-1' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.MAX_SESSION });
    expect((await start(r.cpId, { connectorId: 3, time: '15', memberId: 'D-2' })).body.status).toBe('success');
    // A connector with an open RSR takes no second one.
    expect((await start(r.cpId, { connectorId: 3, time: '15', memberId: 'D-3' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CONNECTOR_STATUS });
  });

  it('answers the pricing refusals: no slot 10019, above the units of the rate 10018', async () => {
    const none = await ratedCharger(s.db, 'LIM-2', { noSlot: true });
    expect((await start(none.cpId, { connectorId: 1, time: '15' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.RATE_MISSING });
    const capped = await ratedCharger(s.db, 'LIM-3');
    await s.db.query(`UPDATE charging_rate SET max_charging_unit = 2 WHERE id = $1`, [capped.rateId]);
    expect((await start(capped.cpId, { connectorId: 1, time: '31' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.MAX_SESSION });
    expect(await s.db.query(`SELECT 1 FROM cp_rsr WHERE cp_id = ANY($1::int[])`, [[none.cpId, capped.cpId]])).toEqual([]);
  });

  it('a member redeems points at most max_redeem_count times per redeem_period (21002); the list says when again', async () => {
    const r = await ratedCharger(s.db, 'LIM-4', { point: 5, max_redeem_count: 1, redeem_period: 120 });
    await online('LIM-4');
    const first = (await start(r.cpId, { connectorId: 1, time: '15', memberId: 'P-1' })).body;
    expect(first.status).toBe('success');
    expect((await rsr(first.data.rsrId)).point).toBe(5);
    expect((await start(r.cpId, { connectorId: 2, time: '15', memberId: 'P-1' })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.REDEEM_TIME });
    // Nothing of the refused start is left behind.
    expect(await s.db.query(`SELECT rsr_id FROM cp_rsr WHERE external_account_id = 'P-1'`)).toEqual([{ rsr_id: first.data.rsrId }]);

    const list = await s.api('GET', `/api/cpRsrPointRedeem?external_account_id=P-1`, { token: admin });
    expect(list.status).toBe(200);
    const [row] = list.body.dataset.content;
    expect(row.rsr_id).toBe(first.data.rsrId);
    const created = new Date((await rsr(first.data.rsrId)).cre_dttm).getTime();
    // One redeem allowed per 120 minutes: the member may redeem again 120 minutes after this one.
    expect(new Date(row.next_available_redeem_date_from_create_date).getTime()).toBe(created + 120 * 60_000);
    // RSRs without points are not in the list.
    const plain = await ratedCharger(s.db, 'LIM-5');
    await online('LIM-5');
    const nopoints = (await start(plain.cpId, { connectorId: 1, time: '15' })).body.data.rsrId;
    expect([403, 404]).toContain((await s.api('GET', `/api/cpRsrPointRedeem/${nopoints}`, { token: admin })).status);
  });

  it('cancel: only RemoteStarted (10013), unknown 10007, privileges and site checked, audited, vouchers back', async () => {
    const r = await ratedCharger(s.db, 'CAN-1');
    const c = await online('CAN-1');
    const [v] = await addVouchers(s.db, 'C-1', 1);
    const id = (await start(r.cpId, { connectorId: 1, time: '15', memberId: 'C-1' })).body.data.rsrId as number;
    expect((await s.db.query(`SELECT status FROM voucher WHERE id = $1`, [v]))[0].status).toBe('Redeemed');

    const reader = await userWith(s, 'rsr-reader', [readPrivilege('cp_rsr')]);
    expect((await s.api('GET', `/api/cp_rsr/cancel/${id}`, { token: reader })).status).toBe(403);
    const elsewhere = await userWith(s, 'rsr-elsewhere', [readPrivilege('cp_rsr'), editPrivilege('cp_rsr')], [999_999]);
    expect((await s.api('GET', `/api/cp_rsr/cancel/${id}`, { token: elsewhere })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.RSR_NOT_FOUND });
    expect((await s.api('GET', `/api/cp_rsr/cancel/99999999`, { token: admin })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.RSR_NOT_FOUND });
    expect((await s.api('GET', `/api/cp_rsr/cancel/abc`, { token: admin })).status).toBe(400);
    // Only cp_rsr's requests are cancelled: another key is refused by the params schema (400).
    expect((await s.api('GET', `/api/cp_sessions/cancel/${id}`, { token: admin })).status).toBe(400);

    expect((await s.api('GET', `/api/cp_rsr/cancel/${id}`, { token: admin })).body).toEqual({ status: 'success' });
    const row = await rsr(id);
    expect(row.status).toBe('Cancelled');
    expect(row.cancel_time).not.toBeNull();
    expect((await s.db.query(`SELECT status, "rsrId" FROM voucher WHERE id = $1`, [v]))[0]).toEqual({ status: 'Valid', rsrId: null });
    const [audit] = await s.db.query(`SELECT action, target, target_id, remark FROM portal_action_log WHERE target = 'cp_rsr' AND target_id = $1`, [String(id)]);
    expect(audit).toMatchObject({ action: 'UPDATE', remark: 'cancel' });
    expect((await s.api('GET', `/api/cp_rsr/cancel/${id}`, { token: admin })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.RSR_INVALID });
    // The charger starting after the cancel is refused: the start's idTag is no longer accepted.
    const late = (await c.call('StartTransaction', { connectorId: 1, idTag: 'C-1', meterStart: 0, timestamp: new Date().toISOString() })) as {
      idTagInfo: { status: string };
      transactionId: number;
    };
    expect(late.idTagInfo.status).toBe('Invalid');
    await c.call('StopTransaction', { transactionId: late.transactionId, meterStop: 0, timestamp: new Date().toISOString() });

    // Charging already: not cancellable.
    const id2 = (await start(r.cpId, { connectorId: 1, time: '15' })).body.data.rsrId as number;
    await c.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: new Date().toISOString() });
    await eventually(async () => (await rsr(id2)).status === 'Charging');
    expect((await s.api('GET', `/api/cp_rsr/cancel/${id2}`, { token: admin })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.RSR_INVALID });
  });

  it('a cancel that crosses the charger\'s start stops the transaction it began', async () => {
    const r = await ratedCharger(s.db, 'CAN-2');
    const c = await online('CAN-2');
    const id = (await start(r.cpId, { connectorId: 1, time: '15' })).body.data.rsrId as number;
    // The start is recorded but not yet matched to the RSR (as if the cancel won the race).
    const tx: any = await c.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: new Date().toISOString() });
    await eventually(async () => (await rsr(id)).status === 'Charging');
    await s.db.query(`UPDATE cp_rsr SET status = 'RemoteStarted' WHERE rsr_id = $1`, [id]);
    expect((await s.api('GET', `/api/cp_rsr/cancel/${id}`, { token: admin })).body).toEqual({ status: 'success' });
    expect(stops).toContain(tx.transactionId);
    const logged = await s.db.query(`SELECT request_data FROM cp_rsr_request WHERE rsr_id = $1 ORDER BY rsr_req_id`, [id]);
    expect(logged.at(-1)?.request_data).toEqual({ action: 'RemoteStopTransaction', transactionId: tx.transactionId });
  });

  it('edits only an UnderPenalty RSR that is not free: remarks, free flag and penalty (kept at the stop)', async () => {
    const r = await ratedCharger(s.db, 'EDIT-1');
    const c = await online('EDIT-1');
    const id = (await start(r.cpId, { connectorId: 1, time: '15' })).body.data.rsrId as number;
    const put = (body: object, token = admin) => s.api('PUT', `/api/cp_rsr/${id}`, { token, body });
    expect((await put({ remarks: 'x', is_free: 'N', penalty_fee: 1 })).status).toBe(400); // RemoteStarted
    const tx: any = await c.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: new Date(Date.now() - 60 * 60_000).toISOString() });
    await eventually(async () => (await rsr(id)).status === 'UnderPenalty');
    const noButton = await userWith(s, 'rsr-editor', [readPrivilege('cp_rsr'), editPrivilege('cp_rsr')]);
    expect((await put({ remarks: 'x', is_free: 'N', penalty_fee: 1 }, noButton)).status).toBe(403);
    expect((await put({ remarks: 'x', is_free: 'N', status: 'Settled' })).status).toBe(400);
    const ok = await put({ remarks: 'waived half', is_free: 'N', penalty_fee: 1.5 });
    expect(ok.status).toBe(200);
    expect(await rsr(id)).toMatchObject({ remarks: 'waived half', penalty_fee: 150, penalty_mode: 'Manual', status: 'UnderPenalty' });
    await c.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 10, timestamp: new Date().toISOString(), reason: 'Local' });
    const done = await eventually(async () => ((await rsr(id)).status === 'Unsettled' ? rsr(id) : null));
    expect(done).toMatchObject({ charging_fee: 600, penalty_fee: 150 });
    expect((await s.db.query(`SELECT amount FROM payment_result WHERE rsr_id = $1`, [id]))[0].amount).toBe(750);
    expect((await put({ remarks: 'late', is_free: 'N' })).status).toBe(400); // Unsettled now
  });

  it('free set on an UnderPenalty RSR: nothing owed at the stop, and no further edit', async () => {
    const r = await ratedCharger(s.db, 'EDIT-2');
    const c = await online('EDIT-2');
    const id = (await start(r.cpId, { connectorId: 1, time: '15' })).body.data.rsrId as number;
    const tx: any = await c.call('StartTransaction', { connectorId: 1, idTag: 'PORTAL', meterStart: 0, timestamp: new Date(Date.now() - 60 * 60_000).toISOString() });
    await eventually(async () => (await rsr(id)).status === 'UnderPenalty');
    expect((await s.api('PUT', `/api/cp_rsr/${id}`, { token: admin, body: { is_free: 'Y' } })).status).toBe(200);
    expect((await s.api('PUT', `/api/cp_rsr/${id}`, { token: admin, body: { remarks: 'again', is_free: 'N' } })).status).toBe(400);
    await c.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 10, timestamp: new Date().toISOString(), reason: 'Local' });
    const done = await eventually(async () => ((await rsr(id)).status === 'Settled' ? rsr(id) : null));
    expect(done).toMatchObject({ charging_fee: 0, penalty_fee: 0, payment_status: 'Settled' });
  });

  it('lists: site-scoped through the charger, debug columns for cstDebug only, requests and API log view-only', async () => {
    const r = await ratedCharger(s.db, 'LIST-1');
    await online('LIST-1');
    const id = (await start(r.cpId, { connectorId: 1, time: '15', memberId: 'L-1' })).body.data.rsrId as number;
    const mine = await userWith(s, 'rsr-site', [readPrivilege('cp_rsr'), readPrivilege('cp_rsr_request')], [r.locId]);
    const other = await userWith(s, 'rsr-other', [readPrivilege('cp_rsr'), readPrivilege('cp_rsr_request')], [999_998]);
    const ids = async (token: string, key = 'cp_rsr') => (await s.api('GET', `/api/${key}?size=100`, { token })).body.dataset.content.map((x: any) => x.rsr_id);
    expect(await ids(mine)).toEqual([id]);
    expect(await ids(other)).toEqual([]);
    expect(await ids(mine, 'cp_rsr_request')).toEqual([id]);
    expect(await ids(other, 'cp_rsr_request')).toEqual([]);
    const plainView = (await s.api('GET', `/api/cp_rsr/${id}`, { token: mine })).body;
    expect(plainView).not.toHaveProperty('shk30day_redeem_count');
    const debug = await userWith(s, 'rsr-debug', [readPrivilege('cp_rsr'), P.CST_DEBUG]);
    expect((await s.api('GET', `/api/cp_rsr/${id}`, { token: debug })).body).toMatchObject({ shk30day_redeem_count: 0, loc_address: expect.any(String) });
    expect((await s.api('POST', `/api/cp_rsr_request`, { token: admin, body: {} })).status).toBeGreaterThanOrEqual(400);
    const keys = 'keys=rsr_id&headers=RSR&keys=cp_no&headers=Charger&keys=cre_dttm&headers=Created';
    for (const key of ['cp_rsr', 'cpRsrPointRedeem']) {
      const res = await fetch(`${s.baseUrl}/api/${key}/export/excel?${keys}`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status, key).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
    }
  });

  it('the external API start on a rated charger is an RSR too, the call kept in cp_rsr_api_log', async () => {
    await ratedCharger(s.db, 'EXT-R1');
    await online('EXT-R1');
    const key = (await s.api('POST', '/api/third_party_conf', { token: admin, body: { key_name: 'mall-rsr', app_id: 'mall-rsr', privilege_key: 'EXT_CHARGING' } })).body.data.api_key;
    const ext = (body: object) => s.api('POST', '/api/external/v1/chargers/EXT-R1/start', { headers: { 'x-app-id': 'mall-rsr', 'x-api-key': key }, body });
    expect((await ext({ connectorId: 1, minutes: 0 })).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.INVALID_DURATION });
    const ok = await ext({ connectorId: 1, minutes: 30, memberId: 'E-1', mallId: 'MALL-E', carparkId: 'CP-E', lp: 'XY1' });
    expect(ok.body.status).toBe('success');
    const id = ok.body.data.rsrId as number;
    expect(await rsr(id)).toMatchObject({ status: 'RemoteStarted', max_charging_unit: 2, charging_fee: 1200, mall_id: 'MALL-E', carpark_id: 'CP-E', lp: 'XY1', external_account_id: 'E-1' });
    const logs = await s.db.query(`SELECT api_log_type, rsr_id, url, request_data, response_data FROM cp_rsr_api_log ORDER BY api_log_id`);
    // A start without a duration is refused before the charger is looked up, as on every charger: no RSR call to keep.
    expect(logs).toEqual([
      expect.objectContaining({ api_log_type: 'RemoteStart', rsr_id: id, url: '/api/external/v1/chargers/EXT-R1/start', request_data: expect.objectContaining({ memberId: 'E-1', minutes: 30 }), response_data: expect.objectContaining({ status: 'success' }) }),
    ]);
    expect((await s.api('GET', `/api/cp_rsr_api_log`, { token: admin })).body.dataset.content.map((x: any) => x.rsr_id)).toEqual([id]);
  });

  it('a card swiped on the connector meanwhile is not the RSR\'s session', async () => {
    const r = await ratedCharger(s.db, 'TAG-1');
    const c = await online('TAG-1');
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('tag card', 'CARD-X', 1)`);
    const id = (await start(r.cpId, { connectorId: 1, time: '15', memberId: 'T-1' })).body.data.rsrId as number;
    const other: any = await c.call('StartTransaction', { connectorId: 1, idTag: 'CARD-X', meterStart: 0, timestamp: new Date().toISOString() });
    expect(other.idTagInfo.status).toBe('Accepted');
    await c.call('StopTransaction', { transactionId: other.transactionId, meterStop: 1, timestamp: new Date().toISOString() });
    const mine: any = await c.call('StartTransaction', { connectorId: 1, idTag: 'T-1', meterStart: 0, timestamp: new Date().toISOString() });
    const row = await eventually(async () => ((await rsr(id)).status === 'Charging' ? rsr(id) : null));
    expect(row).toMatchObject({ tran_id: mine.transactionId });
  });

  it('a cheaper campaign that applies prices the units; one whose rules exclude today does not', async () => {
    const r = await ratedCharger(s.db, 'CAMP-1', { fee: 600 });
    await online('CAMP-1');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: s.app.config.timeZone }).format(new Date());
    const [excluded] = await s.db.query(`INSERT INTO campaign (name, fee, "isAllCpLocFlag") VALUES ('closed today', 100, 1) RETURNING id`);
    await s.db.query(`INSERT INTO campaign_rule ("campaignId", "campaignRuleTypeCode", "campaignRuleConfig") VALUES ($1, 'DateExclude', $2)`, [excluded.id, JSON.stringify([today])]);
    const [weekly] = await s.db.query(`INSERT INTO campaign (name, fee, "locIds") VALUES ('every day here', 450, $1) RETURNING id`, [[r.locId]]);
    await s.db.query(`INSERT INTO campaign_rule ("campaignId", "campaignRuleTypeCode", "campaignRuleConfig") VALUES ($1, 'DayInclude', '["1-7"]')`, [weekly.id]);
    const id = (await start(r.cpId, { connectorId: 1, time: '45' })).body.data.rsrId as number;
    // 3 units at the campaign's 4.50 rather than the scheme's 6.00.
    expect(await rsr(id)).toMatchObject({ charging_fee: 1350, campaign_id: weekly.id, max_charging_unit: 3 });
  });
});
