import { EventEmitter } from 'node:events';
import { storedText } from '@ev/core';
import type { FastifyBaseLogger } from 'fastify';
import type { ChargerMessage, ChargerPresence } from '../bus/index.ts';
import type { Database } from '../db/client.ts';
import { SummarisedLog } from '../ocpp/summarised-log.ts';
import { applySnapshotTo, decide, saveAllocations, snapshotOf, type AllocationSnapshot } from './allocation-state.ts';
import { LimitSender, planLimits, type Send } from './charger-limits.ts';
import { LmsLog } from './log.ts';
import { applyReport } from './reports.ts';
import { effectiveLimit, loadSites, type ManagedCharger, type ManagedSite } from './site-model.ts';

/** Rounds of (decide, send decreases, send increases) one reallocation may take when chargers fail. */
const MAX_ROUNDS = 4;

interface LoadManagerEvents {
  /** The picture of a site changed (allocation, statuses, measurements): live screens refresh it. */
  changed: [locId: number];
  /** This node reallocated a site (with several nodes, cluster/lms.ts tells the others the outcome). */
  allocated: [locId: number];
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
  private readonly limits: LimitSender;
  /** Set with several nodes: only the node holding a site's lease reallocates it (cluster/lms.ts). */
  owns?: (locId: number) => boolean;
  /** Set with several nodes: whether a charger is connected to another node. */
  onlineElsewhere?: (cpId: number) => boolean;

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    send: Send,
    private readonly isOnline: (cpId: number) => boolean,
  ) {
    super();
    this.failures = new SummarisedLog(logger, 'error', 'LMS state not saved');
    this.limits = new LimitSender(send, this.log, logger);
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
    await this.limits.clear(c.cpId);
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
      decide(site, now, this.log);
      const plans = planLimits(site);
      const decreases = plans.filter((p) => p.total < effectiveLimit(p.charger));
      if (decreases.length && !(await this.limits.sendAll(site, decreases))) continue;
      const increases = plans.filter((p) => !decreases.includes(p));
      if (increases.length && !(await this.limits.sendAll(site, increases))) continue;
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
    return snapshotOf(this.sites.get(locId));
  }

  /** The outcome of another node's reallocation of a site, for this node's live screens. */
  applySnapshot(locId: number, chargers: AllocationSnapshot[]): void {
    const site = this.sites.get(locId);
    if (!site) return;
    applySnapshotTo(site, chargers);
    this.emit('changed', locId);
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

  /** Saves the site's allocation (allocation-state.ts); a failure is logged, not thrown. */
  private async persist(site: ManagedSite): Promise<void> {
    try {
      await saveAllocations(this.db, site);
    } catch (err) {
      this.failures.note('persist', { err: (err as Error).message, locId: site.locId });
    }
  }
}
