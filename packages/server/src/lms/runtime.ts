import { EventEmitter } from 'node:events';
import { storedText } from '@ev/core';
import type { FastifyBaseLogger } from 'fastify';
import type { ChargerMessage, ChargerPresence } from '../bus/index.ts';
import type { Database } from '../db/client.ts';
import type { CommandAction, CommandOutcome } from '../ocpp/commands.ts';
import { SummarisedLog } from '../ocpp/summarised-log.ts';
import { allocate } from './allocator.ts';
import { LmsLog } from './log.ts';
import { applyReport } from './reports.ts';
import { effectiveLimit, loadSites, wants, type ManagedCharger, type ManagedSite } from './site-model.ts';
import type { ChargerLoad } from './types.ts';

/** Our profiles: one stack level, one id per purpose (and per connector for TxProfiles) so a new one replaces the old. */
export const STACK_LEVEL = 1;
export const DEFAULT_PROFILE_ID = 1000;
/** Plus the connector id. */
export const TX_PROFILE_ID = 2000;
/** A limit change waits at most this long for the charger's answer; no answer = uncontrolled. */
const COMMAND_TIMEOUT_MS = 10_000;
/** An uncontrolled charger is offered its limit again this often. */
const RETRY_MS = 60_000;
/** Rounds of (decide, send decreases, send increases) one reallocation may take when chargers fail. */
const MAX_ROUNDS = 4;

type Send = (cpId: number, action: CommandAction, params: Record<string, unknown>, opts: { timeoutMs: number; logInBackground: boolean }) => Promise<CommandOutcome>;

interface ProfileChange {
  connectorId: number;
  purpose: 'TxDefaultProfile' | 'TxProfile';
  limit: number;
  tranId?: number;
}

interface Plan {
  charger: ManagedCharger;
  /** The charger's new total limit (A). */
  total: number;
  changes: ProfileChange[];
}

const tenth = (a: number) => Math.floor(a * 10 + 1e-9) / 10;

function profileParams(p: ProfileChange): Record<string, unknown> {
  return {
    connectorId: p.connectorId,
    csChargingProfiles: {
      chargingProfileId: p.purpose === 'TxProfile' ? TX_PROFILE_ID + p.connectorId : DEFAULT_PROFILE_ID,
      ...(p.tranId !== undefined ? { transactionId: p.tranId } : {}),
      stackLevel: STACK_LEVEL,
      chargingProfilePurpose: p.purpose,
      chargingProfileKind: 'Relative',
      chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: p.limit }] },
    },
  };
}

interface LoadManagerEvents {
  /** The picture of a site changed (allocation, statuses, measurements): live screens refresh it. */
  changed: [locId: number];
  /** This node reallocated a site (with several nodes, cluster/lms.ts tells the others the outcome). */
  allocated: [locId: number];
}

/** What the node that reallocates a site tells the other nodes, per charger, for their live screens. */
export interface AllocationSnapshot {
  cpId: number;
  allocation: ManagedCharger['allocation'];
  wantsSince: number | null;
  queueSince: number | null;
  uncontrolled: boolean;
  profileStatus: string | null;
  sentDefault: number | null;
  sentTx: [number, number][];
}

/**
 * Load management at run time. For each site with LMS enabled it keeps the state of every charger
 * from the chargers' own messages, reallocates the site's current on every event (the pure
 * allocator decides), and tells chargers whose limit changed with SetChargingProfile.
 *
 * Safety: a charger is only given more current once every charger that must get less has
 * accepted its lower limit; a charger that rejects or does not answer is counted at its maximum
 * (the allocator then lowers the others) and is offered its limit again later. Idle chargers are
 * held at 0 A (TxDefaultProfile) so a car plugged in draws nothing until the site has room for it.
 */
