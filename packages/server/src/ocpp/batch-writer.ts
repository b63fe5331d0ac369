import type { Database, Sql } from '../db/client.ts';
import { isDatabaseUnavailable, isRetryableConflict } from '../db/faults.ts';

/** One cp_requests row; cre_dttm null means "now". */
export interface RequestRow {
  request_type: number;
  cp_id: number;
  cp_no: string;
  charge_box_serial_number: string | null;
  connector_id: number | null;
  connector_status: string | null;
  request_data: unknown;
  /** request_data as the charger wrote it, when known: stored as is instead of serialized again. */
  request_json?: string;
  response_data: unknown;
  cre_dttm: Date | null;
  session_id: number | null;
  tran_id: number | null;
  uuid: string | null;
  loc: number | null;
  energy: number | null;
  voltage: number | null;
  ampere: number | null;
}

/** One cp_meter_values row. */
export interface MeterRow {
  session_id: number | null;
  cp_id: number;
  connector_id: number | null;
  ts: Date;
  energy: number | null;
  voltage: number | null;
  ampere: number | null;
  soc: number | null;
}

/** The latest readings of a running session. */
export interface SessionProgress {
  session_id: number;
  energy: number | null;
  voltage: number | null;
  ampere: number | null;
  soc: number | null;
}

/** What a BootNotification records about the charger (cps columns). */
export interface BootRow {
  cp_id: number;
  charge_point_vendor: string;
  charge_point_model: string;
  charge_point_serial_number: string | null;
  charge_box_serial_number: string | null;
  firmware_version: string | null;
  iccid: string | null;
  imsi: string | null;
  meter_type: string | null;
  meter_serial_number: string | null;
}

/** A charger's connection came up (online) or went down. */
export interface StateChange {
  cpId: number;
  online: boolean;
  /** The OCPP version it connected with (going online). */
  protocol?: string;
}

/** Everything one handled message writes; committed together with other messages' writes. */
export interface WriteSet {
  requests?: RequestRow[];
  meters?: MeterRow[];
  progress?: SessionProgress[];
  /** Chargers whose cps.last_message_dttm moves to now. */
  touched?: number[];
  /** Online/offline flags, in event order (a later one for the same charger wins). */
  states?: StateChange[];
  boots?: BootRow[];
}

interface Pending {
  set: WriteSet;
  rows: number;
  /** Holds a charger's message (its answer waits for this commit); else only flags and touches. */
  message: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface BatchWriterOptions {
  delayMs: number;
  maxRows: number;
  /** Transactions in flight at once (see the class comment). */
  inFlight: number;
}

/**
 * Group commit for the high-volume OCPP writes: writes queued within a few milliseconds (or up
 * to 1,500 rows) go to the database in one statement (its own transaction), and each caller's
 * promise resolves only once that statement has committed — a charger is answered only for what
 * is durable. Writes arriving during a commit form the next batch, flushed as soon as the commit
 * ends (they have waited already), so the database is never left idle while writes wait; the cap
 * must not be below what 500 chargers queue meanwhile (at 300 rows the bench stalled at 8,800/s).
 * `inFlight` statements may run at once; 1 by default: on the 2-core bench machine 2 gave
 * fewer messages per second (issue 14: 2,504/s against 2,988/s at load 12–15, the same at load
 * 3.6), PostgreSQL sharing the cores with the server. With more, commit order is not queue
 * order: a caller whose write must follow an earlier one of its own (a charger's next message,
 * its next online flag) waits for that one to commit first.
 * Rows travel as one JSON parameter per table, each row a JSON array of its columns in a fixed
 * order (jsonb_array_elements): one JSON.stringify per batch instead of an escaped array literal
 * per column, the payloads nested without a second encoding, no key names repeated per row. For
 * 500 MeterValues, against the earlier BEGIN, one jsonb_to_recordset statement per table, COMMIT:
 * PostgreSQL CPU 26–41 ms → 22–23 ms, this process 14–20 ms → 11–12 ms (bench machine, under load).
 */
export class BatchWriter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly flushes = new Set<Promise<void>>();
  /** Told each committed batch's row count and commit time in seconds (http/metrics.ts). */
  onFlush?: (rows: number, seconds: number) => void;

