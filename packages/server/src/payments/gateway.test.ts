import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { gatewayOf, HttpGateway } from './gateway.ts';
import { startStubGateway, type StubGateway } from './test-support.ts';

describe('the HTTP payment gateway against a real HTTP stub', () => {
  let stub: StubGateway;
  let gateway: HttpGateway;
  const request = (ref: string) => ({ requestReference: ref, memberId: 'M-9', amount: 1550, currency: 'HKD' as const, rsrId: 42 });

  beforeAll(async () => {
    stub = await startStubGateway();
    gateway = new HttpGateway(stub.url, stub.key, 400);
  });
  afterAll(() => stub.close());

  it('posts the charge as JSON with the key as a bearer header and reads an approval', async () => {
    stub.answers.push('approve');
    const out = await gateway.charge(request('R-1'));
    expect(out).toMatchObject({ approved: true, transactionReference: expect.stringMatching(/^TXN-/), message: 'Approved' });
    const call = stub.calls.at(-1)!;
    expect(call.body).toEqual(request('R-1'));
    expect(call.headers.authorization).toBe(`Bearer ${stub.key}`);
    expect(call.headers['content-type']).toBe('application/json');
  });

  it('answers not approved for a decline, an HTTP error, garbage, a malformed answer, a timeout and no gateway at all', async () => {
    const outcomes: Record<string, string> = {};
    for (const answer of ['decline', 'error', 'garbage', 'malformed', 'hang'] as const) {
      stub.answers.push(answer);
      const started = Date.now();
      const out = await gateway.charge(request(answer));
      expect(out.approved, answer).toBe(false);
      expect(Date.now() - started, answer).toBeLessThan(3000);
      outcomes[answer] = out.approved ? '' : out.message;
    }
    expect(outcomes).toEqual({
      decline: 'Insufficient funds',
      error: 'Gateway answered HTTP 500',
      garbage: 'Malformed gateway answer',
      malformed: 'Malformed gateway answer',
      hang: 'No answer within 400 ms',
    });
    // A wrong key is the gateway's refusal (401), never an approval.
    const wrongKey = await new HttpGateway(stub.url, 'wrong', 400).charge(request('K'));
    expect(wrongKey).toMatchObject({ approved: false, message: 'Gateway answered HTTP 401' });
    const closed = await startStubGateway();
    await closed.close();
    const unreachable = await new HttpGateway(closed.url, 'k', 400).charge(request('U'));
    expect(unreachable.approved).toBe(false);
    expect(unreachable.approved === false && unreachable.message).toMatch(/^Gateway unreachable/);
  });

  it('is configured by PAYMENT_GATEWAY_URL, _KEY and _TIMEOUT_MS; without a URL there is none (manual settlement)', () => {
    expect(gatewayOf(loadConfig({}))).toBeUndefined();
    expect(loadConfig({ PAYMENT_GATEWAY_URL: 'https://pay.example/charge', PAYMENT_GATEWAY_KEY: 'k1' }).paymentGateway).toEqual({
      url: 'https://pay.example/charge',
      key: 'k1',
      timeoutMs: 10_000,
    });
    const g = gatewayOf(loadConfig({ PAYMENT_GATEWAY_URL: 'https://pay.example/charge', PAYMENT_GATEWAY_TIMEOUT_MS: '2500' }));
    expect(g?.url).toBe('https://pay.example/charge');
  });
});
