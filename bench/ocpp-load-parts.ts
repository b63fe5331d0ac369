/**
 * Helpers of bench/ocpp-load.ts (split off to keep that file short): waiting for the server to settle, the
 * CPU per message of a set of turns, the MeterValues turn line, and PostgreSQL's CPU read from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { MeterLoopResult } from './ocpp-raw-charger.ts';
import type { ServerSample } from './child.ts';

/** What the server child reports on 'stats'. */
export interface Stats {
  rss: number; heap: number; cpuMs: number; connections: number; online: number; requests: number; meterValues: number;
  statements: number; transactions: number;
}

export async function until(fn: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const stop = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > stop) throw new Error('timed out waiting for the server to settle');
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export type CpuKey = 'serverCpuMs' | 'databaseCpuMs' | 'driverCpuMs';
export type Turn = MeterLoopResult & Record<CpuKey, number> & Pick<ServerSample, 'loopP99Ms' | 'loopMaxMs' | 'slowestCommitMs'>;

export const waits = (t: Turn) =>
  (t.slowestCommitMs === undefined ? '' : `, slowest commit ${t.slowestCommitMs.toFixed(0)} ms`) +
  (t.loopP99Ms === null ? '' : `; event loop late p99 ${t.loopP99Ms.toFixed(1)}, max ${t.loopMaxMs!.toFixed(0)} ms`);

/** CPU per message over the turns given, in µs, by process. */
export function cost(turns: Turn[]): { server: number; database: number; driver: number } {
  const n = turns.reduce((k, t) => k + t.answered, 0);
  const us = (key: CpuKey) => (turns.reduce((k, t) => k + t[key], 0) * 1000) / n;
  return { server: us('serverCpuMs'), database: us('databaseCpuMs'), driver: us('driverCpuMs') };
}

/** CPU ticks of every process named postgres on this machine (backends, WAL writer, checkpointer), by pid. */
export function postgresTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12])); // utime, stime (fields 14, 15 of proc(5))
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/** PostgreSQL's CPU time since `before` in ms: per process, so a backend that ended meanwhile subtracts nothing. */
export function postgresCpuMsSince(before: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, t] of postgresTicks()) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** _SC_CLK_TCK: 100 on Linux everywhere this runs. */
const CLOCK_TICKS = 100;
