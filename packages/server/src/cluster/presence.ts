import type { RedisLink } from './redis.ts';

/** A presence key lives this long unless its node refreshes it: a node that dies loses its chargers after it. */
export const PRESENCE_TTL_MS = 30_000;
/** How often a node refreshes its chargers' presence keys and its own liveness. */
export const PRESENCE_REFRESH_MS = 10_000;
/** Keys written per pipeline when a node refreshes thousands of chargers. */
const CHUNK = 1000;

/** Deletes a key only while it still holds the value given (the node that owns it). */
const DELETE_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * chargeBoxId → node, in Redis: which node holds each charger's socket. A node claims a charger
 * when it connects (learning which node held it before, so that node can drop its stale socket),
 * refreshes its claims while they stay connected, and gives a claim up only while it still owns it.
 */
export class Presence {
  constructor(private readonly link: RedisLink) {}

  private key(cpId: number): string {
    return `${this.link.prefix}cp:${cpId}`;
  }

  /** Claims a charger for this node; answers the node that held it before, if another. */
  async claim(cpId: number): Promise<string | null> {
    const previous = await this.link.cmd.set(this.key(cpId), this.link.nodeId, 'PX', PRESENCE_TTL_MS, 'GET');
    return previous && previous !== this.link.nodeId ? previous : null;
  }

  /** Gives a charger's claim up; false when another node holds it now (the charger moved there). */
  async release(cpId: number): Promise<boolean> {
    const key = this.key(cpId);
    const deleted = (await this.link.cmd.eval(DELETE_IF_OWNER, 1, key, this.link.nodeId)) as number;
    if (deleted) return true;
    return (await this.link.cmd.get(key)) === null;
  }

  /** The node holding a charger, or null when none does. */
  nodeOf(cpId: number): Promise<string | null> {
    return this.link.cmd.get(this.key(cpId));
  }

  /** Which of these chargers have a node now (several thousand at a time, in chunks). */
  async present(cpIds: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < cpIds.length; i += CHUNK) {
      const ids = cpIds.slice(i, i + CHUNK);
      const nodes = await this.link.cmd.mget(ids.map((id) => this.key(id)));
      ids.forEach((id, j) => nodes[j] !== null && out.add(id));
    }
    return out;
  }

  /** Re-asserts this node's claims (also after Redis restarted empty) and its own liveness. */
  async refresh(cpIds: number[]): Promise<void> {
    for (let i = 0; i < cpIds.length; i += CHUNK) {
      const pipeline = this.link.cmd.pipeline();
      for (const id of cpIds.slice(i, i + CHUNK)) pipeline.set(this.key(id), this.link.nodeId, 'PX', PRESENCE_TTL_MS);
      await pipeline.exec();
    }
  }
}
