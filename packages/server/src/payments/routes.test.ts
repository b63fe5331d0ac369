import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { autoPay } from './collect.ts';
import { addUnsettledRsr, startStubGateway, type StubGateway } from './test-support.ts';

const READ_DETAIL = readPrivilege('payment_result_detail');
const READ_RSR = readPrivilege('cp_rsr');

describe('retrying a failed payment and settling an RSR by hand', () => {
  let s: TestServer;
  let stub: StubGateway;
  let admin: string;
  let siteA: number;
  let cpA: number;
  let cpB: number;
  const api = (method: string, path: string, token = admin, body?: unknown) => s.api(method, path, { token, body });
  const retry = (id: number, token = admin) => api('GET', `/api/payment_result_detail/retry/${id}`, token);
  const settle = (rsrId: unknown, token = admin) => api('POST', '/api/cp_rsr/setup_settled/', token, { rsr_id: rsrId });
  const lastDetail = async (resultId: number) =>
    (await s.db.query(`SELECT * FROM payment_result_detail WHERE "resultId" = $1 ORDER BY id DESC LIMIT 1`, [resultId]))[0];
  const rsrState = async (rsrId: number) =>
    (await s.db.query(
      `SELECT r.status, r.payment_status, pr.status AS payment, r.settled_time IS NOT NULL AS settled
       FROM cp_rsr r JOIN payment_result pr ON pr.rsr_id = r.rsr_id WHERE r.rsr_id = $1`,
      [rsrId],
    ))[0];
  const audits = async (target: string) => (await s.db.query(`SELECT count(*)::int AS n FROM portal_action_log WHERE target = $1`, [target]))[0].n;

  /** An RSR whose automatic payment the gateway declined: its AutoPay detail in Error. */
  async function failedAutoPay(cpId = cpA, amount = 1500) {
    const made = await addUnsettledRsr(s.db, cpId, { amount });
    stub.answers.push('decline');
    await autoPay(s.app, made.rsrId);
    const d = await lastDetail(made.resultId);
    expect([d.actionType, d.status]).toEqual(['AutoPay', 'Error']);
    return { ...made, detailId: Number(d.id) };
  }

  beforeAll(async () => {
    stub = await startStubGateway();
    s = await startTestServer({ paymentGateway: { url: stub.url, key: stub.key, timeoutMs: 500 } });
    admin = await s.login();
    siteA = await addSite(s.db);
    cpA = await addCharger(s.db, 'RETRY-A', { locId: siteA });
    cpB = await addCharger(s.db, 'RETRY-B');
  });
  afterAll(async () => {
    await s.close();
    await stub.close();
  });

  it('retries an Error AutoPay through the gateway: Success settles the payment and the RSR, audited and logged', async () => {
    const { rsrId, resultId, detailId } = await failedAutoPay();
    const before = await audits('payment_result_detail');
    stub.answers.push('approve');
    expect((await retry(detailId)).body).toEqual({ status: 'Success' });
    const d = await lastDetail(resultId);
    expect(d).toMatchObject({ actionType: 'Retry', status: 'Success', amount: 1500, referenceMemberId: 'MEMBER-1', transactionReference: expect.stringMatching(/^TXN-/) });
    expect(await rsrState(rsrId)).toEqual({ status: 'Settled', payment_status: 'Settled', payment: 'Settled', settled: true });
    expect(await audits('payment_result_detail')).toBe(before + 1);
    const logs = await s.db.query(`SELECT request_data FROM cp_rsr_api_log WHERE rsr_id = $1 AND api_log_type = 'payment' ORDER BY api_log_id`, [rsrId]);
    expect(logs.length).toBe(2);
    expect(logs[1].request_data.requestReference).not.toBe(logs[0].request_data.requestReference);
    expect(JSON.stringify(logs)).not.toContain(stub.key);
    // Settled now: the same detail cannot be retried again.
    expect((await retry(detailId)).body).toEqual({ status: 'error', errorCode: 40002 });
  });

  it('answers a declined retry with an error code, keeps the RSR Unsettled, and refuses a second retry (40003)', async () => {
    const { rsrId, resultId, detailId } = await failedAutoPay();
    stub.answers.push('decline');
    expect((await retry(detailId)).body).toEqual({ status: 'error', errorCode: 21005, message: 'Insufficient funds' });
    const d = await lastDetail(resultId);
    expect([d.actionType, d.status]).toEqual(['Retry', 'Error']);
    // The gateway's reason is kept with each attempt and listed in the payment results.
    const listed = (await api('GET', `/api/payment_result_detail?resultId=${resultId}&sort_by=id&order=asc`)).body.dataset.content;
    expect(listed.map((r: any) => [r.actionType, r.status, r.gatewayMessage])).toEqual([
      ['AutoPay', 'Error', 'Insufficient funds'],
      ['Retry', 'Error', 'Insufficient funds'],
    ]);
    expect(await rsrState(rsrId)).toMatchObject({ status: 'Unsettled', payment: 'Unsettled' });
    const calls = stub.calls.length;
    expect((await retry(detailId)).body).toEqual({ status: 'error', errorCode: 40003 });
    // A failed Retry is not itself retried (only an AutoPay is: spec §4).
    expect((await retry(Number(d.id))).body).toEqual({ status: 'error', errorCode: 40005 });
    expect(stub.calls.length).toBe(calls);
    // Staff settle it by hand instead.
    expect((await settle(rsrId)).body).toEqual({ status: 'success' });
  });

  it('refuses what may not be retried: unknown (40001), a settled payment (40002), other sites (40001), without the privilege (403)', async () => {
    expect((await retry(987654)).body).toEqual({ status: 'error', errorCode: 40001 });
    const ok = await addUnsettledRsr(s.db, cpA);
    stub.answers.push('approve');
    await autoPay(s.app, ok.rsrId);
    const success = await lastDetail(ok.resultId);
    // The payment is settled: that answer comes first.
    expect((await retry(Number(success.id))).body).toEqual({ status: 'error', errorCode: 40002 });

    const { detailId, resultId } = await failedAutoPay(cpB);
    const siteUser = await userWith(s, 'retry-site-a', [READ_DETAIL, P.RETRY_ERROR_PAYMENT], [siteA]);
    expect((await retry(detailId, siteUser)).body).toEqual({ status: 'error', errorCode: 40001 });
    const noPrivilege = await userWith(s, 'retry-reader', [READ_DETAIL], 'all');
    expect((await retry(detailId, noPrivilege)).status).toBe(403);
    expect((await lastDetail(resultId)).actionType).toBe('AutoPay');
    // Not a number, not this resource (its params schema names the one key): 400, nothing tried.
    expect((await retry('x' as unknown as number)).status).toBe(400);
    expect((await api('GET', `/api/cp_rsr/retry/${detailId}`)).status).toBe(400);
    // A site user with the privilege may retry at their own site.
    const mine = await failedAutoPay(cpA);
    stub.answers.push('approve');
    expect((await retry(mine.detailId, siteUser)).body).toEqual({ status: 'Success' });
  });

  it('retries once when asked twice at the same time: one attempt, the other answered 40003', async () => {
    const { rsrId, resultId, detailId } = await failedAutoPay();
    let release!: () => void;
    stub.gate = new Promise<void>((ok) => (release = ok));
    const calls = stub.calls.length;
    stub.answers.push('approve');
    const both = Promise.all([retry(detailId), retry(detailId)]);
    await new Promise((r) => setTimeout(r, 300));
    release();
    const answers = (await both).map((r) => r.body);
    stub.gate = undefined;
    expect(answers).toEqual(expect.arrayContaining([{ status: 'Success' }, { status: 'error', errorCode: 40003 }]));
    expect(stub.calls.length - calls).toBe(1);
    expect((await s.db.query(`SELECT "actionType", status FROM payment_result_detail WHERE "resultId" = $1 ORDER BY id`, [resultId])))
      .toEqual([{ actionType: 'AutoPay', status: 'Error' }, { actionType: 'Retry', status: 'Success' }]);
    expect((await rsrState(rsrId)).status).toBe('Settled');
  });

  it('settles an Unsettled RSR by hand: a Manual Success detail, the payment and the RSR Settled, audited', async () => {
    const { rsrId, resultId } = await addUnsettledRsr(s.db, cpA, { amount: 2300 });
    const before = await audits('cp_rsr');
    const calls = stub.calls.length;
    expect((await settle(rsrId)).body).toEqual({ status: 'success' });
    expect(stub.calls.length).toBe(calls);
    expect(await lastDetail(resultId)).toMatchObject({ actionType: 'Manual', status: 'Success', amount: 2300, transactionReference: null, autoPaymentExpiredTime: null });
    expect(await rsrState(rsrId)).toEqual({ status: 'Settled', payment_status: 'Settled', payment: 'Settled', settled: true });
    expect(await audits('cp_rsr')).toBe(before + 1);
    expect((await settle(rsrId)).body).toEqual({ status: 'error', errorCode: 40002 });
    // An automatic payment after that charges nothing.
    await autoPay(s.app, rsrId);
    expect(stub.calls.length).toBe(calls);
  });

  it('refuses to settle an unknown RSR (10007), one not Unsettled (10013), another site\'s (10007), bad input (400), without the privilege (403)', async () => {
    expect((await settle(999_999)).body).toEqual({ status: 'error', errorCode: 10007 });
    const charging = await addUnsettledRsr(s.db, cpA, { status: 'Charging', paymentStatus: null });
    expect((await settle(charging.rsrId)).body).toEqual({ status: 'error', errorCode: 10013 });
    expect((await rsrState(charging.rsrId)).status).toBe('Charging');
    const other = await addUnsettledRsr(s.db, cpB);
    const siteUser = await userWith(s, 'settle-site-a', [READ_RSR, P.SETTLED_BUTTON], [siteA]);
    expect((await settle(other.rsrId, siteUser)).body).toEqual({ status: 'error', errorCode: 10007 });
    for (const body of [{}, { rsr_id: 'abc' }, { rsr_id: -1 }, { rsr_id: 1, extra: 1 }]) {
      expect((await api('POST', '/api/cp_rsr/setup_settled/', admin, body)).status, JSON.stringify(body)).toBe(400);
    }
    const reader = await userWith(s, 'settle-reader', [READ_RSR], 'all');
    expect((await settle(other.rsrId, reader)).status).toBe(403);
    expect(await rsrState(other.rsrId)).toMatchObject({ status: 'Unsettled', payment: 'Unsettled' });
    // The string form the portal may send is accepted.
    expect((await settle(String(other.rsrId))).body).toEqual({ status: 'success' });
  });

  it('refuses to settle by hand while a gateway attempt is under way (it would collect twice)', async () => {
    const { rsrId } = await addUnsettledRsr(s.db, cpA);
    let release!: () => void;
    stub.gate = new Promise<void>((ok) => (release = ok));
    const paying = autoPay(s.app, rsrId);
    while (!(await s.db.query(`SELECT 1 FROM payment_result_detail d JOIN payment_result pr ON pr.id = d."resultId" WHERE pr.rsr_id = $1`, [rsrId])).length) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await settle(rsrId)).body).toEqual({ status: 'error', errorCode: 40005 });
    release();
    await paying;
    stub.gate = undefined;
    expect((await rsrState(rsrId)).status).toBe('Settled');
  });
});

