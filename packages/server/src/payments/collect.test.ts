import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger } from '../testing/ocpp-support.ts';
import { autoPay } from './collect.ts';
import { addUnsettledRsr, startStubGateway, type StubGateway } from './test-support.ts';

const state = async (s: TestServer, rsrId: number) => {
  const [row] = await s.db.query(
    `SELECT r.status, r.payment_status, r.settled_time IS NOT NULL AS settled_time, pr.status AS payment
     FROM cp_rsr r JOIN payment_result pr ON pr.rsr_id = r.rsr_id WHERE r.rsr_id = $1`,
    [rsrId],
  );
  return row;
};
const details = (s: TestServer, resultId: number) =>
  s.db.query(`SELECT * FROM payment_result_detail WHERE "resultId" = $1 ORDER BY id`, [resultId]);
const apiLog = (s: TestServer, rsrId: number) => s.db.query(`SELECT * FROM cp_rsr_api_log WHERE rsr_id = $1 ORDER BY api_log_id`, [rsrId]);

describe('automatic payment of an Unsettled RSR through the gateway', () => {
  let s: TestServer;
  let stub: StubGateway;
  let cpId: number;

  beforeAll(async () => {
    stub = await startStubGateway();
    s = await startTestServer({ paymentGateway: { url: stub.url, key: stub.key, timeoutMs: 500 } });
    cpId = await addCharger(s.db, 'PAY-CP-1');
  });
  afterAll(async () => {
    await s.close();
    await stub.close();
  });

  it('settles the RSR when the gateway approves, with every figure of the RSR in the attempt and the call logged without the key', async () => {
    const { rsrId, resultId } = await addUnsettledRsr(s.db, cpId, { amount: 1550, member: 'MEMBER-A' });
    stub.answers.push('approve');
    await autoPay(s.app, rsrId);

    const [call] = stub.calls.slice(-1);
    expect(call.body).toEqual({ requestReference: expect.any(String), memberId: 'MEMBER-A', amount: 1550, currency: 'HKD', rsrId });
    expect(call.headers.authorization).toBe(`Bearer ${stub.key}`);

    const [d] = await details(s, resultId);
    expect(d).toMatchObject({
      actionType: 'AutoPay', status: 'Success', transactionReference: expect.stringMatching(/^TXN-/), requestReference: call.body.requestReference,
      referenceMemberId: 'MEMBER-A', paymentType: 'ChargingAndPenalty', amount: 1550, point: 5, redeemVoucherSessions: 1, currentUnitSession: 2,
      // Finished 11:02:30, grace period ended 10:45: 17 whole minutes past it.
      penaltyDuration: 17,
    });
    for (const t of ['startTime', 'endTime', 'gracingPeriodEndDttm', 'actualFinishedTime', 'autoPaymentExpiredTime']) expect(d[t], t).toBeInstanceOf(Date);
    expect(new Date(d.startTime).toISOString()).toBe('2026-11-20T02:00:00.000Z');
    expect(await state(s, rsrId)).toEqual({ status: 'Settled', payment_status: 'Settled', settled_time: true, payment: 'Settled' });

    const [log] = await apiLog(s, rsrId);
    expect(log).toMatchObject({ api_log_type: 'payment', url: stub.url, request_data: call.body });
    expect(log.response_data).toMatchObject({ httpStatus: 200, body: { status: 'Approved', transactionReference: d.transactionReference } });
    expect(JSON.stringify(log)).not.toContain(stub.key);

    // Once settled, another call changes nothing and charges nothing.
    const calls = stub.calls.length;
    await autoPay(s.app, rsrId);
    expect([stub.calls.length, (await details(s, resultId)).length]).toEqual([calls, 1]);
  });

  it('records an Error and leaves the RSR Unsettled on a decline, HTTP 500, garbage or a timeout, and never throws', async () => {
    for (const answer of ['decline', 'error', 'garbage', 'hang'] as const) {
      const { rsrId, resultId } = await addUnsettledRsr(s.db, cpId);
      stub.answers.push(answer);
      await expect(autoPay(s.app, rsrId)).resolves.toBeUndefined();
      const rows = await details(s, resultId);
      expect(rows.map((r) => [r.actionType, r.status, r.transactionReference]), answer).toEqual([['AutoPay', 'Error', null]]);
      expect(await state(s, rsrId), answer).toEqual({ status: 'Unsettled', payment_status: 'Unsettled', settled_time: false, payment: 'Unsettled' });
      const logs = await apiLog(s, rsrId);
      expect(logs.length, answer).toBe(1);
      expect(JSON.stringify(logs[0])).not.toContain(stub.key);
      // The automatic payment is tried once; a retry is staff's call.
      const calls = stub.calls.length;
      await autoPay(s.app, rsrId);
      expect(stub.calls.length, answer).toBe(calls);
    }
    // Nothing to pay for an RSR that is not there.
    await expect(autoPay(s.app, 999_999)).resolves.toBeUndefined();
  });

  it('charges once when called twice at the same time for the same RSR', async () => {
    const { rsrId, resultId } = await addUnsettledRsr(s.db, cpId, { amount: 800 });
    let release!: () => void;
    stub.gate = new Promise<void>((ok) => (release = ok));
    const calls = stub.calls.length;
    const both = Promise.all([autoPay(s.app, rsrId), autoPay(s.app, rsrId)]);
    await new Promise((r) => setTimeout(r, 200));
    release();
    await both;
    stub.gate = undefined;
    expect(stub.calls.length - calls).toBe(1);
    expect((await details(s, resultId)).map((r) => r.status)).toEqual(['Success']);
    expect((await state(s, rsrId)).status).toBe('Settled');
  });
});

describe('without a payment gateway: manual settlement', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ paymentGateway: undefined });
  });
  afterAll(() => s.close());

  it('records nothing as paid and leaves the RSR Unsettled for staff', async () => {
    const cpId = await addCharger(s.db, 'PAY-MANUAL');
    const { rsrId, resultId } = await addUnsettledRsr(s.db, cpId);
    await autoPay(s.app, rsrId);
    expect(await details(s, resultId)).toEqual([]);
    expect(await apiLog(s, rsrId)).toEqual([]);
    expect(await state(s, rsrId)).toEqual({ status: 'Unsettled', payment_status: 'Unsettled', settled_time: false, payment: 'Unsettled' });
  });
});