  constructor(
    private readonly db: Database,
    private readonly opts: BatchWriterOptions = { delayMs: 4, maxRows: 1500, inFlight: 1 },
  ) {}

  write(set: WriteSet): Promise<void> {
    const rows = (set.requests?.length ?? 0) + (set.meters?.length ?? 0) + (set.progress?.length ?? 0) +
      (set.touched?.length ?? 0) + (set.states?.length ?? 0) + (set.boots?.length ?? 0);
    if (rows === 0) return Promise.resolve();
    const message = Boolean(set.requests?.length || set.meters?.length || set.progress?.length || set.boots?.length);
    return new Promise((resolve, reject) => {
      this.queue.push({ set, rows, message, resolve, reject });
      this.queuedRows += rows;
      this.schedule();
    });
  }

  /** Rows waiting for a flush. */
  get queued(): number {
    return this.queuedRows;
  }

  /** Writes everything queued so far (used at shutdown). */
  async drain(): Promise<void> {
    while (this.queue.length || this.flushes.size) {
      if (this.queue.length && this.flushes.size < this.opts.inFlight) void this.flush();
      else await Promise.race(this.flushes);
    }
  }

  private schedule() {
    if (this.flushes.size >= this.opts.inFlight) return; // a flush ending picks the queue up
    if (this.queuedRows >= this.opts.maxRows) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.opts.delayMs);
    }
  }

  private flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let n = 0;
    let rows = 0;
    while (n < this.queue.length && rows < this.opts.maxRows) rows += this.queue[n++].rows;
    const batch = this.queue.splice(0, n);
    this.queuedRows -= rows;
    const done: Promise<void> = this.commit(batch).finally(() => {
      this.flushes.delete(done);
      // Messages queued meanwhile have waited a commit already: no timer, the database stays busy.
      // Online flags and touches alone wait for the timer, to share the next messages' commit: as a
      // commit of their own they held the chargers' next batch up behind it (a flood of connections
      // opened and closed for garbage made half the commits flag-only, issue 13).
      if (this.queue.some((p) => p.message)) void this.flush();
      else if (this.queue.length) this.schedule();
    });
    this.flushes.add(done);
    return done;
  }

  private async commit(batch: Pending[]): Promise<void> {
    if (!batch.length) return;
    try {
      const started = performance.now();
      await writeAll(this.db, batch);
      this.onFlush?.(batch.reduce((n, p) => n + p.rows, 0), (performance.now() - started) / 1000);
      for (const p of batch) p.resolve();
    } catch (err) {
      // Database unreachable, restarting or locked: every write fails alike, and retrying each on
      // its own would hold the queue for one timeout per message while chargers wait unanswered.
      if (batch.length === 1 || isDatabaseUnavailable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // One bad row must not fail the other chargers' messages: retry each write on its own.
      for (const p of batch) {
        try {
          await writeAll(this.db, [p]);
          p.resolve();
        } catch (e) {
          p.reject(e);
        }
      }
    }
  }
}

/** One cps row's changes from a batch: its events applied in order, as separate UPDATEs would. */
interface CpChange extends Partial<BootRow> {
  cp_id: number;
  online: 0 | 1 | null;
  came_online: boolean;
  touch: boolean;
  boot: boolean;
  protocol?: string;
}

