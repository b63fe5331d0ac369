import type { RedisLink } from './redis.ts';

/** A node that has not renewed its liveness key for this long is taken for dead, and so are its claims. */
export const NODE_TTL_MS = 15_000;
/** How often a node renews its liveness key. */
export const NODE_BEAT_MS = 5000;
/** Keys written or read per round trip when thousands of chargers are concerned. */
const CHUNK = 1000;
/** How long a node's liveness, once read, is taken as known. */
const ALIVE_CACHE_MS = 1000;

/** Deletes a key only while it still holds the value given (the node that owns it). */
const DELETE_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * chargeBoxId → node, in Redis: which node holds each charger's socket. A node claims a charger
 * when it connects (learning which node held it before, so that node can drop its stale socket)
 * and gives the claim up, only while it still owns it, when the socket closes. Claims carry no
 * expiry of their own: a claim counts while its node is alive, which each node tells by renewing
 * one liveness key. So holding 20,000 chargers costs one command every few seconds, not one per
 * charger, and a node that dies loses all its claims at once when its liveness key expires.
 */
export class Presence {
  private readonly alive = new Map<string, { alive: boolean; until: number }>();

  constructor(private readonly link: RedisLink) {}

  private key(cpId: number): string {
    return `${this.link.prefix}cp:${cpId}`;
  }

  private aliveKey(node: string): string {
    return `${this.link.prefix}node-alive:${node}`;
  }

  private get nodesKey(): string {
    return `${this.link.prefix}nodes`;
  }

  /** Claims a charger for this node; answers the node that held it before, if another. */
  async claim(cpId: number): Promise<string | null> {
    const previous = await this.link.cmd.set(this.key(cpId), this.link.nodeId, 'GET');
    return previous && previous !== this.link.nodeId ? previous : null;
  }

  /** Gives a charger's claim up; false when another node holds it now (the charger moved there). */
  async release(cpId: number): Promise<boolean> {
    const key = this.key(cpId);
    const deleted = (await this.link.cmd.eval(DELETE_IF_OWNER, 1, key, this.link.nodeId)) as number;
    if (deleted) return true;
    return (await this.link.cmd.get(key)) === null;
  }

  /** The live node holding a charger, or null when none does (no claim, or its node died). */
  async nodeOf(cpId: number): Promise<string | null> {
    const node = await this.link.cmd.get(this.key(cpId));
    return node && (await this.isAlive(node)) ? node : null;
  }

  /** Whether a node renews its liveness (this one always does). */
  async isAlive(node: string): Promise<boolean> {
    if (node === this.link.nodeId) return true;
    const known = this.alive.get(node);
    if (known && known.until > Date.now()) return known.alive;
    const alive = (await this.link.cmd.exists(this.aliveKey(node))) === 1;
    this.alive.set(node, { alive, until: Date.now() + ALIVE_CACHE_MS });
    return alive;
  }

  /** Renews this node's liveness and its place among the nodes. */
  async beat(): Promise<void> {
    await this.link.cmd.multi().set(this.aliveKey(this.link.nodeId), '1', 'PX', NODE_TTL_MS).sadd(this.nodesKey, this.link.nodeId).exec();
  }

  /** Nodes registered that no longer renew their liveness. */
  async deadNodes(): Promise<string[]> {
    const nodes = (await this.link.cmd.smembers(this.nodesKey)).filter((n) => n !== this.link.nodeId);
    this.alive.clear();
    const dead: string[] = [];
    for (const node of nodes) if (!(await this.isAlive(node))) dead.push(node);
    return dead;
  }

  /** A dead node whose chargers were marked offline: its place among the nodes goes. */
  async forget(node: string): Promise<void> {
    await this.link.cmd.srem(this.nodesKey, node);
  }

  /** For each of these chargers, the live node holding it, or null (several thousand at a time, in chunks). */
  async holders(cpIds: number[]): Promise<(string | null)[]> {
    const out: (string | null)[] = [];
    for (let i = 0; i < cpIds.length; i += CHUNK) {
      out.push(...(await this.link.cmd.mget(cpIds.slice(i, i + CHUNK).map((id) => this.key(id)))));
    }
    const live = new Map<string, boolean>();
    for (const node of new Set(out)) if (node) live.set(node, await this.isAlive(node));
    return out.map((node) => (node && live.get(node) ? node : null));
  }

  /** Claims these chargers again where no other node did: after Redis came back from an outage, maybe empty. */
  async reclaim(cpIds: number[]): Promise<void> {
    for (let i = 0; i < cpIds.length; i += CHUNK) {
      const pipeline = this.link.cmd.pipeline();
      for (const id of cpIds.slice(i, i + CHUNK)) pipeline.set(this.key(id), this.link.nodeId, 'NX');
      await pipeline.exec();
    }
  }
}
