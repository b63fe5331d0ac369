import type { RedisLink } from './redis.ts';

/** Extends a lease only while this node still holds it. */
const RENEW_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const DELETE_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Named leases in Redis: at most one node holds each at a time (LMS sites, cluster-wide periodic
 * jobs). A lease is taken with SET NX and kept by renewing it well before it expires; a node that
 * dies stops renewing, and another takes the lease once it has expired. This node counts a lease
 * as held only until its own expiry minus a margin, so two nodes never both believe they hold it
 * (clock rates aside) even when Redis cannot be reached to tell.
 */
export class Leases {
  /** Lease name → until when (local ms) this node may act on it. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly link: RedisLink,
    readonly ttlMs: number,
  ) {}

  private key(name: string): string {
    return `${this.link.prefix}lease:${name}`;
  }

  holds(name: string): boolean {
    const until = this.held.get(name);
    return until !== undefined && until > Date.now();
  }

  /**
   * Takes the lease if free, or renews it if this node holds it. Answers whether this node holds it
   * now; a Redis error counts as not held (the local expiry still covers what was held). The caller
   * renews well within ttlMs (a third of it): a lease that lapses between renewals changes hands.
   */
  async acquire(name: string, ttlMs = this.ttlMs): Promise<boolean> {
    const started = Date.now();
    const key = this.key(name);
    try {
      let ok: boolean;
      if (this.held.has(name)) {
        ok = ((await this.link.cmd.eval(RENEW_IF_OWNER, 1, key, this.link.nodeId, ttlMs)) as number) === 1;
      } else {
        ok = (await this.link.cmd.set(key, this.link.nodeId, 'PX', ttlMs, 'NX')) === 'OK';
      }
      // Counted from before the call: the lease may have been set at any moment during it.
      if (ok) this.held.set(name, started + ttlMs - Math.min(ttlMs / 3, 2000));
      else this.held.delete(name);
      return ok;
    } catch {
      return this.holds(name);
    }
  }

  async release(name: string): Promise<void> {
    this.held.delete(name);
    await this.link.cmd.eval(DELETE_IF_OWNER, 1, this.key(name), this.link.nodeId).catch(() => undefined);
  }

  /** Names of the leases this node holds now. */
  heldNames(): string[] {
    return [...this.held.keys()].filter((n) => this.holds(n));
  }
}
