import { DATA_ROTATION_ITEMS, type DataRotationItem } from '@ev/core';
import type { Database, Sql } from '../db/client.ts';

/**
 * The data-rotation (retention) job: for each enabled data_rotation_setup item it deletes what is
 * older than period_month months. What an item removes:
 * - cp_request: charger messages (cp_requests) by cre_dttm;
 * - cp_meter_value: meter readings (cp_meter_values) by cre_dttm;
 * - cp_session: finished sessions (session_end_time set and older) with their meter readings;
 * - transaction: the transactions that never finished (no session_end_time, started before the
 *   cutoff: a lost StopTransaction), with their meter readings.
 * It never holds a long transaction: each statement is its own short transaction over at most
 * `batchSize` primary keys, with a pause between statements, so chargers' writes are not blocked.
 */
export interface RotationOptions {
  /** Primary keys per DELETE statement (sessions: a tenth of it, their readings in batches of it). */
  batchSize?: number;
  /** Pause between statements, ms. */
  pauseMs?: number;
  /** The clock (tests inject one). */
  now?: () => Date;
  /** Asked between statements: true stops the run (the server is closing). */
  stopped?: () => boolean;
  log?: { info(obj: object, msg: string): void };
}

export interface ItemReport {
  item: DataRotationItem;
  cutoff: Date;
  deleted: number;
  statements: number;
  ms: number;
}

interface Walk {
  table: string;
  pk: string;
  /** Ascending with the primary key (nearly): where the walk stops. */
  time: string;
  /** Rows of the walked range to delete, $1 being the cutoff. */
  where: string;
}

