import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * This node's link to Redis when REDIS_URL is set (several nodes share chargers): one client for
 * commands, one for subscriptions (a subscribed ioredis client can issue nothing else), and the
 * key prefix every key and channel of this deployment starts with (REDIS_PREFIX: tests and
 * several deployments can share one Redis).
 */
export interface RedisLink {
  /** Unique per process: what presence keys and per-node channels are named by. */
  nodeId: string;
  prefix: string;
  cmd: Redis;
  sub: Redis;
  close(): Promise<void>;
}

export function openRedis(url: string, prefix: string, log: FastifyBaseLogger): RedisLink {
  const options = {
    // Commands issued while Redis is away wait (bounded by their callers' own timeouts) instead of failing at once.
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    lazyConnect: false,
  };
  const cmd = new Redis(url, options);
  const sub = new Redis(url, options);
  let down = false;
  for (const [name, client] of [['commands', cmd], ['subscriptions', sub]] as const) {
    client.on('error', (err) => {
      if (!down) log.warn({ err: err.message, client: name }, 'Redis connection lost; reconnecting');
      down = true;
    });
    client.on('ready', () => {
      if (down) log.info({ client: name }, 'Redis connection back');
      down = false;
    });
  }
  return {
    nodeId: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    prefix,
    cmd,
    sub,
    async close() {
      // QUIT lets queued commands finish, but never returns while Redis is unreachable: wait a second at most.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([cmd.quit(), sub.quit()]), new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
      clearTimeout(timer);
      cmd.disconnect();
      sub.disconnect();
    },
  };
}

/**
 * A Redis command on a request's path, answered within `waitMs` or rejected: while Redis is not
 * connected ioredis would queue the command until it is, and the request would wait with it.
 */
export async function redisInTime<T>(link: RedisLink, call: (cmd: Redis) => Promise<T>, waitMs: number): Promise<T> {
  if (link.cmd.status !== 'ready') throw new Error(`Redis not connected (${link.cmd.status})`);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call(link.cmd),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${waitMs} ms`)), waitMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
