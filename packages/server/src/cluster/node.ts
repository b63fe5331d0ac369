import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@ev/core';
import type { ResourceChange } from '../bus/index.ts';
import type { RemoteStartChange } from '../ocpp/authorization.ts';
import type { CommandAction, CommandOptions, CommandOutcome } from '../ocpp/commands.ts';
import { injectOn, type InjectOutcome } from '../ocpp/handlers.ts';
import { SummarisedLog } from '../ocpp/summarised-log.ts';
import { Leases } from './lease.ts';
import { NODE_BEAT_MS, Presence } from './presence.ts';
import { redisInTime, type RedisLink } from './redis.ts';

/**
 * A forwarded command's whole wait is the command's timeout: the node holding the charger gets this
 * much less (at most a quarter of it) for the charger, so its outcome has time to come back.
 */
const FORWARD_MARGIN_MS = 2000;
/** The longest a charger's close waits on Redis to learn whether another node holds it now. */
const RELEASE_WAIT_MS = 2000;
/** How often one node (the holder of the sweep lease) looks for nodes that died. */
const SWEEP_MS = 15_000;
/** How often it also compares every online flag with the claims, whether a node died or not. */
const FULL_SWEEP_MS = 120_000;
/** How often each node re-asserts the online flag of the chargers it holds. */
const REPAIR_MS = 60_000;
/** Leases (sweep, LMS sites) expire this long after their holder stopped renewing them. */
const LEASE_TTL_MS = 15_000;

/** Messages to one node, on its own channel. */
type ToNode =
  | { t: 'cmd'; id: string; from: string; cpId: number; action: CommandAction; params: Record<string, unknown>; timeoutMs: number; logInBackground?: boolean }
  | { t: 'inject'; id: string; from: string; cpId: number; action: string; params: Record<string, unknown>; messageId: string }
  | { t: 'reply'; id: string; outcome: CommandOutcome | InjectOutcome }
  | { t: 'drop'; cpId: number };

/** Messages to every node: an event of kind t (see onAll). */
interface ToAll {
  from: string;
  t: string;
  data: unknown;
}

const OFFLINE: CommandOutcome = { status: 'error', errorCode: ERROR_CODES.CP_OFFLINE, message: 'The charger is not connected' };
const NOT_HERE: InjectOutcome = { status: 'notHere' };
const NODE_SILENT: CommandOutcome = { status: 'error', errorCode: ERROR_CODES.CP_NODE_UNREACHABLE, message: 'The node holding the charger did not answer in time' };
const REDIS_DOWN: CommandOutcome = {
  status: 'error', errorCode: ERROR_CODES.CP_NODE_UNREACHABLE, message: 'The node holding the charger cannot be reached: Redis is not answering',
};

/**
 * This node's part in a deployment of several (REDIS_URL): claims the chargers connected here in
 * Redis, drops a charger's stale socket when it reconnected to another node, forwards commands and
 * the tester's messages to the node holding the charger and runs those forwarded here, and relays
 * record changes so every node rechecks its connections and reloads load management. One node at a
 * time (a lease) sweeps chargers still flagged online that no node holds any more: a node that died.
 */
export class ClusterNode {
  readonly presence: Presence;
  readonly leases: Leases;
  /** Requests sent to another node, by id: how to resolve the caller, and with what if no answer can come. */
  private readonly pending = new Map<string, { resolve: (outcome: any) => void; unreachable: unknown }>();
  private readonly handlers = new Map<string, (data: any) => void>();
  private readonly failures: SummarisedLog;
  private timers: NodeJS.Timeout[] = [];
  /** Chargers flagged online and held by no node at the last sweep: offline if still so at the next. */
  private missingBefore = new Set<number>();
  private lastFullSweep = 0;
  /** Set while an event from another node is re-emitted here, so it is not relayed back. */
  private relaying = false;
  private readonly reconnected: (() => void)[] = [];

  constructor(
    private readonly app: FastifyInstance,
    readonly link: RedisLink,
  ) {
    this.presence = new Presence(link);
    this.leases = new Leases(link, LEASE_TTL_MS);
    this.failures = new SummarisedLog(app.log, 'warn', 'cluster: Redis call failed');
  }

  private get nodeChannel(): string {
    return `${this.link.prefix}node:${this.link.nodeId}`;
  }

  private get allChannel(): string {
    return `${this.link.prefix}all`;
  }

