import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger } from '../testing/ocpp-support.ts';
import { autoPay } from './collect.ts';
import { addUnsettledRsr, startStubGateway, type StubGateway } from './test-support.ts';

/** Spec 40004 (invalid record): a failed payment of an RSR that names no member cannot go back to the gateway. */
describe('retrying the payment of an RSR without a member', () => {
  let s: TestServer;
  let stub: StubGateway;
  let admin: string;

  beforeAll(async () => {
    stub = await startStubGateway();
    s = await startTestServer({ paymentGateway: { url: stub.url, key: stub.key, timeoutMs: 500 } });
    admin = await s.login();
  });
  afterAll(async () => {
    await s.close();
    await stub.close();
  });

  it('answers 40004 and sends nothing; staff settle it by hand', async () => {
    const cpId = await addCharger(s.db, 'NO-MEMBER');
    const { rsrId, resultId } = await addUnsettledRsr(s.db, cpId, { member: ' ' });
    stub.answers.push('decline');
    await autoPay(s.app, rsrId);
    const [d] = await s.db.query(`SELECT id FROM payment_result_detail WHERE "resultId" = $1 AND "actionType" = 'AutoPay' AND status = 'Error'`, [resultId]);
    const calls = stub.calls.length;
    const res = await s.api('GET', `/api/payment_result_detail/retry/${d.id}`, { token: admin });
    expect(res.body).toEqual({ status: 'error', errorCode: ERROR_CODES.INVALID_RECORD });
    expect(stub.calls.length).toBe(calls);
    expect((await s.api('POST', '/api/cp_rsr/setup_settled/', { token: admin, body: { rsr_id: rsrId } })).body).toEqual({ status: 'success' });
  });
});
