import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { ChargerMessage, ChargerPresence } from '../bus/index.ts';
import { SummarisedLog } from '../ocpp/summarised-log.ts';
import { IdBatch } from '../bus/id-batch.ts';
import { notifyEventAlerts, securityEventAlert } from './events-201.ts';

/** An alert raised or raised again: its id and how many continuous detections it counts now. */
export interface RaisedAlert {
  alertId: number;
  level: number;
}

/** More queued alert writes than this (a database away for long) drops new ones, logged. */
const MAX_PENDING = 10_000;
/**
 * Chargers back online are cleared of their Offline alerts together, this often, and chargers past
 * the offline grace period are raised together: a reconnect storm is one UPDATE, and a network
 * outage one INSERT, not one per charger (a garbage flood's 1,300 closed connections made 1,300
 * statements a grace period later).
 */
const ONLINE_BATCH_MS = 200;

/**
 * Raises and fixes alerts from what chargers report, off the OCPP path: a StatusNotification with
 * an error raises (or counts again) the charger's open alert for that error code; one with NoError
 * fixes the open alerts of that connector (connector 0: of the whole charger); a charger away for
 * the grace period raises 'Offline', coming back fixes it. A 2.0.1 station's NotifyEvent raises and
 * fixes the same way, and its critical security events are alerts of their own (events-201.ts). Work per
 * charger runs in order (an error then its clearing), different chargers in parallel; a failure is
 * logged, never thrown.
 */