const WALKS: Record<'cp_request' | 'cp_meter_value', Walk> = {
  cp_request: { table: 'cp_requests', pk: 'req_id', time: 'cre_dttm', where: 'cre_dttm < $1' },
  cp_meter_value: { table: 'cp_meter_values', pk: 'id', time: 'cre_dttm', where: 'cre_dttm < $1' },
};
const SESSION_WALKS: Record<'cp_session' | 'transaction', Walk> = {
  cp_session: { table: 'cp_sessions', pk: 'session_id', time: 'session_start_time', where: 'session_end_time IS NOT NULL AND session_end_time < $1' },
  transaction: { table: 'cp_sessions', pk: 'session_id', time: 'session_start_time', where: 'session_end_time IS NULL AND session_start_time < $1' },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** period_month months before now (calendar months, as the setting says). */
export function cutoffFor(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/**
 * The highest primary key whose row is older than the cutoff, by binary search over the primary
 * key (about 2·log2(n) index look-ups, no index on the time column needed): ids are handed out in
 * time order, so the old rows are the low ids. A row that arrived late with an older time (an
 * offline charger's queue) lies above it and is deleted by a later run; a newer row below it is
 * kept by the DELETE's own time condition.
 */
async function boundary(sql: Sql, w: Walk, cutoff: Date): Promise<{ from: number; to: number } | undefined> {
  const [range] = await sql.query(`SELECT min(${w.pk}) AS lo, max(${w.pk}) AS hi FROM ${w.table}`);
  if (range.lo == null) return undefined;
  const olderAt = async (id: number): Promise<number | undefined> => {
    const [row] = await sql.query(`SELECT ${w.pk} AS id, ${w.time} < $2 AS old FROM ${w.table} WHERE ${w.pk} >= $1 ORDER BY ${w.pk} LIMIT 1`, [id, cutoff]);
    return row?.old ? Number(row.id) : undefined;
  };
  let lo = Number(range.lo);
  if ((await olderAt(lo)) === undefined) return undefined;
  let hi = Number(range.hi);
  // Invariant: the first row at or after lo is old; every row at or after hi + 1 is not (or none).
  if ((await olderAt(hi)) !== undefined) return { from: Number(range.lo), to: hi };
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const found = await olderAt(mid);
    if (found !== undefined) lo = found;
    else hi = mid - 1;
    if (found !== undefined && found >= hi) break;
  }
  return { from: Number(range.lo), to: lo };
}

async function count(sql: Sql, text: string, params: unknown[]): Promise<number> {
  const [row] = await sql.query(`WITH d AS (${text} RETURNING 1) SELECT count(*)::int AS n FROM d`, params);
  return row.n;
}

export class RotationJob {
  private current: Promise<ItemReport[]> | undefined;
  lastReport: ItemReport[] | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: RotationOptions = {},
  ) {}

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Starts a run unless one is under way (then answers undefined: never two runs at once). */
  start(): Promise<ItemReport[]> | undefined {
    if (this.current) return undefined;
    this.current = this.runAll().finally(() => {
      this.current = undefined;
    });
    return this.current;
  }

  /** Waits for the run under way, if any. */
  async settled(): Promise<void> {
    await this.current?.catch(() => undefined);
  }

  private async runAll(): Promise<ItemReport[]> {
    const o = this.options;
    const now = (o.now ?? (() => new Date()))();
    const rows = await this.db.query(`SELECT id, item, period_month FROM data_rotation_setup WHERE is_enabled = 1 ORDER BY id`);
    const reports: ItemReport[] = [];
    for (const row of rows) {
      if (o.stopped?.()) break;
      if (!(DATA_ROTATION_ITEMS as readonly string[]).includes(row.item)) continue;
      const item = row.item as DataRotationItem;
      const report = await this.runItem(item, cutoffFor(now, row.period_month));
      await this.db.query(`UPDATE data_rotation_setup SET last_run_dttm = $2, last_deleted = $3 WHERE id = $1`, [row.id, now, report.deleted]);
      o.log?.info({ item, cutoff: report.cutoff.toISOString(), deleted: report.deleted, statements: report.statements, ms: report.ms }, 'data rotation removed old rows');
      reports.push(report);
    }
    this.lastReport = reports;
    return reports;
  }

  private async runItem(item: DataRotationItem, cutoff: Date): Promise<ItemReport> {
    const started = Date.now();
    const report: ItemReport = { item, cutoff, deleted: 0, statements: 0, ms: 0 };
    if (item === 'cp_request' || item === 'cp_meter_value') await this.walkRows(WALKS[item], cutoff, report);
    else await this.walkSessions(SESSION_WALKS[item], cutoff, report);
    report.ms = Date.now() - started;
    return report;
  }

  private batch(): number {
    return Math.max(1, this.options.batchSize ?? 5000);
  }

  /** One statement done: pause so that chargers' writes go between our deletes. */
  private async pause(report: ItemReport): Promise<boolean> {
    report.statements++;
    await sleep(this.options.pauseMs ?? 20);
    return !this.options.stopped?.();
  }

  private async walkRows(w: Walk, cutoff: Date, report: ItemReport): Promise<void> {
    const range = await boundary(this.db, w, cutoff);
    if (!range) return;
    const size = this.batch();
    for (let from = range.from; from <= range.to; from += size) {
      const to = Math.min(from + size - 1, range.to);
      report.deleted += await count(this.db, `DELETE FROM ${w.table} WHERE ${w.pk} BETWEEN $2 AND $3 AND ${w.where}`, [cutoff, from, to]);
      if (!(await this.pause(report))) return;
    }
  }

  /** Sessions a tenth of a batch at a time: each first loses its readings (in batches), then goes. */
  private async walkSessions(w: Walk, cutoff: Date, report: ItemReport): Promise<void> {
    const range = await boundary(this.db, w, cutoff);
    if (!range) return;
    const size = Math.max(1, Math.floor(this.batch() / 10));
    for (let from = range.from; from <= range.to; from += size) {
      const to = Math.min(from + size - 1, range.to);
      const ids = (await this.db.query(`SELECT session_id FROM cp_sessions WHERE session_id BETWEEN $2 AND $3 AND ${w.where}`, [cutoff, from, to])).map((r) => r.session_id);
      if (!ids.length) continue;
      for (;;) {
        const n = await count(
          this.db,
          `DELETE FROM cp_meter_values WHERE id IN (SELECT id FROM cp_meter_values WHERE session_id = ANY($1::int[]) LIMIT $2)`,
          [ids, this.batch()],
        );
        report.deleted += n;
        if (!(await this.pause(report))) return;
        if (n < this.batch()) break;
      }
      report.deleted += await count(this.db, `DELETE FROM cp_sessions WHERE session_id = ANY($2::int[]) AND ${w.where}`, [cutoff, ids]);
      if (!(await this.pause(report))) return;
    }
  }
}