async function writeAll(sql: Sql, batch: Pending[]): Promise<void> {
  const requests: RequestRow[] = [];
  const meters: MeterRow[] = [];
  // Later readings of the same session win.
  const progress = new Map<number, SessionProgress>();
  const cps = new Map<number, CpChange>();
  const cp = (id: number) => {
    let c = cps.get(id);
    if (!c) cps.set(id, (c = { cp_id: id, online: null, came_online: false, touch: false, boot: false }));
    return c;
  };
  for (const { set } of batch) {
    if (set.requests) for (const r of set.requests) requests.push(r);
    if (set.meters) for (const m of set.meters) meters.push(m);
    if (set.progress) for (const p of set.progress) progress.set(p.session_id, p);
    if (set.states) {
      for (const s of set.states) {
        const c = cp(s.cpId);
        c.online = s.online ? 1 : 0;
        // Going online also stamps online_since and last_message_dttm; going offline stamps offline_since.
        if (s.online) c.came_online = c.touch = true;
        if (s.protocol) c.protocol = s.protocol;
      }
    }
    if (set.touched) for (const id of set.touched) cp(id).touch = true;
    if (set.boots) for (const b of set.boots) Object.assign(cp(b.cp_id), b, { boot: true });
  }

  // One statement, one round trip and no BEGIN/COMMIT: a single statement is its own transaction.
  // Prepared (named): PostgreSQL parses and plans it once per connection instead of once per batch,
  // which cut its CPU per batch of 500 MeterValues from 22–25 ms to 18 ms (issue 14).
  // Its data-modifying WITH parts run on one snapshot and commit together; their tables are locked
  // in the order written, cp_sessions before cp_requests, as an administrator's LOCK TABLE
  // cp_sessions, cp_requests does (the other order deadlocks with it).
  const parts: string[] = [];
  const params: string[] = [];
  // The parts' names name the statement: one text per combination, prepared once per connection.
  const names: string[] = [];
  const add = (name: string, text: string, rows: unknown[] | string) => {
    params.push(typeof rows === 'string' ? rows : JSON.stringify(rows));
    parts.push(text.replaceAll('$1', `$${params.length}`));
    names.push(name);
  };
  // Ids sorted so concurrent writers lock rows in one order.
  if (progress.size) {
    add('progress', PROGRESS, [...progress.values()].sort((a, b) => a.session_id - b.session_id)
      .map((p) => [p.session_id, p.energy, p.voltage, p.ampere, p.soc]));
  }
  if (requests.length) {
    // request_data last, spliced in as the charger's own text when known: serializing every payload
    // again was the larger part of this process's JSON work per MeterValues (a cp_requests row of the
    // bench's MeterValues: 1.1 → 0.45 µs, issue 14).
    add('requests', REQUESTS, `[${requests.map((r) => {
      const head = JSON.stringify([r.request_type, r.cp_id, r.cp_no, r.charge_box_serial_number, r.connector_id, r.connector_status,
        r.response_data, r.cre_dttm, r.session_id, r.tran_id, r.uuid, r.loc, r.energy, r.voltage, r.ampere]);
      return `${head.slice(0, -1)},${r.request_json ?? JSON.stringify(r.request_data) ?? 'null'}]`;
    }).join(',')}]`);
  }
  if (meters.length) add('meters', METERS, meters.map((m) => [m.session_id, m.cp_id, m.connector_id, m.ts, m.energy, m.voltage, m.ampere, m.soc]));
  if (cps.size) {
    add('cps', CPS, [...cps.values()].sort((a, b) => a.cp_id - b.cp_id).map((c) => [c.cp_id, c.online, c.came_online, c.touch, c.boot,
      c.charge_point_vendor, c.charge_point_model, c.charge_point_serial_number, c.charge_box_serial_number, c.firmware_version,
      c.iccid, c.imsi, c.meter_type, c.meter_serial_number, c.protocol ?? null]));
  }
  if (!parts.length) return;
  const last = parts.pop()!;
  const text = parts.length ? `WITH ${parts.map((t, i) => `w${i} AS (${t})`).join(', ')} ${last}` : last;
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.query(text, params, `ocpp_batch_${names.join('_')}`);
      return;
    } catch (err) {
      if (attempt >= 3 || !isRetryableConflict(err)) throw err;
    }
  }
}

