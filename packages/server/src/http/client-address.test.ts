import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/server.ts';
import { clientAddress, parseTrustProxy, trustFunction } from './client-address.ts';

const request = (peer: string, forwardedFor?: string) =>
  ({ headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}, socket: { remoteAddress: peer }, connection: { remoteAddress: peer } }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('is read as none, a hop count or a list of proxy addresses', () => {
    expect([undefined, '', 'false', '0'].map(parseTrustProxy)).toEqual([false, false, false, false]);
    expect([parseTrustProxy('true'), parseTrustProxy('2'), parseTrustProxy(' 10.0.0.0/8, loopback ')]).toEqual([1, 2, ['10.0.0.0/8', 'loopback']]);
  });

  it('decides whether X-Forwarded-For names the client', () => {
    const chain = '198.51.100.7, 203.0.113.9';
    // None: the TCP peer, whatever a client writes in the header.
    expect(clientAddress(request('192.0.2.1', chain), trustFunction(false))).toBe('192.0.2.1');
    // One hop: the address the nearest proxy saw (the last one it appended), not what the client wrote before it.
    expect(clientAddress(request('10.0.0.5', chain), trustFunction(1))).toBe('203.0.113.9');
    // Named proxies: only they are skipped.
    expect(clientAddress(request('10.0.0.5', chain), trustFunction(['10.0.0.0/8']))).toBe('203.0.113.9');
    expect(clientAddress(request('192.0.2.1', chain), trustFunction(['10.0.0.0/8']))).toBe('192.0.2.1');
  });
});

describe('the signed-in address behind and without a proxy', () => {
  let direct: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    [direct, proxied] = await Promise.all([startTestServer(), startTestServer({ trustProxy: ['loopback'] })]);
  });
  afterAll(() => Promise.all([direct.close(), proxied.close()]));

  const signIn = (s: TestServer) =>
    s.api('POST', '/api/login', { body: { username: 'admin', password: TEST_ADMIN_PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.9' } });
  const loggedIp = async (s: TestServer) => (await s.db.query(`SELECT ip FROM user_log WHERE type = 'LOGIN' ORDER BY user_log_id DESC LIMIT 1`))[0].ip;

  it('is the TCP peer by default, so a forged X-Forwarded-For changes nothing (the per-address sign-in limit holds)', async () => {
    expect((await signIn(direct)).status).toBe(200);
    expect(await loggedIp(direct)).toBe('127.0.0.1');
  });

  it('is the forwarded client when the peer is a trusted proxy', async () => {
    expect((await signIn(proxied)).status).toBe(200);
    expect(await loggedIp(proxied)).toBe('203.0.113.9');
  });
});