  /** Hooks into the central system, the command dispatcher and the bus: before the server is ready (no reset of online flags). */
  attach(): void {
    const { central, commands } = this.app.ocpp;
    central.presence = {
      connected: (charger) => void this.connected(charger.cpId),
      released: (cpId) => this.released(cpId),
    };
    commands.forward = (cpId, action, params, opts) => this.forward(cpId, action, params, opts);
    central.injectElsewhere = (cpId, action, params, messageId) => this.inject(cpId, action, params, messageId);
    this.app.bus.on('resourceChanged', (change) => this.publishAll('resourceChanged', change));
    this.onAll('resourceChanged', (change: ResourceChange) => this.replay(() => this.app.bus.emit('resourceChanged', change)));
    // A remote start's idTag is accepted on whichever node the charger is (or moves to). Published
    // before the RemoteStartTransaction is forwarded: Redis delivers one client's messages in order.
    const { remoteStarts } = central;
    remoteStarts.onChange = (change) => this.publishAll('remoteStart', change);
    this.onAll('remoteStart', (c: RemoteStartChange) =>
      this.replay(() => (c.op === 'allow' ? remoteStarts.allow(c.cpId, c.idTag, c.minutes, c.accountId) : remoteStarts.revoke(c.cpId, c.idTag))),
    );
  }