describe('the payment_result_detail list', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer({ paymentGateway: undefined });
    admin = await s.login();
  });
  afterAll(() => s.close());

  it('shows dollars, the RSR link and payment status, whether Retry applies, newest first, per site, debug columns for cstDebug only', async () => {
    const siteA = await addSite(s.db);
    const cpA = await addCharger(s.db, 'LIST-A', { locId: siteA });
    const cpB = await addCharger(s.db, 'LIST-B');
    const a = await addUnsettledRsr(s.db, cpA, { amount: 1234 });
    const b = await addUnsettledRsr(s.db, cpB, { amount: 99 });
    await s.db.query(
      `INSERT INTO payment_result_detail ("resultId", amount, status, "actionType", "shkHeader") VALUES ($1, 1234, 'Error', 'AutoPay', 'h'), ($2, 99, 'Error', 'AutoPay', 'h'), ($2, 99, 'Error', 'Retry', 'h')`,
      [a.resultId, b.resultId],
    );
    const list = await s.api('GET', '/api/payment_result_detail?size=10&page=0', { token: admin });
    expect(list.status).toBe(200);
    const rows = list.body.dataset.content;
    expect(rows.map((r: any) => [r.rsr_id, r.amount, r.status, r.actionType, r.paymentStatus, r.retryable])).toEqual([
      [b.rsrId, 0.99, 'Error', 'Retry', 'Unsettled', false],
      [b.rsrId, 0.99, 'Error', 'AutoPay', 'Unsettled', false],
      [a.rsrId, 12.34, 'Error', 'AutoPay', 'Unsettled', true],
    ]);
    expect(rows[0].shkHeader).toBe('h');

    const siteUser = await userWith(s, 'list-site-a', [READ_DETAIL], [siteA]);
    const mine = (await s.api('GET', '/api/payment_result_detail?size=10&page=0', { token: siteUser })).body.dataset.content;
    expect(mine.map((r: any) => r.rsr_id)).toEqual([a.rsrId]);
    expect(mine[0]).not.toHaveProperty('shkHeader');
    expect((await s.api('GET', `/api/payment_result_detail/${rows[0].id}`, { token: siteUser })).status).toBeGreaterThanOrEqual(403);
    // View-only: no writes through the engine.
    expect((await s.api('POST', '/api/payment_result_detail', { token: admin, body: { amount: 1 } })).status).toBeGreaterThanOrEqual(400);
    const excel = await s.api('GET', '/api/payment_result_detail/export/excel?headers=ID&keys=id&sheetName=x', { token: admin });
    expect(excel.status).toBe(200);

    // No gateway configured: a retry is refused and nothing is recorded (manual settlement only).
    const retried = await s.api('GET', `/api/payment_result_detail/retry/${rows[2].id}`, { token: admin });
    expect(retried.body).toEqual({ status: 'error', errorCode: 21005, message: 'No payment gateway is configured: settle the payment by hand' });
    expect((await s.db.query(`SELECT count(*)::int AS n FROM payment_result_detail`))[0].n).toBe(3);
  });
});