export class LoadManager extends EventEmitter<LoadManagerEvents> {
  sites = new Map<number, ManagedSite>();
  /** Reallocation runs finished since start (http/metrics.ts). */
  reallocations = 0;
  /** cp_id → its managed site: every charger message looks its charger up here. */
  private siteByCp = new Map<number, ManagedSite>();
  readonly log = new LmsLog();
  private readonly dirty = new Set<number>();
  private readonly running = new Map<number, Promise<void>>();
  private readonly retryTimers = new Map<number, NodeJS.Timeout>();
  private reloadTimer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> = Promise.resolve();
  /**
   * While a reload reads the database, what chargers report is also kept here and applied again to the new
   * picture: a message arriving meanwhile would otherwise be lost (a site not in the old picture ignores it,
   * and the rows the reload read may be older than the message).
   */
  private duringReload: ({ message: ChargerMessage } | { presence: ChargerPresence })[] | null = null;
  private stopped = false;
  private readonly failures: SummarisedLog;
  /** Set with several nodes: only the node holding a site's lease reallocates it (cluster/lms.ts). */
  owns?: (locId: number) => boolean;
  /** Set with several nodes: whether a charger is connected to another node. */
  onlineElsewhere?: (cpId: number) => boolean;

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    private readonly send: Send,
    private readonly isOnline: (cpId: number) => boolean,
  ) {
    super();
    this.failures = new SummarisedLog(logger, 'error', 'LMS state not saved');
  }

  async start(): Promise<void> {
    await this.reload();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const t of this.retryTimers.values()) clearTimeout(t);
    await this.reloading;
    await Promise.all(this.running.values());
    this.failures.close();
  }

  /** The site a charger is managed at, if any. */
  siteOf(cpId: number): ManagedSite | undefined {
    return this.siteByCp.get(cpId);
  }

  /** A managed charger by cp_id. */
  charger(cpId: number): ManagedCharger | undefined {
    return this.siteByCp.get(cpId)?.chargers.get(cpId);
  }

  /** Profiles, zones, sites or chargers changed in the portal: read them again (debounced). */
  configurationChanged(): void {
    if (this.reloadTimer || this.stopped) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      this.reloading = this.reloading.then(() => this.reload()).catch((err) => this.logger.error({ err }, 'LMS configuration not reloaded'));
    }, 100);
  }

  onMessage(m: ChargerMessage): void {
    this.duringReload?.push({ message: m });
    const site = this.siteOf(m.cpId);
    const c = site?.chargers.get(m.cpId);
    if (!site || !c) return;
    const effect = applyReport(c, m);
    if (!effect) return;
    if (effect.kind === 'redraw') return void this.emit('changed', site.locId);
    if (effect.kind === 'started') void this.readPlannedEnd(site, c, effect.tranId);
    this.schedule(site.locId);
  }

  onPresence(p: ChargerPresence): void {
    this.duringReload?.push({ presence: p });
    const site = this.siteOf(p.cpId);
    const c = site?.chargers.get(p.cpId);
    if (!site || !c) return;
    c.online = p.online;
    this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: p.online ? 'info' : 'warn', kind: p.online ? 'online' : 'offline',
      message: storedText(p.online ? 'msg.log.lms.online' : 'msg.log.lms.offline') });
    this.schedule(site.locId);
  }

  /** Reallocates a site soon; events arriving meanwhile are folded into one run. */
  schedule(locId: number): void {
    if (this.stopped) return;
    this.dirty.add(locId);
    if (this.running.has(locId)) return;
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain(locId));
    this.running.set(locId, run);
  }

  /** Waits until no reallocation is running or due (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
  }

  private async drain(locId: number): Promise<void> {
    try {
      while (this.dirty.has(locId) && !this.stopped) {
        this.dirty.delete(locId);
        const site = this.sites.get(locId);
        if (site) await this.reallocate(site);
      }
    } catch (err) {
      this.logger.error({ err, locId }, 'LMS reallocation failed');
    } finally {
      this.running.delete(locId);
    }
  }

  private async reload(): Promise<void> {
    if (this.stopped) return;
    const before = this.sites;
    const online = (cpId: number) => this.isOnline(cpId) || !!this.onlineElsewhere?.(cpId);
    const arrived: NonNullable<typeof this.duringReload> = (this.duringReload = []);
    let after: Map<number, ManagedSite>;
    try {
      after = await loadSites(this.db, online, (cpId) => this.charger(cpId));
    } finally {
      this.duringReload = null;
    }
    const siteByCp = new Map<number, ManagedSite>();
    for (const site of after.values()) for (const cpId of site.chargers.keys()) siteByCp.set(cpId, site);
    this.sites = after;
    this.siteByCp = siteByCp;
    // Applying a report twice is harmless (reports.ts); a presence the new picture already shows is not logged again.
    for (const e of arrived) {
      if ('message' in e) this.onMessage(e.message);
      else if (this.charger(e.presence.cpId)?.online !== e.presence.online) this.onPresence(e.presence);
    }
    // Chargers that left load management (site disabled, zone entry removed, moved) get their limits cleared.
    for (const site of before.values()) {
      for (const c of site.chargers.values()) {
        const now = this.charger(c.cpId);
        if (c.zoneId !== null && (!now || now.zoneId === null)) void this.release(c);
      }
    }
    for (const locId of after.keys()) this.schedule(locId);
    for (const locId of before.keys()) if (!after.has(locId)) this.emit('changed', locId);
  }

  private async release(c: ManagedCharger): Promise<void> {
    if (this.owns && !this.owns(c.locId)) return; // the node that allocated the site clears its limits
    this.log.add({ locId: c.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'released', message: storedText('msg.log.lms.released') });
    await this.db.query(`DELETE FROM lms_allocations WHERE cp_id = $1`, [c.cpId]).catch((err) => this.failures.note('release', { err: err.message }));
    if (!c.online) return;
    for (const purpose of ['TxDefaultProfile', 'TxProfile']) {
      await this.send(c.cpId, 'ClearChargingProfile', { chargingProfilePurpose: purpose, stackLevel: STACK_LEVEL }, { timeoutMs: COMMAND_TIMEOUT_MS, logInBackground: true });
    }
  }

  private async readPlannedEnd(site: ManagedSite, c: ManagedCharger, tranId: number): Promise<void> {
    try {
      const [row] = await this.db.query<{ planned_end_dttm: Date | null; session_id: number }>(
        `SELECT session_id, planned_end_dttm FROM cp_sessions WHERE tran_id = $1 AND cp_id = $2 ORDER BY session_id DESC LIMIT 1`,
        [tranId, c.cpId],
      );
      const tx = c.transactions.get(tranId);
      if (!row || !tx) return;
      tx.sessionId = row.session_id;
      tx.plannedEnd = row.planned_end_dttm ? new Date(row.planned_end_dttm).getTime() : null;
      this.emit('changed', site.locId);
    } catch (err) {
      this.failures.note('planned-end', { err: (err as Error).message });
    }
  }

  /** Decides, then sends decreases, then increases; any charger failing restarts the round. */
  private async reallocate(site: ManagedSite): Promise<void> {
    if (this.owns && !this.owns(site.locId)) return; // another node's to decide; it tells us the outcome
    const now = Date.now();
    for (const c of site.chargers.values()) {
      if (c.uncontrolled && c.online && c.retryAt <= now) c.uncontrolled = false; // offered its limit again
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      this.decide(site, now);
      const plans = this.plans(site);
      const decreases = plans.filter((p) => p.total < effectiveLimit(p.charger));
      if (decreases.length && !(await this.sendAll(site, decreases))) continue;
      const increases = plans.filter((p) => !decreases.includes(p));
      if (increases.length && !(await this.sendAll(site, increases))) continue;
      break;
    }
    this.armRetry(site);
    this.reallocations++;
    await this.persist(site);
    this.emit('changed', site.locId);
    this.emit('allocated', site.locId);
  }

  /**
   * This node now holds a site's lease (its previous holder died or let go): what the chargers
   * were told is not known here, so every limit is sent again, decreases first.
   */
  tookOver(locId: number): void {
    const site = this.sites.get(locId);
    if (!site) return;
    for (const c of site.chargers.values()) {
      c.sentDefault = null;
      c.sentTx.clear();
    }
    this.schedule(locId);
  }

  snapshot(locId: number): AllocationSnapshot[] {
    return [...(this.sites.get(locId)?.chargers.values() ?? [])].map((c) => ({
      cpId: c.cpId, allocation: c.allocation, wantsSince: c.wantsSince, queueSince: c.queueSince, uncontrolled: c.uncontrolled,
      profileStatus: c.profileStatus, sentDefault: c.sentDefault, sentTx: [...c.sentTx],
    }));
  }

  /** The outcome of another node's reallocation of a site, for this node's live screens. */
  applySnapshot(locId: number, chargers: AllocationSnapshot[]): void {
    const site = this.sites.get(locId);
    if (!site) return;
    for (const s of chargers) {
      const c = site.chargers.get(s.cpId);
      if (!c) continue;
      Object.assign(c, { allocation: s.allocation, wantsSince: s.wantsSince, queueSince: s.queueSince, uncontrolled: s.uncontrolled,
        profileStatus: s.profileStatus, sentDefault: s.sentDefault, sentTx: new Map(s.sentTx) });
    }
    this.emit('changed', locId);
  }

  /** Runs the allocator over the site's managed chargers and records the outcome on each. */
  private decide(site: ManagedSite, now: number): void {
    const loads: ChargerLoad[] = [];
    for (const c of site.chargers.values()) {
      if (c.zoneId === null) continue;
      const wanting = wants(c);
      if (wanting) c.wantsSince ??= now;
      else c.wantsSince = null;
      // Offline with a transaction: it goes on charging at whatever it was last told, out of our reach.
      const unreachable = !c.online && c.transactions.size > 0;
      loads.push({
        cpId: c.cpId,
        zoneId: c.zoneId,
        wants: wanting || unreachable,
        since: c.wantsSince ?? now,
        measured: c.measured.current ?? undefined,
        uncontrolled: c.uncontrolled || unreachable,
      });
    }
    const allocations = allocate({ mode: site.mode, zones: [...site.zones.values()], chargers: loads });
    for (const a of allocations) {
      const c = site.chargers.get(a.cpId)!;
      const was = c.allocation;
      c.allocation = a;
      if (a.state === 'queueing') c.queueSince ??= now;
      else c.queueSince = null;
      if (a.state === 'queueing' && was?.state !== 'queueing') {
        this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'queued', message: storedText('msg.log.lms.queued', { position: a.position ?? '' }) });
      } else if (a.state === 'charging' && was?.state === 'queueing') {
        this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'queue_started', message: storedText('msg.log.lms.queue_started', { current: a.current }) });
      }
    }
  }

  /** For each reachable managed charger, the profiles that differ from what it last accepted. */
  private plans(site: ManagedSite): Plan[] {
    const out: Plan[] = [];
    for (const c of site.chargers.values()) {
      const a = c.allocation;
      if (c.zoneId === null || !c.online || !a || a.state === 'uncontrolled') continue;
      const total = a.state === 'charging' ? a.current : 0;
      const changes: ProfileChange[] = [];
      if (c.transactions.size) {
        // Two sessions on one charger share its allocation.
        const each = tenth(total / c.transactions.size);
        for (const tx of c.transactions.values()) {
          if ((c.sentTx.get(tx.tranId) ?? c.sentDefault) !== each) {
            changes.push({ connectorId: tx.connectorId, purpose: 'TxProfile', limit: each, tranId: tx.tranId });
          }
        }
      } else if (c.sentDefault !== total) {
        changes.push({ connectorId: 0, purpose: 'TxDefaultProfile', limit: total });
      }
      if (changes.length) out.push({ charger: c, total, changes });
    }
    return out;
  }

  /** Sends the plans in parallel (one charger's profiles in order); false when any charger failed. */
  private async sendAll(site: ManagedSite, plans: Plan[]): Promise<boolean> {
    const results = await Promise.all(plans.map((p) => this.sendPlan(site, p)));
    return results.every(Boolean);
  }

  private async sendPlan(site: ManagedSite, plan: Plan): Promise<boolean> {
    const c = plan.charger;
    for (const change of plan.changes) {
      let outcome: CommandOutcome;
      try {
        outcome = await this.send(c.cpId, 'SetChargingProfile', profileParams(change), { timeoutMs: COMMAND_TIMEOUT_MS, logInBackground: true });
      } catch (err) {
        outcome = { status: 'error', errorCode: 0, message: (err as Error).message };
      }
      const what = `${change.purpose} ${change.limit} A${change.tranId !== undefined ? ` #${change.tranId}` : ''}`;
      if (outcome.status === 'success') {
        if (change.purpose === 'TxProfile') c.sentTx.set(change.tranId!, change.limit);
        else c.sentDefault = change.limit;
        c.profileStatus = 'Accepted';
        this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'profile_accepted', message: storedText('msg.log.lms.profile_accepted', { what }) });
        continue;
      }
      // The transaction ended while its limit was on the way: nothing to hold against the charger.
      if (change.tranId !== undefined && !c.transactions.has(change.tranId)) continue;
      c.uncontrolled = true;
      c.retryAt = Date.now() + RETRY_MS;
      c.profileStatus = outcome.result?.status ?? 'NoAnswer';
      c.sentDefault = null;
      c.sentTx.clear();
      this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'warn', kind: 'profile_failed',
        message: storedText('msg.log.lms.profile_failed', { what, reason: outcome.message ?? '' }) });
      this.logger.warn({ cpNo: c.cpNo, errorCode: outcome.errorCode, reason: outcome.message }, 'LMS limit not accepted: charger counted at its maximum');
      return false;
    }
    return true;
  }

  private armRetry(site: ManagedSite): void {
    const due = [...site.chargers.values()].filter((c) => c.uncontrolled && c.online).map((c) => c.retryAt);
    clearTimeout(this.retryTimers.get(site.locId));
    this.retryTimers.delete(site.locId);
    if (!due.length || this.stopped) return;
    const timer = setTimeout(() => this.schedule(site.locId), Math.max(0, Math.min(...due) - Date.now()));
    timer.unref();
    this.retryTimers.set(site.locId, timer);
  }

  /** Saves what a restart needs (queue order, accepted default, uncontrolled) and what reports show. */
  private async persist(site: ManagedSite): Promise<void> {
    const managed = [...site.chargers.values()].filter((c) => c.zoneId !== null);
    if (!managed.length) return;
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    const col = <T>(f: (c: ManagedCharger) => T) => managed.map(f);
    try {
      await this.db.query(
        `INSERT INTO lms_allocations (cp_id, loc_id, zone_id, state, distributed_current, queueing_pos, wants_since,
                                      start_queueing_at, start_tran_at, accepted_current, profile_status, uncontrolled, lupd_dttm)
         SELECT u.*, now() FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::float8[], $6::int[], $7::timestamptz[],
                                       $8::timestamptz[], $9::timestamptz[], $10::float8[], $11::text[], $12::smallint[]) AS u
         ON CONFLICT (cp_id) DO UPDATE SET loc_id = EXCLUDED.loc_id, zone_id = EXCLUDED.zone_id, state = EXCLUDED.state,
           distributed_current = EXCLUDED.distributed_current, queueing_pos = EXCLUDED.queueing_pos, wants_since = EXCLUDED.wants_since,
           start_queueing_at = EXCLUDED.start_queueing_at, start_tran_at = EXCLUDED.start_tran_at,
           accepted_current = EXCLUDED.accepted_current, profile_status = EXCLUDED.profile_status,
           uncontrolled = EXCLUDED.uncontrolled, lupd_dttm = now()`,
        [
          col((c) => c.cpId),
          col((c) => c.locId),
          col((c) => c.zoneId),
          col((c) => lmsState(c)),
          col((c) => (c.allocation?.state === 'charging' ? c.allocation.current : 0)),
          col((c) => (c.allocation?.state === 'queueing' ? c.allocation.position : null)),
          col((c) => iso(c.wantsSince)),
          col((c) => iso(c.queueSince)),
          col((c) => iso(firstStart(c))),
          col((c) => c.sentDefault),
          col((c) => c.profileStatus),
          col((c) => (c.uncontrolled ? 1 : 0)),
        ],
      );
    } catch (err) {
      this.failures.note('persist', { err: (err as Error).message, locId: site.locId });
    }
  }
}

/** The LMS charger state of spec §4. */
export function lmsState(c: ManagedCharger): 'available' | 'charging' | 'disconnected' | 'queueing' {
  if (!c.online) return 'disconnected';
  const a = c.allocation;
  if (a?.state === 'queueing') return 'queueing';
  if (a?.state === 'charging' || (a?.state === 'uncontrolled' && c.transactions.size)) return 'charging';
  return c.transactions.size && c.zoneId === null ? 'charging' : 'available';
}

export function firstStart(c: ManagedCharger): number | null {
  let first: number | null = null;
  for (const tx of c.transactions.values()) if (first === null || tx.startedAt < first) first = tx.startedAt;
  return first;
}
