import { UNREACHED_ERROR_CODES } from '@ev/core';
import type { CentralSystem } from './central-system.ts';
import type { CommandDispatcher } from './commands.ts';

/** How often sessions past their planned end are looked for. */
const CHECK_INTERVAL_MS = 15_000;
/** Sessions stopped per check; more wait for the next one. */
const BATCH = 100;

/**
 * Stops the sessions a remote start gave a duration (cp_sessions.planned_end_dttm) once that time
 * has passed, with RemoteStopTransaction through the dispatcher (so logged in cp_requests). Due
 * sessions are read from the database, so a restart loses none. A session is claimed before its
 * stop is sent (planned_stop_sent_dttm), so no check, here or on another node, sends it twice; the
 * claim is given back when the charger could not be reached, and the next check tries again.
 */
export class PlannedStops {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly cs: CentralSystem,
    private readonly commands: CommandDispatcher,
  ) {}

  start(intervalMs = CHECK_INTERVAL_MS): void {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One check as of `now`; a check already running is joined rather than doubled. */
  tick(now = new Date()): Promise<void> {
    this.running ??= this.check(now)
      .catch((err) => this.cs.log.error({ err }, 'OCPP planned stops not checked'))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async check(now: Date): Promise<void> {
    // Only chargers connected to this node: another node stops its own.
    const connected = this.cs.connectedIds();
    if (!connected.length) return;
    const due = await this.cs.db.query<{ session_id: number; tran_id: number; cp_id: number; cp_no: string }>(
      `UPDATE cp_sessions SET planned_stop_sent_dttm = now()
        WHERE session_id IN (
          SELECT session_id FROM cp_sessions
           WHERE session_end_time IS NULL AND planned_end_dttm <= $1 AND planned_stop_sent_dttm IS NULL
             AND cp_id = ANY($2::int[])
           ORDER BY planned_end_dttm LIMIT ${BATCH}
             FOR UPDATE SKIP LOCKED)
        RETURNING session_id, tran_id, cp_id, cp_no`,
      [now.toISOString(), connected],
    );
    await Promise.all(due.map(async (s) => {
      const outcome = await this.commands.send(s.cp_id, 'RemoteStopTransaction', { transactionId: s.tran_id });
      this.cs.bus.emit('plannedStopSent', { cpId: s.cp_id, tranId: s.tran_id, outcome });
      const unreached = outcome.status === 'error' && UNREACHED_ERROR_CODES.includes(outcome.errorCode);
      if (unreached) {
        await this.cs.db.query(`UPDATE cp_sessions SET planned_stop_sent_dttm = NULL WHERE session_id = $1`, [s.session_id]);
      }
      this.cs.log.info(
        { cpNo: s.cp_no, tranId: s.tran_id, status: outcome.status, ...(outcome.status === 'error' ? { error: outcome.message } : {}) },
        unreached ? 'OCPP planned stop not delivered: retried at the next check' : 'OCPP session stopped at its planned end',
      );
    }));
  }
}
