import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis of the tests of several nodes (TEST_REDIS_URL): absent, those tests skip. */
export const testRedisUrl = process.env.TEST_REDIS_URL;

/**
 * A key prefix of one test file's own on the shared Redis, a client to look at its keys, and
 * cleanUp() (afterAll) deleting every key under it.
 */
export function testRedis(): { prefix: string; client(): Redis; cleanUp(): Promise<void> } {
  const prefix = `test-${randomBytes(4).toString('hex')}:`;
  let client: Redis | undefined;
  return {
    prefix,
    client: () => (client ??= new Redis(testRedisUrl!)),
    async cleanUp() {
      const redis = (client ??= new Redis(testRedisUrl!));
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
