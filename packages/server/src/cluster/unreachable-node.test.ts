import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, BOOT, connectCharger, eventually } from '../testing/ocpp-support.ts';
import { freePort, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { TcpProxy } from '../testing/tcp-proxy.ts';
import { testRedis, testRedisUrl as redisUrl } from '../testing/redis.ts';

/**
 * A command through node B to a charger held by node A, when A cannot be reached: A a server
 * process of its own, frozen with SIGSTOP; or B cut off from Redis (through a relay) while A and
 * the charger go on. Needs TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const enabled = Boolean(redisUrl && process.env.TEST_DATABASE_URL);
const COMMAND_TIMEOUT_MS = 3000;

describe.skipIf(!enabled)('a command to a charger on a node that cannot be reached', () => {
  const { prefix, cleanUp } = testRedis();
  let redisProxy: TcpProxy;
  let b: TestServer;
  let a: ServerProcess;
  let token: string;
  let charger: RPCClient;
  let cpId: number;
  let idleId: number;

  beforeAll(async () => {
    const r = new URL(redisUrl!);
    redisProxy = await new TcpProxy(r.hostname, Number(r.port || 6379)).listen();
    b = await startTestServer({ redisUrl: redisProxy.via(redisUrl!), redisPrefix: prefix });
    const port = await freePort();
    a = await startServerProcess({ databaseUrl: b.databaseUrl, port, adminPassword: 'node-a-admin-password', env: { REDIS_URL: redisUrl!, REDIS_PREFIX: prefix } });
    cpId = await addCharger(b.db, 'FROZEN-1');
    idleId = await addCharger(b.db, 'FROZEN-IDLE');
    charger = await connectCharger(`ws://127.0.0.1:${port}`, 'FROZEN-1', { handlers: { TriggerMessage: () => ({ status: 'Accepted' }) } });
    await charger.call('BootNotification', BOOT);
    token = await b.login();
    b.app.ocpp.commands.timeoutMs = COMMAND_TIMEOUT_MS;
  }, 120_000);

  afterAll(async () => {
    a?.child.kill('SIGCONT');
    await charger?.close({ force: true }).catch(() => undefined);
    await a?.kill('SIGKILL');
    await b?.close();
    await cleanUp();
    await redisProxy?.close();
  });

  const trigger = (id: number) => b.api('GET', `/api/cps/triggerMessage/${id}?requestedMessage=Heartbeat`, { token });
  const reachable = async () => (await trigger(cpId)).body.status === 'success';

  it('while Redis is down: the node holding the charger cannot be reached, not "not connected"', async () => {
    expect(await eventually(reachable, 20_000)).toBe(true);
    redisProxy.outage(60_000);
    await eventually(async () => b.app.redis!.cmd.status !== 'ready');
    const during = await trigger(cpId);
    expect(during.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_NODE_UNREACHABLE, message: expect.stringMatching(/Redis/) });
    // A charger that is offline is still said to be so.
    expect((await trigger(idleId)).body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_OFFLINE });
    redisProxy.restore();
    expect(await eventually(reachable, 20_000)).toBe(true);
  }, 60_000);

  it('held by a frozen node: the outcome comes within the command timeout, naming the node', async () => {
    expect(await eventually(reachable, 20_000)).toBe(true);
    a.child.kill('SIGSTOP');
    try {
      const started = Date.now();
      const res = await trigger(cpId);
      const took = Date.now() - started;
      expect(res.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.CP_NODE_UNREACHABLE });
      expect(took).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 100);
      expect(took).toBeLessThan(COMMAND_TIMEOUT_MS + 500);
    } finally {
      a.child.kill('SIGCONT');
    }
    // Thawed, the node answers again.
    expect(await eventually(reachable, 20_000)).toBe(true);
  }, 60_000);
});
