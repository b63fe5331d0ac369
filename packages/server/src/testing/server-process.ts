import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Sql } from '../db/client.ts';
import { checkDurability, type CallRecord, type DurabilityReport } from './charging-load.ts';

/**
 * The real server (src/main.ts) in a child process of its own, for tests and benchmarks that kill
 * it (SIGKILL: no shutdown hook runs, the kernel closes every socket) and start it again on the
 * same database and port.
 */
export interface ServerProcess {
  child: ChildProcess;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the server wrote (stdout and stderr), for a failure's message. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const mainTs = fileURLToPath(new URL('../main.ts', import.meta.url));

/** A TCP port free now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node --import tsx src/main.ts` (one process, so that a signal reaches the server itself,
 * not a wrapper) and resolves once /readyz answers 200.
 */
export async function startServerProcess(opts: {
  databaseUrl: string;
  port: number;
  adminPassword: string;
  logLevel?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: opts.adminPassword,
      LOG_LEVEL: opts.logLevel ?? 'warn',
      PORTAL_DIR: '/nonexistent',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 100_000) out = out.slice(-50_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: ServerProcess = {
    child,
    exited,
    output: () => out,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  const until = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited at start:\n${out}`);
    const status = await fetch(`http://127.0.0.1:${opts.port}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status, () => 0);
    if (status === 200) return proc;
    if (Date.now() > until) {
      await proc.kill('SIGKILL');
      throw new Error(`server not ready within ${opts.startTimeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface RecoveryReport extends DurabilityReport {
  /** Acknowledged MeterValues whose reading (transaction, timestamp, energy) is not in cp_meter_values. */
  missingMeterValues: string[];
  /** transaction ids with more than one cp_sessions row. */
  duplicateTransactionIds: number[];
  /** Sessions of these chargers that no acknowledged StartTransaction names (a retried start that made a second one). */
  unacknowledgedSessions: number[];
  /** Sessions still open, and sessions closed by the server for want of a StopTransaction. */
  openSessions: number;
  closedWithoutStop: number;
  /** StartTransactions / StopTransactions whose answer was lost and that were sent again and acknowledged. */
  retriedStarts: number;
  retriedStops: number;
  /** Of the retried starts, how many the server had stored before it died: the retry got the same session back. */
  retriedStartsStoredBefore: number;
}

/**
 * After a crash: every acknowledged call is stored (checkDurability), every acknowledged reading is
 * in cp_meter_values, and each transaction has one session, started by an acknowledged StartTransaction.
 */
export async function checkRecovery(sql: Sql, calls: CallRecord[], cpNos: string[]): Promise<RecoveryReport> {
  const durability = await checkDurability(sql, calls);
  const acked = calls.filter((c) => c.outcome === 'ack');
  const reading = (tranId: number, ts: string, energy: number) => `${tranId}@${ts}=${energy}`;
  const expected = acked
    .filter((c) => c.action === 'MeterValues')
    .map((c) => reading(c.params.transactionId, c.params.meterValue[0].timestamp, Number(c.params.meterValue[0].sampledValue[0].value)));
  const tranIds = [...new Set(acked.filter((c) => c.action === 'StartTransaction').map((c) => c.result.transactionId as number))];
  const stored = new Set(
    (await sql.query<{ tran_id: number; ts: Date; energy: number }>(
      `SELECT s.tran_id, m.ts, m.energy::float8 AS energy FROM cp_meter_values m JOIN cp_sessions s USING (session_id)
        WHERE s.tran_id = ANY($1::int[])`,
      [tranIds],
    )).map((r) => reading(r.tran_id, new Date(r.ts).toISOString(), r.energy)),
  );
  const sessions = await sql.query<{ tran_id: number; n: number; open: number; fallback: number }>(
    `SELECT tran_id, count(*)::int AS n, count(*) FILTER (WHERE session_end_time IS NULL)::int AS open,
            count(*) FILTER (WHERE stop_note IS NOT NULL)::int AS fallback
       FROM cp_sessions WHERE cp_no = ANY($1::text[]) GROUP BY tran_id`,
    [cpNos],
  );
  const ackedIds = new Set(tranIds);
  // A call sent again after a lost answer carries the same params object (the charger's queue).
  const lost = new Set(calls.filter((c) => c.outcome === 'lost' || c.outcome === 'timeout').map((c) => c.params));
  const retried = (action: CallRecord['action']) => acked.filter((c) => c.action === action && lost.has(c.params));
  const retriedStarts = retried('StartTransaction');
  // A session created before its retry was sent was stored by the first try: the retry found it again.
  const created = new Map(
    (await sql.query<{ tran_id: number; cre_dttm: Date }>(`SELECT tran_id, cre_dttm FROM cp_sessions WHERE tran_id = ANY($1::int[])`, [
      retriedStarts.map((c) => c.result.transactionId),
    ])).map((r) => [r.tran_id, new Date(r.cre_dttm).getTime()]),
  );
  return {
    ...durability,
    missingMeterValues: expected.filter((r) => !stored.has(r)),
    duplicateTransactionIds: sessions.filter((s) => s.n > 1).map((s) => s.tran_id),
    unacknowledgedSessions: sessions.filter((s) => !ackedIds.has(s.tran_id)).map((s) => s.tran_id),
    openSessions: sessions.reduce((n, s) => n + s.open, 0),
    closedWithoutStop: sessions.reduce((n, s) => n + s.fallback, 0),
    retriedStarts: retriedStarts.length,
    retriedStops: retried('StopTransaction').length,
    retriedStartsStoredBefore: retriedStarts.filter((c) => created.get(c.result.transactionId)! < c.sentAt).length,
  };
}