  start(): void {
    this.link.sub.on('message', (channel, text) => this.receive(channel, text));
    // Not awaited: with Redis away the node starts anyway (alone) and joins when Redis answers.
    this.link.sub.subscribe(this.nodeChannel, this.allChannel).catch((err) => this.failures.note('subscribe', { err: err.message }));

    // Redis back after an outage (it may have restarted empty): claims are written again at once, not at
    // the next refresh, and what was relayed meanwhile (lost) is read again from the database.
    this.link.cmd.on('ready', () => {
      void this.reclaim().catch((err) => this.failures.note('reclaim', { err: (err as Error).message }));
      for (const fn of this.reconnected) fn();
    });
    this.presence.beat().catch((err) => this.failures.note('beat', { err: err.message }));
    this.every(NODE_BEAT_MS, () => this.presence.beat());
    this.every(REPAIR_MS, () => this.repair());
    this.every(SWEEP_MS, () => this.sweep());
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const { resolve, unreachable } of this.pending.values()) resolve(unreachable);
    this.pending.clear();
    await Promise.all(this.leases.heldNames().map((n) => this.leases.release(n)));
    this.failures.close();
  }

  /** Runs fn for every message of this kind another node sends to all. */
  onAll(kind: string, fn: (data: any) => void): void {
    this.handlers.set(kind, fn);
  }

  /** Tells every other node of an event of this kind (relayed events are not sent on again: see replay). */
  publishAll(kind: string, data: unknown): void {
    if (!this.relaying) void this.publish(this.allChannel, { from: this.link.nodeId, t: kind, data });
  }

  /** Emits an event that came from another node without relaying it back. */
  replay(emit: () => void): void {
    this.relaying = true;
    try {
      emit();
    } finally {
      this.relaying = false;
    }
  }

  /** Runs fn after Redis came back from an outage. */
  onReconnected(fn: () => void): void {
    this.reconnected.push(fn);
  }

  private get redisReady(): boolean {
    return this.link.cmd.status === 'ready';
  }

  /** Every ms, fn; skipped while Redis is away (nothing piles up in the client's queue) or the last run goes on. */
  every(ms: number, fn: () => Promise<void>): void {
    let running = false;
    const timer = setInterval(() => {
      if (running || !this.redisReady) return;
      running = true;
      void fn()
        .catch((err) => this.failures.note('timer', { err: (err as Error).message }))
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /** Publishes, or answers 0 (nobody reached) at once while Redis is away: events are not queued up meanwhile. */
  private publish(channel: string, message: ToNode | ToAll): Promise<number> {
    if (!this.redisReady) return Promise.resolve(0);
    return this.link.cmd.publish(channel, JSON.stringify(message)).catch((err) => {
      this.failures.note('publish', { err: (err as Error).message });
      return 0;
    });
  }

  private receive(channel: string, text: string): void {
    let message: ToNode | ToAll;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (channel === this.allChannel) {
      const m = message as ToAll;
      if (m.from === this.link.nodeId) return;
      try {
        this.handlers.get(m.t)?.(m.data);
      } catch (err) {
        this.app.log.error({ err, kind: m.t }, 'cluster: message from another node not handled');
      }
      return;
    }
    const m = message as ToNode;
    if (m.t === 'cmd') void this.runForwarded(m);
    else if (m.t === 'inject') void this.runInjected(m);
    else if (m.t === 'reply') this.pending.get(m.id)?.resolve(m.outcome);
    else if (m.t === 'drop') void this.dropIfMoved(m.cpId);
  }

  /** A charger connected here: claim it, and tell the node that held it to drop its stale socket. */
  private async connected(cpId: number): Promise<void> {
    try {
      const previous = await this.presence.claim(cpId);
      if (previous) await this.publish(`${this.link.prefix}node:${previous}`, { t: 'drop', cpId });
    } catch (err) {
      // The next refresh claims it; the older node's socket stays until the charger drops it.
      this.failures.note('claim', { err: (err as Error).message });
    }
  }

  private async dropIfMoved(cpId: number): Promise<void> {
    // The charger may have come back here since: drop only while another node holds it.
    const holder = await this.presence.nodeOf(cpId).catch(() => null);
    if (holder && holder !== this.link.nodeId) this.app.ocpp.central.dropMoved(cpId);
  }

  /** A charger's socket here closed: whether it is offline (true) or held by another node now. */
  private async released(cpId: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const unknown = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), RELEASE_WAIT_MS)));
    try {
      // Redis away: offline, as far as this node knows; the holder's refresh repairs the flag if it is elsewhere.
      return await Promise.race([this.presence.release(cpId).catch(() => true), unknown]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Redis came back (maybe empty): this node's liveness and claims are written again at once. */
  private async reclaim(): Promise<void> {
    await this.presence.beat();
    await this.presence.reclaim(this.app.ocpp.central.connectedIds());
    await this.repair();
  }

  /**
   * Raises the online flag of the chargers this node holds where it is down: a late offline write
   * of the node a charger left (it closed its socket after the charger had moved here) lowered it.
   */
  private async repair(): Promise<void> {
    const ids = this.app.ocpp.central.connectedIds();
    if (!ids.length) return;
    await this.app.db.query(
      `UPDATE cps SET online_flag = 1, online_since = now() WHERE cp_id = ANY($1::int[]) AND online_flag = 0 AND deleted_at IS NULL`,
      [ids],
    );
  }

  /**
   * Chargers flagged online that no live node holds (their node died, or an offline write was
   * lost) are marked offline once found so at two sweeps in a row, so a node re-claiming its
   * chargers after Redis restarted is not raced. The flags are compared with the claims when a
   * node died, while chargers found missing wait for their second look, and every FULL_SWEEP_MS.
   */
  private async sweep(): Promise<void> {
    // Held across sweeps (3 × the interval): "missing at two sweeps in a row" needs the same node each time.
    if (!(await this.leases.acquire('presence-sweep', 3 * SWEEP_MS))) {
      this.missingBefore.clear();
      return;
    }
    const dead = await this.presence.deadNodes();
    if (!dead.length && !this.missingBefore.size && Date.now() - this.lastFullSweep < FULL_SWEEP_MS) return;
    this.lastFullSweep = Date.now();
    const flagged = (await this.app.db.query<{ cp_id: number }>(`SELECT cp_id FROM cps WHERE online_flag = 1 AND deleted_at IS NULL`))
      .map((r) => r.cp_id);
    const holders = await this.presence.holders(flagged);
    const missing = flagged.filter((_, i) => holders[i] === null);
    const stale = missing.filter((id) => this.missingBefore.has(id));
    this.missingBefore = new Set(missing);
    if (stale.length) {
      const gone = await this.app.db.query<{ cp_id: number; loc_id: number }>(
        `UPDATE cps SET online_flag = 0, offline_since = now() WHERE cp_id = ANY($1::int[]) AND online_flag = 1 RETURNING cp_id, loc_id`,
        [stale],
      );
      this.app.log.warn({ chargers: gone.length, deadNodes: dead }, 'cluster: chargers held by no live node marked offline');
      for (const r of gone) this.app.bus.emit('chargerPresence', { cpId: r.cp_id, locId: r.loc_id, online: false });
    }
    // A dead node none of whose chargers is waiting for its second look is done with.
    if (!this.missingBefore.size) for (const node of dead) await this.presence.forget(node);
  }

  /** The other node holding the charger; null when none does (or this one); undefined when Redis cannot tell in time. */
  private async holderElsewhere(cpId: number): Promise<string | null | undefined> {
    try {
      const node = await redisInTime(this.link, () => this.presence.nodeOf(cpId), RELEASE_WAIT_MS);
      return node && node !== this.link.nodeId ? node : null;
    } catch {
      return undefined;
    }
  }

  /**
   * Sends a request to another node and waits for its reply: `unreachable` when nobody listens on
   * that node's channel (it stopped) or this node stops first, `late` after waitMs.
   */
  private async ask<T>(node: string, request: Extract<ToNode, { id: string; from: string }>, waitMs: number, unreachable: T, late: T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<T>((resolve) => {
      this.pending.set(request.id, { resolve, unreachable });
      timer = setTimeout(() => resolve(late), waitMs);
    });
    if ((await this.publish(`${this.link.prefix}node:${node}`, request)) === 0) this.pending.get(request.id)?.resolve(unreachable);
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
      this.pending.delete(request.id);
    }
  }

  /**
   * Sends a command to the node holding the charger and waits for its outcome, all within the
   * command's timeout: past it, the node (frozen, cut off) is said to be at fault, not the charger.
   */
  private async forward(cpId: number, action: CommandAction, params: Record<string, unknown>, opts: CommandOptions): Promise<CommandOutcome> {
    const deadline = Date.now() + (opts.timeoutMs ?? this.app.ocpp.commands.timeoutMs);
    const node = await this.holderElsewhere(cpId);
    // Redis cannot say where the charger is: if it is online, some node holds it that this one cannot reach.
    if (node === undefined) return (await this.flaggedOnline(cpId)) ? REDIS_DOWN : OFFLINE;
    if (!node) return OFFLINE;
    const waitMs = Math.max(1, deadline - Date.now());
    const timeoutMs = Math.max(1, waitMs - Math.min(FORWARD_MARGIN_MS, waitMs / 4));
    const request = {
      t: 'cmd' as const, id: randomUUID(), from: this.link.nodeId, cpId, action, params, timeoutMs, logInBackground: opts.logInBackground,
    };
    return this.ask<CommandOutcome>(node, request, waitMs, OFFLINE, NODE_SILENT);
  }

  /** Whether the database shows the charger online; when it cannot tell either, taken as online (the node is the doubt). */
  private async flaggedOnline(cpId: number): Promise<boolean> {
    const rows = await this.app.db.query<{ online_flag: number }>(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]).catch(() => null);
    return rows === null || rows[0]?.online_flag === 1;
  }

  private async runForwarded(m: Extract<ToNode, { t: 'cmd' }>): Promise<void> {
    let outcome: CommandOutcome;
    try {
      outcome = await this.app.ocpp.commands.send(m.cpId, m.action, m.params, { timeoutMs: m.timeoutMs, logInBackground: m.logInBackground, here: true });
    } catch (err) {
      outcome = { status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: (err as Error).message };
    }
    await this.publish(`${this.link.prefix}node:${m.from}`, { t: 'reply', id: m.id, outcome });
  }

  /**
   * A message injected in a charger's name (the tester) runs on the node holding the charger: in turn with
   * the charger's own messages, and what it changes of the live connection (its transactions, its serial
   * number from a BootNotification) is that connection's.
   */
  private async inject(cpId: number, action: string, params: Record<string, unknown>, messageId: string): Promise<InjectOutcome> {
    const node = await this.holderElsewhere(cpId);
    if (!node) return NOT_HERE;
    const waitMs = this.app.ocpp.commands.timeoutMs;
    const request = { t: 'inject' as const, id: randomUUID(), from: this.link.nodeId, cpId, action, params, messageId };
    return this.ask<InjectOutcome>(node, request, waitMs + FORWARD_MARGIN_MS, NOT_HERE, { status: 'timeout' });
  }

  private async runInjected(m: Extract<ToNode, { t: 'inject' }>): Promise<void> {
    const { central } = this.app.ocpp;
    const conn = central.connection(m.cpId);
    const outcome = conn
      ? await injectOn(central, conn, m.action, m.params, m.messageId)
        .catch((err: Error): InjectOutcome => ({ status: 'refused', rpcErrorCode: 'InternalError', message: err.message }))
      : NOT_HERE;
    await this.publish(`${this.link.prefix}node:${m.from}`, { t: 'reply', id: m.id, outcome });
  }
}
