import type { ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The next IPC message of `type` from a benchmark's child process; rejects if the child exits first. */
export function message(child: ChildProcess, type: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const on = (m: any) => {
      if (m?.type !== type) return;
      child.off('message', on);
      child.off('exit', gone);
      resolve(m);
    };
    const gone = () => reject(new Error(`process exited waiting for '${type}'`));
    child.on('message', on);
    child.once('exit', gone);
  });
}

/** What a server child answers to 'cpu'. */
export interface ServerSample {
  type: 'cpu';
  /** CPU time so far, ms. */
  cpuMs: number;
  /** How late the event loop ran a 1 ms timer since the last sample, ms: p99 and max (null when not measured). */
  loopP99Ms: number | null;
  loopMaxMs: number | null;
  /** The real server's longest group commit since the last sample, ms (undefined for the no-work server). */
  slowestCommitMs?: number;
}

let loopDelay: IntervalHistogram | undefined;
/**
 * Set for both servers by bench/ocpp-load.ts --loop-delay. Off by default: its 1 ms timer slowed the
 * no-work server by 10-15 % (bench/README.md), which would flatter every ratio to it.
 */
const measureLoop = process.env.BENCH_LOOP_DELAY === '1';

/**
 * In a server child: its CPU time, and (with --loop-delay) its event loop's delay since the previous
 * call, the first call starting the measure. A charger's answer that is late because the server was
 * busy with something else (a garbage collection, another charger's burst) shows there, and not in
 * the database.
 */
export function serverSample(): ServerSample {
  if (measureLoop && !loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
  }
  const cpu = process.cpuUsage();
  const sample: ServerSample = {
    type: 'cpu',
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopP99Ms: loopDelay ? loopDelay.percentile(99) / 1e6 : null,
    loopMaxMs: loopDelay ? loopDelay.max / 1e6 : null,
  };
  loopDelay?.reset();
  return sample;
}
