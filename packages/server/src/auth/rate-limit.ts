import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { redisInTime, type RedisLink } from '../cluster/redis.ts';
import { SummarisedLog } from '../ocpp/summarised-log.ts';

/**
 * How long until a key may try again, given its failure times in the window (oldest first): until
 * enough of them have left the window to bring the count under the limit; 0 when it may now.
 */
function waitMs(times: number[], limit: number, windowMs: number, now: number): number {
  return times.length < limit ? 0 : Math.max(1, times[times.length - limit] + windowMs - now);
}

/**
 * Counts failures per key in a sliding window. In memory: each server node limits on its own
 * (sign-ins on several nodes use SharedFailureLimiter below).
 */
export class FailureLimiter {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  blocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.limit;
  }

  /** Milliseconds until the key may try again (0: now), for a Retry-After. */
  retryAfterMs(key: string, now = Date.now()): number {
    return waitMs(this.recent(key, now), this.limit, this.windowMs, now);
  }

  fail(key: string, now = Date.now()): void {
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

/** How long a sign-in waits for Redis before counting on this node alone. */
const REDIS_WAIT_MS = 500;

/**
 * FailureLimiter shared by every node through Redis (one sorted set of failure times per key),
 * so guessing a password on several nodes counts once. Sign-in must not fail because Redis
 * blinked: while Redis is down or slow, the call answers from this node's own count, which
 * every failure also goes to (a sign-in elsewhere clears Redis, not the other nodes' counts, so
 * those are asked only then).
 */
export class SharedFailureLimiter {
  private readonly local: FailureLimiter;
  private readonly unavailable: SummarisedLog;

  constructor(
    private readonly redis: RedisLink,
    /** Tells this limiter's keys from another's (per user, per address). */
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    log: FastifyBaseLogger,
  ) {
    this.local = new FailureLimiter(limit, windowMs);
    this.unavailable = new SummarisedLog(log, 'warn', `Redis unavailable: sign-in failures per ${name} counted on this node only`, 60_000);
  }

  private key(key: string): string {
    return `${this.redis.prefix}login-fail:${this.name}:${key}`;
  }

  /** The Redis call's answer, or undefined when Redis is not connected or does not answer in time. */
  private async shared<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await redisInTime(this.redis, call, REDIS_WAIT_MS);
    } catch (err) {
      this.unavailable.note('redis', { err: (err as Error).message });
      return undefined;
    }
  }

  /** Milliseconds until the key may try again (0: now), for a Retry-After. */
  async retryAfterMs(key: string, now = Date.now()): Promise<number> {
    const times = await this.shared(() => this.redis.cmd.zrangebyscore(this.key(key), `(${now - this.windowMs}`, '+inf', 'WITHSCORES'));
    if (times === undefined) return this.local.retryAfterMs(key, now);
    // Members and their scores (the failure times) alternate, oldest first.
    return waitMs(times.filter((_, i) => i % 2 === 1).map(Number), this.limit, this.windowMs, now);
  }

  async fail(key: string, now = Date.now()): Promise<void> {
    this.local.fail(key, now);
    const k = this.key(key);
    await this.shared(() =>
      this.redis.cmd.multi()
        .zremrangebyscore(k, '-inf', now - this.windowMs)
        .zadd(k, now, `${now}:${randomBytes(6).toString('hex')}`)
        .pexpire(k, this.windowMs)
        .exec(),
    );
  }

  async clear(key: string): Promise<void> {
    this.local.clear(key);
    await this.shared(() => this.redis.cmd.del(this.key(key)));
  }
}
