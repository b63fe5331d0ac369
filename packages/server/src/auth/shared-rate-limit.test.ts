import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/server.ts';
import { TcpProxy } from '../testing/tcp-proxy.ts';
import { eventually } from '../testing/ocpp-support.ts';
import { testRedis, testRedisUrl as redisUrl } from '../testing/redis.ts';

/** Starting two servers on the embedded database takes long on a busy machine. */
const START_TIMEOUT_MS = 180_000;

/** Two nodes sharing one Redis: node B reaches it through a proxy that can cut it. */
describe.skipIf(!redisUrl)('sign-in rate limits shared through Redis', () => {
  const { prefix, cleanUp, client } = testRedis();
  let proxy: TcpProxy;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 6379)).listen();
    // One after the other: embedded databases share this thread, and a start starved of it misses Fastify's ready timeout.
    a = await startTestServer({ redisUrl, redisPrefix: prefix });
    b = await startTestServer({ redisUrl: proxy.via(redisUrl!), redisPrefix: prefix });
    await eventually(async () => a.app.redis!.cmd.status === 'ready' && b.app.redis!.cmd.status === 'ready');
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await proxy?.close();
    await cleanUp();
  });

  const signIn = (node: TestServer, username: string, password: string) =>
    node.api('POST', '/api/login', { body: { username, password } });

  it('counts failures on node A on node B: B refuses even the right password with 429', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(a, 'admin', `wrong-${i}`)).status).toBe(400);
    expect(await client().zcard(`${prefix}login-fail:user:admin`)).toBe(10);
    const refused = await signIn(b, 'admin', TEST_ADMIN_PASSWORD);
    // Retry-After: until the first of A's failures leaves the 15-minute window.
    expect([refused.status, Number(refused.headers.get('retry-after'))]).toEqual([429, expect.any(Number)]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890);
    expect((await signIn(a, 'admin', TEST_ADMIN_PASSWORD)).status).toBe(429);
    // Per username: another one still gets its answer.
    expect((await signIn(b, 'someone-else', 'wrong')).status).toBe(400);
  });

  it('a successful sign-in on one node clears the count for all', async () => {
    for (let i = 0; i < 9; i++) expect((await signIn(b, 'ADMIN2', `wrong-${i}`)).status).toBe(400);
    await a.app.db.query(`UPDATE users SET username = 'admin2' WHERE username = 'admin'`);
    expect((await signIn(a, 'admin2', TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect(await client().exists(`${prefix}login-fail:user:admin2`)).toBe(0);
    // Back to a full allowance: 9 more failures on B are answered, not refused.
    for (let i = 0; i < 9; i++) expect((await signIn(b, 'admin2', `again-${i}`)).status).toBe(400);
  });

  it('while Redis is unreachable, sign-in still answers and limits on this node alone', async () => {
    proxy.outage(60_000);
    await eventually(async () => b.app.redis!.cmd.status !== 'ready');
    const user = 'outage-user';
    for (let i = 0; i < 10; i++) expect((await signIn(b, user, `wrong-${i}`)).status).toBe(400);
    expect((await signIn(b, user, 'wrong')).status).toBe(429);
    // Node A, still connected, never heard of these failures.
    expect(await client().exists(`${prefix}login-fail:user:${user}`)).toBe(0);
    expect((await signIn(a, user, 'wrong')).status).toBe(400);

    // Redis back: B counts there again (and closes cleanly: a client cut off may hold its QUIT).
    proxy.restore();
    await eventually(async () => b.app.redis!.cmd.status === 'ready', 15_000);
    expect((await signIn(b, 'after-outage', 'wrong')).status).toBe(400);
    expect(await client().zcard(`${prefix}login-fail:user:after-outage`)).toBe(1);
  });
});