export class AlertMonitor {
  private readonly chains = new Map<number, Promise<void>>();
  private readonly offlineTimers = new Map<number, NodeJS.Timeout>();
  private pending = 0;
  private stopped = false;
  private readonly backOnline = new IdBatch(ONLINE_BATCH_MS, (cpIds) => this.fixOffline(cpIds));
  private readonly stillOffline = new IdBatch(ONLINE_BATCH_MS, (cpIds) => this.raiseOffline(cpIds));
  /**
   * Chargers that may have an open alert: only their NoError reports and returns cost a statement
   * (every charger reports NoError all the time; a reconnect storm brings thousands back at once).
   */
  private readonly open = new Set<number>();
  private onlineWrite: Promise<void> = Promise.resolve();
  private readonly failures: SummarisedLog;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly offlineGraceMs: number,
    private readonly onRaised: (alert: RaisedAlert) => void,
  ) {
    // One line per interval: while the database is away every charger's event fails alike.
    this.failures = new SummarisedLog(log, 'error', 'alert update failed');
  }

  /** Reads which chargers have open alerts; before the first charger connects. */
  async start(): Promise<void> {
    const rows = await this.db.query<{ cp_id: number }>(`SELECT DISTINCT cp_id FROM alert WHERE is_fixes = 0`);
    for (const r of rows) this.open.add(r.cp_id);
  }

  onMessage(m: ChargerMessage): void {
    if (this.stopped) return;
    if (m.action === 'StatusNotification') {
      const p = m.params as { connectorId: number; errorCode: string; status: string; info?: string; vendorErrorCode?: string };
      if (p.errorCode !== 'NoError') this.raiseLater(m.cpId, p.errorCode, describe(p), p.connectorId);
      else if (this.open.has(m.cpId)) this.enqueue(m.cpId, () => this.fixErrors(m.cpId, p.connectorId));
    } else if (m.action === 'NotifyEvent') {
      for (const c of notifyEventAlerts(m.params)) {
        if (c.kind === 'raise') this.raiseLater(m.cpId, c.errorId, c.message, c.connectorId);
        else if (this.open.has(m.cpId)) this.enqueue(m.cpId, () => this.fixErrors(m.cpId, c.connectorId, c.errorId));
      }
    } else if (m.action === 'SecurityEventNotification') {
      const event = securityEventAlert(m.params);
      if (event) this.enqueue(m.cpId, () => this.raiseEvent(m.cpId, event.errorId, event.message));
    }
  }

  onPresence(p: ChargerPresence): void {
    if (this.stopped) return;
    clearTimeout(this.offlineTimers.get(p.cpId));
    this.offlineTimers.delete(p.cpId);
    if (p.online) {
      this.stillOffline.delete(p.cpId);
      this.backOnline.add(p.cpId);
      return;
    }
    this.backOnline.delete(p.cpId);
    const timer = setTimeout(() => {
      this.offlineTimers.delete(p.cpId);
      // From now on it may have an open alert (a return right behind the raise must fix it).
      this.open.add(p.cpId);
      this.stillOffline.add(p.cpId);
    }, this.offlineGraceMs);
    timer.unref();
    this.offlineTimers.set(p.cpId, timer);
  }

  /** Stops taking events and waits for the writes under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.offlineTimers.values()) clearTimeout(t);
    this.offlineTimers.clear();
    this.backOnline.stop();
    this.stillOffline.stop();
    await Promise.all([...this.chains.values(), this.onlineWrite]);
    this.failures.close();
  }

  private enqueue(cpId: number, work: () => Promise<void>): void {
    if (this.pending >= MAX_PENDING) {
      this.log.warn({ cpId }, 'alert queue full: charger event not checked for alerts');
      return;
    }
    this.pending++;
    const next = (this.chains.get(cpId) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => this.failures.note('alert', { err: (err as Error).message, cpId }))
      .finally(() => {
        this.pending--;
        if (this.chains.get(cpId) === next) this.chains.delete(cpId);
      });
    this.chains.set(cpId, next);
  }

  /** Queues a raise; the charger counts as having an open alert from now on, so a NoError right behind it is not skipped. */
  private raiseLater(cpId: number, errorId: string, message: string, connectorId: number | null): void {
    this.open.add(cpId);
    this.enqueue(cpId, () => this.raise(cpId, errorId, message, connectorId));
  }

  private async raise(cpId: number, errorId: string, message: string, connectorId: number | null): Promise<void> {
    // One open alert per charger and error (the partial unique index alert_open_uq): a repeat counts up.
    const [row] = await this.db.query<{ alert_id: number; level: number }>(
      `INSERT INTO alert (cp_id, cp_no, error_id, loc_id, location, message, tran_id)
       SELECT c.cp_id, c.cp_no, $2, c.loc_id, l.address, $3,
              (SELECT s.tran_id FROM cp_sessions s WHERE s.cp_id = c.cp_id AND s.connector_id = $4 AND s.session_end_time IS NULL
               ORDER BY s.session_id DESC LIMIT 1)
       FROM cps c LEFT JOIN cp_locs l ON l.loc_id = c.loc_id WHERE c.cp_id = $1
       ON CONFLICT (cp_id, error_id) WHERE is_fixes = 0
       DO UPDATE SET level = alert.level + 1, last_date = now(), message = EXCLUDED.message, tran_id = coalesce(EXCLUDED.tran_id, alert.tran_id)
       RETURNING alert_id, level`,
      [cpId, errorId, message, connectorId],
    );
    if (row) this.onRaised({ alertId: Number(row.alert_id), level: row.level });
  }

  /** A NoError report fixes the connector's errors; a 2.0.1 event cleared (errorId) only that error of that connector. */
  private async fixErrors(cpId: number, connectorId: number, errorId: string | null = null): Promise<void> {
    // The connector an alert is about heads its message (see describe): alerts of the charger as a whole go with any connector.
    // The outer SELECT sees the rows as they were before the UPDATE: those it fixed are left out by id.
    const [row] = await this.db.query<{ more: boolean }>(
      `WITH fixed AS (
         UPDATE alert SET is_fixes = 1, fixed_dttm = now()
          WHERE cp_id = $1 AND is_fixes = 0 AND error_id <> 'Offline'
            AND CASE WHEN $4::text IS NULL THEN ($2 = 0 OR message LIKE 'Connector 0:%' OR message LIKE $3) ELSE error_id = $4 AND message LIKE $3 END
         RETURNING alert_id)
       SELECT EXISTS (SELECT 1 FROM alert WHERE cp_id = $1 AND is_fixes = 0 AND alert_id NOT IN (SELECT alert_id FROM fixed)) AS more`,
      [cpId, connectorId, `Connector ${connectorId}:%`, errorId],
    );
    if (row && !row.more) this.open.delete(cpId);
  }

  /**
   * A security event is a moment, not a state nothing will report over: each is an alert of its own, mailed as
   * any (to the groups for its code at level 1) and recorded fixed at once.
   */
  private async raiseEvent(cpId: number, errorId: string, message: string): Promise<void> {
    const [row] = await this.db.query<{ alert_id: number; level: number }>(
      `INSERT INTO alert (cp_id, cp_no, error_id, loc_id, location, message, is_fixes, fixed_dttm)
       SELECT c.cp_id, c.cp_no, $2, c.loc_id, l.address, $3, 1, now() FROM cps c LEFT JOIN cp_locs l ON l.loc_id = c.loc_id WHERE c.cp_id = $1
       RETURNING alert_id, level`,
      [cpId, errorId, message],
    );
    if (row) this.onRaised({ alertId: Number(row.alert_id), level: row.level });
  }

  /**
   * Raises (or counts again) the Offline alert of chargers away for the grace period. In the same
   * chain as the fixes, so a charger's raise and its return's fix land in the order they happened.
   */
  private raiseOffline(cpIds: number[]): void {
    const message = `Offline for more than ${Math.round(this.offlineGraceMs / 1000)} s`;
    this.onlineWrite = this.onlineWrite
      .then(() => this.db.query<{ alert_id: number; level: number }>(
        `INSERT INTO alert (cp_id, cp_no, error_id, loc_id, location, message, tran_id)
         SELECT c.cp_id, c.cp_no, 'Offline', c.loc_id, l.address, $2, NULL
           FROM cps c LEFT JOIN cp_locs l ON l.loc_id = c.loc_id WHERE c.cp_id = ANY($1::int[]) ORDER BY c.cp_id
         ON CONFLICT (cp_id, error_id) WHERE is_fixes = 0
         DO UPDATE SET level = alert.level + 1, last_date = now(), message = EXCLUDED.message
         RETURNING alert_id, level`,
        [cpIds, message],
      ))
      .then((rows) => {
        for (const row of rows) this.onRaised({ alertId: Number(row.alert_id), level: row.level });
      })
      .catch((err: unknown) => this.failures.note('alert', { err: (err as Error).message, chargers: cpIds.length }));
  }

  /** Fixes the Offline alerts of chargers that came back. */
  private fixOffline(back: number[]): void {
    const cpIds = back.filter((cpId) => this.open.has(cpId));
    if (!cpIds.length) return;
    this.onlineWrite = this.onlineWrite
      .then(() => this.db.query(
        `UPDATE alert SET is_fixes = 1, fixed_dttm = now() WHERE cp_id = ANY($1::int[]) AND is_fixes = 0 AND error_id = 'Offline'`,
        [cpIds],
      ))
      .then(() => undefined, (err: unknown) => this.failures.note('alert', { err: (err as Error).message, chargers: cpIds.length }));
  }
}

/** The alert message of a StatusNotification: its connector first (what a NoError for it fixes), then what the charger said. */
function describe(p: { connectorId: number; status: string; info?: string; vendorErrorCode?: string }): string {
  const parts = [`Connector ${p.connectorId}: ${p.status}`];
  if (p.info) parts.push(p.info);
  if (p.vendorErrorCode) parts.push(`vendor code ${p.vendorErrorCode}`);
  return parts.join(', ');
}