const PROGRESS = `UPDATE cp_sessions s
   SET energy = coalesce(x.energy, s.energy), voltage = coalesce(x.voltage, s.voltage), ampere = coalesce(x.ampere, s.ampere),
       running_pw_consume = greatest(s.running_pw_consume, coalesce(x.energy - s.start_meter, 0)),
       start_soc = coalesce(s.start_soc, round(x.soc)::smallint), lupd_dttm = now()
  FROM (SELECT (r->>0)::int AS session_id, (r->>1)::int8 AS energy, (r->>2)::float8 AS voltage, (r->>3)::float8 AS ampere,
               (r->>4)::float8 AS soc FROM jsonb_array_elements($1::jsonb) r) x
 WHERE s.session_id = x.session_id AND s.session_end_time IS NULL`;

const REQUESTS = `INSERT INTO cp_requests (request_type, cp_id, cp_no, charge_box_serial_number, connector_id, connector_status,
  response_data, cre_dttm, session_id, tran_id, uuid, loc, energy, voltage, ampere, request_data)
SELECT (r->>0)::smallint, (r->>1)::int, r->>2, r->>3, (r->>4)::int, r->>5, nullif(r->6, 'null'),
       coalesce((r->>7)::timestamptz, now()), (r->>8)::int, (r->>9)::int, r->>10, (r->>11)::int, (r->>12)::int8,
       (r->>13)::float8, (r->>14)::float8, nullif(r->15, 'null')
  FROM jsonb_array_elements($1::jsonb) r`;

const METERS = `INSERT INTO cp_meter_values (session_id, cp_id, connector_id, ts, energy, voltage, ampere, soc)
SELECT (r->>0)::int, (r->>1)::int, (r->>2)::int, (r->>3)::timestamptz, (r->>4)::int8, (r->>5)::float8, (r->>6)::float8, (r->>7)::float8
  FROM jsonb_array_elements($1::jsonb) r`;

// Online flags, last_message_dttm and boot details in one statement: one row version per charger per batch.
const CPS = `UPDATE cps c
   SET online_flag = coalesce(x.online, c.online_flag),
       online_since = CASE WHEN x.came_online THEN now() ELSE c.online_since END,
       offline_since = CASE WHEN x.online = 0 AND c.online_flag = 1 THEN now() ELSE c.offline_since END,
       last_message_dttm = CASE WHEN x.touch THEN now() ELSE c.last_message_dttm END,
       charge_point_vendor = CASE WHEN x.boot THEN x.charge_point_vendor ELSE c.charge_point_vendor END,
       charge_point_model = CASE WHEN x.boot THEN x.charge_point_model ELSE c.charge_point_model END,
       charge_point_serial_number = CASE WHEN x.boot THEN x.charge_point_serial_number ELSE c.charge_point_serial_number END,
       charge_box_serial_number = CASE WHEN x.boot THEN x.charge_box_serial_number ELSE c.charge_box_serial_number END,
       firmware_version = CASE WHEN x.boot THEN x.firmware_version ELSE c.firmware_version END,
       iccid = CASE WHEN x.boot THEN x.iccid ELSE c.iccid END,
       imsi = CASE WHEN x.boot THEN x.imsi ELSE c.imsi END,
       meter_type = CASE WHEN x.boot THEN x.meter_type ELSE c.meter_type END,
       meter_serial_number = CASE WHEN x.boot THEN x.meter_serial_number ELSE c.meter_serial_number END,
       boot_dttm = CASE WHEN x.boot THEN now() ELSE c.boot_dttm END,
       ocpp_protocol = coalesce(x.ocpp_protocol, c.ocpp_protocol)
  FROM (SELECT (r->>0)::int AS cp_id, (r->>1)::smallint AS online, (r->>2)::bool AS came_online, (r->>3)::bool AS touch,
               (r->>4)::bool AS boot, r->>5 AS charge_point_vendor, r->>6 AS charge_point_model, r->>7 AS charge_point_serial_number,
               r->>8 AS charge_box_serial_number, r->>9 AS firmware_version, r->>10 AS iccid, r->>11 AS imsi, r->>12 AS meter_type,
               r->>13 AS meter_serial_number, r->>14 AS ocpp_protocol FROM jsonb_array_elements($1::jsonb) r) x
 WHERE c.cp_id = x.cp_id`;
