import { UNREACHED_ERROR_CODES } from '@ev/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../db/client.ts';
import type { CentralSystem } from '../ocpp/central-system.ts';
import type { CommandDispatcher } from '../ocpp/commands.ts';
import { openingState, type OpeningHourRule, type OpeningState } from './schedule.ts';

/** How often assigned chargers are compared with their opening hours: a change lands within this. */
const CHECK_INTERVAL_MS = 15_000;

export type AppliedState = 'open' | 'closed';

interface Assignment extends OpeningHourRule {
  cp_id: number;
  cp_no: string;
  opening_hour_id: number;
  applied_state: AppliedState | null;
  applied_dttm: Date | null;
  /** The opening hour went to the trash: the charger is opened, then released. */
  gone: boolean;
}

const ASSIGNMENTS = `SELECT c.cp_id, p.cp_no, c.opening_hour_id, c.applied_state, c.applied_dttm,
    o.start_time, o.end_time, o.weekday, o.date_list, (o.deleted_at IS NOT NULL) AS gone
  FROM cp_opening_hour c JOIN opening_hour o ON o.opening_hour_id = c.opening_hour_id JOIN cps p ON p.cp_id = c.cp_id`;

/**
 * Makes chargers with opening hours Inoperative at closing and Operative at opening
 * (ChangeAvailability on connector 0), in APP_TIMEZONE. What was applied is kept in
 * cp_opening_hour.applied_state: a check compares every connected charger's state now with it,
 * so a restart catches up on what it missed and sends nothing already applied. A change is
 * claimed before it is sent (no second node sends it too) and given back when the charger could
 * not be reached; a charger that was offline gets it when it reconnects. Like planned-stops.ts.
 */
export class OpeningHoursScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Sql,
    private readonly cs: CentralSystem,
    private readonly commands: CommandDispatcher,
    private readonly log: FastifyBaseLogger,
    readonly timeZone: string,
    /** The clock; tests give a fixed one. */
    public now: () => Date = () => new Date(),
  ) {}

  start(intervalMs = CHECK_INTERVAL_MS): void {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One check of every connected charger; a check already running is joined rather than doubled. */
  tick(): Promise<void> {
    this.running ??= this.check(this.cs.connectedIds())
      .catch((err) => this.log.error({ err }, 'opening hours not checked'))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Brings these chargers (those connected) to their state now: after a reconnection or a change of their hours. */
  async reconcile(cpIds: number[]): Promise<void> {
    await this.running;
    const connected = new Set(this.cs.connectedIds());
    await this.check(cpIds.filter((id) => connected.has(id))).catch((err) => this.log.error({ err }, 'opening hours not reconciled'));
  }

  /** The opening state of an opening hour now (always open for none). */
  stateOf(rule: OpeningHourRule | undefined): OpeningState {
    return rule ? openingState(rule, this.timeZone, this.now()) : { open: true, nextChange: null };
  }

  /** Whether a charger is outside its opening hours now (a remote start is then refused). */
  async closedNow(cpId: number): Promise<boolean> {
    const [row] = await this.db.query<Assignment>(`${ASSIGNMENTS} WHERE c.cp_id = $1 AND o.deleted_at IS NULL`, [cpId]);
    return !!row && !this.stateOf(row).open;
  }

  /** Opens a charger whose opening hours were taken away while it was closed (best effort: it may be offline). */
  async release(cpIds: number[]): Promise<void> {
    const connected = new Set(this.cs.connectedIds());
    await Promise.all(cpIds.filter((id) => connected.has(id)).map(async (cpId) => {
      const outcome = await this.commands.send(cpId, 'ChangeAvailability', { connectorId: 0, type: 'Operative' });
      this.log.info({ cpId, status: outcome.status }, 'opening hours removed: charger made available');
    }));
  }

  private async check(cpIds: number[]): Promise<void> {
    if (!cpIds.length) return;
    const rows = await this.db.query<Assignment>(`${ASSIGNMENTS} WHERE c.cp_id = ANY($1::int[])`, [cpIds]);
    const states = new Map<number, boolean>();
    await Promise.all(rows.map(async (row) => {
      let open = states.get(row.opening_hour_id);
      if (open === undefined) states.set(row.opening_hour_id, (open = row.gone || this.stateOf(row).open));
      const wanted: AppliedState = open ? 'open' : 'closed';
      if (row.gone && row.applied_state !== 'closed') return this.dropGone(row);
      if (row.applied_state === wanted) return;
      await this.apply(row, wanted);
    }));
  }

  private async apply(row: Assignment, wanted: AppliedState): Promise<void> {
    const claimed = await this.db.query(
      `UPDATE cp_opening_hour SET applied_state = $2, applied_dttm = $3
        WHERE cp_id = $1 AND opening_hour_id = $4 AND applied_state IS NOT DISTINCT FROM $5 RETURNING cp_id`,
      [row.cp_id, wanted, this.now().toISOString(), row.opening_hour_id, row.applied_state],
    );
    if (!claimed.length) return; // applied meanwhile, here or on another node
    const outcome = await this.commands.send(row.cp_id, 'ChangeAvailability', { connectorId: 0, type: wanted === 'open' ? 'Operative' : 'Inoperative' });
    const unreached = outcome.status === 'error' && UNREACHED_ERROR_CODES.includes(outcome.errorCode);
    if (unreached) {
      await this.db.query(
        `UPDATE cp_opening_hour SET applied_state = $2, applied_dttm = $3 WHERE cp_id = $1 AND applied_state = $4`,
        [row.cp_id, row.applied_state, row.applied_dttm, wanted],
      );
    } else if (row.gone) {
      await this.dropGone(row);
    }
    this.log.info(
      { cpNo: row.cp_no, state: wanted, status: outcome.status, ...(outcome.status === 'error' ? { error: outcome.message } : {}) },
      unreached ? 'opening hours change not delivered: sent when the charger is back' : 'opening hours applied',
    );
  }

  private async dropGone(row: Assignment): Promise<void> {
    await this.db.query(`DELETE FROM cp_opening_hour WHERE cp_id = $1 AND opening_hour_id = $2`, [row.cp_id, row.opening_hour_id]);
  }
}
