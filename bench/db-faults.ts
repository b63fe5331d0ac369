/**
 * The OCPP central system under database faults and a malformed-frame flood, at full size.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/db-faults.ts
 *   npx tsx bench/db-faults.ts                       flood only (PGlite): the faults need PostgreSQL
 *
 * Options: --chargers N (charging fleet, 200), --meter-ms N (MeterValues interval, 500),
 *          --healthy N (50), --flooders N (50), --frames N (malformed frames to try, 20000),
 *          --flood-s N (longest the flood sends, 35; then up to 10 s for the server to answer what it got),
 *          --window N (one flood: frames a flood connection may have unanswered; by default two,
 *          0 = written without waiting, then 20), --only faults|flood.
 *
 * 1. terminated backends: the fleet charges (Start, MeterValues, Stop in a loop) while every
 *    backend of the server's database is terminated three times, 1 s apart.
 * 2. outage: the server's database connections go through a TCP relay in this process that cuts
 *    them all and refuses new ones for 5 s (a database restart, a partition).
 * 3. flood: healthy chargers heartbeat in a closed loop while flood connections send malformed
 *    frames as fast as they can and reconnect when closed.
 * Every call of the fleet is checked against the database afterwards: acknowledged means stored.
 * The server runs in a child process (this file with --serve) through the testing harness over a
 * fresh database (dropped at the end) with logLevel 'warn'; its stdout lines are counted here.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { TcpProxy } from '../packages/server/src/testing/tcp-proxy.ts';
import { checkDurability, startChargingLoad, type ChargingLoad } from '../packages/server/src/testing/charging-load.ts';
import { RawCharger } from './ocpp-raw-charger.ts';
import { numberOption, option } from './args.ts';
import { message } from './child.ts';

const only = option('only');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// As the server reads them (db/client.ts): checkDurability compares end_meter (bigint) with a number.
pg.types.setTypeParser(20, Number);
const IDTAG = 'BENCHTAG';

/* ---------------------------------------------------------------- server (child) */

async function serve(): Promise<void> {
  // Before the harness is imported: it picks its database from TEST_DATABASE_URL.
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete process.env.TEST_DATABASE_URL;
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const { addCard } = await import('../packages/server/src/testing/ocpp-support.ts');
  const proxyPort = numberOption('proxy-port', 0);
  const via = (url: string) => Object.assign(new URL(url), { hostname: '127.0.0.1', port: String(proxyPort) }).toString();
  // Production database bounds (pool 10, statement 5 s, lock 2 s, connect 3 s), not the tests' short ones.
  const s = await startTestServer({ logLevel: 'warn' }, proxyPort ? via : undefined);
  const cpNos = process.argv[process.argv.indexOf('--cps') + 1].split(',');
  const [site] = await s.db.query(`INSERT INTO cp_locs (address) VALUES ('bench site') RETURNING loc_id`);
  await s.db.query(`INSERT INTO cps (cp_no, name, loc_id) SELECT x, x, $2 FROM unnest($1::text[]) x`, [cpNos, site.loc_id]);
  await addCard(s.db, [IDTAG]);
  const [{ version }] = await s.db.query(`SELECT version()`);
  process.send!({ type: 'ready', wsUrl: s.wsUrl, baseUrl: s.baseUrl, databaseUrl: s.databaseUrl, db: `${s.db.kind}, ${version.split(' on ')[0]}` });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let closing: Promise<void> | undefined;
  const close = (code: number) => (closing ??= s.close()).finally(() => process.exit(code));
  process.on('disconnect', () => void close(1)); // the driver died: still drop the database
  process.on('message', (m: any) => {
    if (m.type === 'stats') {
      const cpu = process.cpuUsage();
      process.send!({ type: 'stats', rss: process.memoryUsage().rss, cpuMs: (cpu.user + cpu.system) / 1000, lagMs: lag.max / 1e6 });
      lag.reset();
    } else if (m.type === 'close') void close(0);
  });
}

/* ---------------------------------------------------------------- driver (parent) */

interface Ready { wsUrl: string; baseUrl: string; databaseUrl: string; db: string }
/** lagMs: the server's longest event-loop delay since the previous stats. */
interface Stats { rss: number; cpuMs: number; lagMs: number }
interface LogLine { at: number; level: number; msg: string }
interface Server { ready: Ready; logs: LogLine[]; alive(): boolean; stats(): Promise<Stats | null>; close(): Promise<void> }

const children = new Set<ChildProcess>();

async function startServer(cpNos: string[], proxyPort = 0): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', '--proxy-port', String(proxyPort), '--cps', cpNos.join(',')], {
    env: process.env,
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    silent: true, // stdout is the server's log, counted below
  });
  children.add(child);
  const logs: LogLine[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const j = (() => { try { return JSON.parse(line); } catch { return { level: 0, msg: line }; } })();
    logs.push({ at: Date.now(), level: j.level, msg: j.msg });
  });
  child.stderr!.pipe(process.stderr);
  const exited = new Promise<null>((r) => child.once('exit', (code, signal) => {
    children.delete(child);
    if (code !== 0) console.log(`!! server process exited: code ${code}, signal ${signal}`);
    r(null);
  }));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const ready = await Promise.race([message(child, 'ready'), exited]);
  if (!ready) throw new Error('the server did not start');
  return {
    ready, logs, alive,
    stats: () => (alive() ? (child.send({ type: 'stats' }), Promise.race([message(child, 'stats'), exited, sleep(10_000).then(() => null)])) : Promise.resolve(null)),
    async close() {
      if (alive()) {
        child.send({ type: 'close' });
        if ((await Promise.race([exited.then(() => 'exit'), sleep(30_000)])) !== 'exit') child.kill();
      } else if (process.env.BENCH_DATABASE_URL) {
        // A dead server left its database behind.
        const c = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${new URL(ready.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
        await c.end();
      }
    },
  };
}

async function drive(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const watchdog = setTimeout(() => {
    console.log('!! bench timed out after 15 min');
    for (const c of children) c.kill();
    process.exit(1);
  }, 15 * 60_000);
  console.log(`${new Date().toISOString()}; Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`);
  if (only !== 'flood') {
    if (pgUrl) await faults(pgUrl);
    else console.log('database faults: need PostgreSQL (set BENCH_DATABASE_URL); skipped, flood only (PGlite)');
  }
  if (only !== 'faults') for (const w of process.argv.includes('--window') ? [numberOption('window', 20)] : [0, 20]) await flood(w);
  clearTimeout(watchdog);
}

async function faults(pgUrl: string): Promise<void> {
  const n = numberOption('chargers', 200);
  const meterMs = numberOption('meter-ms', 500);
  const cpNos = Array.from({ length: n }, (_, i) => `F${String(i + 1).padStart(4, '0')}`);
  const target = new URL(pgUrl);
  const proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).listen();
  const server = await startServer(cpNos, proxy.port);
  console.log(`database faults: ${server.ready.db}; ${n} chargers charging, MeterValues every ${meterMs} ms, 5 per session`);
  const admin = new pg.Client({ connectionString: server.ready.databaseUrl });
  await admin.connect();
  try {
    await chargeThrough(server, admin, cpNos, meterMs, 'terminated backends', async () => {
      const killed: number[] = [];
      for (let i = 0; i < 3; i++) {
        if (i) await sleep(1000);
        const r = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        killed.push(r.rowCount ?? 0);
      }
      return { end: Date.now(), what: `pg_terminate_backend × 3, 1 s apart: ${killed.join(' + ')} backends`, endName: 'the last termination' };
    });
    if (server.alive()) {
      await chargeThrough(server, admin, cpNos, meterMs, 'outage 5 s', async () => {
        proxy.outage(5000);
        await sleep(5000);
        return { end: Date.now(), what: 'every database connection cut, new ones refused for 5 s (TCP relay)', endName: 'the outage’s end' };
      });
    }
  } finally {
    await admin.end();
    await server.close();
    await proxy.close();
  }
}

/** Charges ~5 s, runs the fault, charges ~10 s more, stops, and checks every call against the database. */
async function chargeThrough(
  server: Server, admin: pg.Client, cpNos: string[], meterMs: number, name: string,
  fault: () => Promise<{ end: number; what: string; endName: string }>,
): Promise<void> {
  const load = startChargingLoad({ wsUrl: server.ready.wsUrl, cpNos, idTag: IDTAG, meterIntervalMs: meterMs });
  const steady = await load.progressed(3, 60_000);
  await sleep(5000);
  const before = await server.stats();
  const logsFrom = server.logs.length;
  const start = Date.now();
  const readyz = pollReadyz(server.ready.baseUrl);
  const { end, what, endName } = await fault();
  await sleep(10_000);
  await load.stop();
  const polls = await readyz.stop();
  const after = await server.stats();
  const calls = load.calls();
  const report = await checkDurability({ query: async (text, params) => (await admin.query(text, params)).rows }, calls);
  const [open] = (await admin.query(`SELECT count(*)::int AS n FROM cp_sessions WHERE session_end_time IS NULL`)).rows;
  const rec = recovery(load, end);
  const bad = polls.filter((p) => p.status !== 200);
  const codes = Object.entries(report.errorCodes).map(([c, k]) => `${c} ${k}`).join(', ') || 'none';
  const lines = server.logs.slice(logsFrom);
  const missing = report.missingRequests.length + report.missingSessions.length + report.unappliedStops.length;
  console.log(
    `\n[${name}] ${what}${steady ? '' : ' (!! the fleet was not all charging before the fault)'}\n` +
      `  calls ${calls.length}: acknowledged ${report.acknowledged} (+ ${calls.filter((c) => c.outcome === 'ack' && c.action === 'BootNotification').length} boots), ` +
      `refused with CALLERROR ${report.refused} (${codes}), unanswered ${report.unanswered.length} ` +
      `(timeout ${report.unanswered.filter((c) => c.outcome === 'timeout').length}, lost ${report.unanswered.filter((c) => c.outcome === 'lost').length})\n` +
      `  acknowledged but missing in the database ${missing} (requests ${report.missingRequests.length}, sessions ${report.missingSessions.length}, ` +
      `stops ${report.unappliedStops.length}); sessions left open ${open.n}\n` +
      `  server process alive: ${server.alive() && after !== null ? 'yes' : 'NO'}; ` +
      `every charger acknowledged again ${fmt(rec.max)} after ${endName} (median charger ${fmt(rec.p50)}${rec.never ? `, ${rec.never} never` : ''}); ` +
      `slowest answer ${fmt(Math.max(0, ...calls.map((c) => (c.answeredAt ?? c.sentAt) - c.sentAt)))}\n` +
      `  /readyz every 200 ms from the fault's start: ${polls.length} polls, ${bad.length} not 200` +
      (bad.length ? `, from +${fmt(bad[0].at - start)} to +${fmt(bad[bad.length - 1].at - start)} (503 for ~${fmt(bad[bad.length - 1].at - bad[0].at + 200)}), ` +
        `first 200 again +${fmt((polls.find((p) => p.at > bad[bad.length - 1].at)?.at ?? NaN) - start)}` : '') + `\n` +
      `  server log: ${lines.length} warn/error lines (${summarise(lines)}); server CPU ${after && before ? ((after.cpuMs - before.cpuMs) / 1000).toFixed(1) : '?'} s, ` +
      `longest event-loop delay ${after ? after.lagMs.toFixed(0) : '?'} ms, RSS ${after ? mb(after.rss) : '?'} MB`,
  );
}

/** Per charger, from `since` to the answer of the first message sent after it that was acknowledged. */
function recovery(load: ChargingLoad, since: number): { max: number; p50: number; never: number } {
  const per = load.chargers
    .map((c) => c.calls.find((x) => x.outcome === 'ack' && x.sentAt >= since))
    .map((a) => (a ? a.answeredAt! - since : Infinity))
    .sort((a, b) => a - b);
  return { max: per[per.length - 1], p50: per[Math.floor(per.length / 2)], never: per.filter((x) => x === Infinity).length };
}

function pollReadyz(baseUrl: string): { stop(): Promise<{ at: number; status: number }[]> } {
  const polls: { at: number; status: number }[] = [];
  let going = true;
  const loop = (async () => {
    for (let next = Date.now(); going; next += 200) {
      await sleep(Math.max(0, next - Date.now()));
      const at = Date.now();
      const status = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0);
      polls.push({ at, status });
    }
  })();
  return { stop: async () => ((going = false), await loop, polls) };
}

/** window: malformed frames a flood connection may have unanswered (0: written without waiting). */
async function flood(window: number): Promise<void> {
  const nHealthy = numberOption('healthy', 50);
  const nFlood = numberOption('flooders', 50);
  const frames = numberOption('frames', 20000);
  const floodS = numberOption('flood-s', 35);
  const healthyNos = Array.from({ length: nHealthy }, (_, i) => `H${String(i + 1).padStart(3, '0')}`);
  const floodNos = Array.from({ length: nFlood }, (_, i) => `X${String(i + 1).padStart(3, '0')}`);
  const server = await startServer([...healthyNos, ...floodNos]);
  try {
    const { hostname, port } = new URL(server.ready.wsUrl);
    const healthy = healthyNos.map((no) => new RawCharger(hostname, Number(port), no));
    await Promise.all(healthy.map((c) => c.boot()));
    console.log(`\n[malformed-frame flood] ${server.ready.db}; ${nHealthy} healthy chargers heartbeating (one call in flight each), ` +
      `${nFlood} flood connections, up to ${frames} frames or ${floodS} s, ` +
      (window ? `each with up to ${window} frames unanswered` : 'written without waiting for answers'));

    let phase: 'baseline' | 'flood' | 'done' = 'baseline';
    const latency = { baseline: [] as number[], flood: [] as number[] };
    let hbFailed = 0;
    let floodStarted = Infinity;
    const beating = Promise.all(healthy.map(async (c) => {
      while (phase !== 'done') {
        const t = performance.now();
        const answer = await c.callRaw((id) => '[2,"' + id + '","Heartbeat",{}]').catch(() => '');
        // A Heartbeat answered after the flood began belongs to it, even if it was sent just before.
        const p = performance.now() >= floodStarted ? 'flood' : 'baseline';
        if (answer.charCodeAt(1) === 51) latency[p].push(performance.now() - t);
        else hbFailed++;
        if (!answer) return; // the socket is gone: counted, not retried
      }
    }));
    const s0 = await server.stats();
    const d0 = process.cpuUsage();
    // The driver's own event-loop delay: a heartbeat answer waits in it too.
    const dLag = monitorEventLoopDelay({ resolution: 10 });
    dLag.enable();
    await sleep(5000);
    const s1 = await server.stats();
    const d1 = process.cpuUsage();
    const dLag1 = dLag.max / 1e6;
    dLag.reset();

    const f = { sent: 0, connects: 0, closedByServer: 0, closeCodes: {} as Record<number, number>, refused: {} as Record<string, number> };
    const connect = (no: string) => new Promise<WebSocket | string>((r) => {
      const ws = new WebSocket(`${server.ready.wsUrl}/ocpp/${no}`, ['ocpp1.6']);
      ws.on('error', (err) => r(err.message));
      ws.once('open', () => r(ws));
      ws.once('unexpected-response', (req, res) => (r(`HTTP ${res.statusCode}`), req.destroy()));
    });
    // Half unparsable text, half well-formed calls that break their schema: the server counts both.
    const bad = (i: number) => (i % 2 ? '{garbage ' + i : `[2,"x${i}","StatusNotification",{"connectorId":"x","errorCode":"NoError","status":"Available"}]`);
    // Every flood connection open before the clock starts: the first ones open would spend the budget alone.
    const first = await Promise.all(floodNos.map(connect));
    const floodStart = Date.now();
    floodStarted = performance.now();
    const floodEnd = floodStart + floodS * 1000;
    const going = () => f.sent < frames && Date.now() < floodEnd;
    phase = 'flood';
    await Promise.all(floodNos.map(async (no, i) => {
      for (let ws = first[i]; ; ws = await connect(no)) {
        if (typeof ws === 'string') {
          f.refused[ws] = (f.refused[ws] ?? 0) + 1;
        } else {
          f.connects++;
          let answered = 0;
          let wake = () => undefined as void;
          const closed = new Promise<number>((r) => ws.once('close', (code) => (wake(), r(code))));
          ws.on('message', () => (answered++, wake()));
          const wait = (ms: number) => new Promise<void>((r) => ((wake = r), setTimeout(r, ms)));
          for (let here = 0; ws.readyState === WebSocket.OPEN;) {
            if (!going()) {
              // Budget spent: the flood lasts until the server has answered or closed what it was sent.
              if (here === answered || Date.now() >= floodEnd + 10_000) break;
              await wait(100);
            } else if (window && here - answered >= window) await wait(100);
            else {
              ws.send(bad(here++));
              f.sent++;
              await new Promise((r) => (ws.bufferedAmount > 65536 ? setTimeout(r, 1) : setImmediate(r)));
            }
          }
          if (ws.readyState === WebSocket.OPEN) ws.close(1000); // our end, not the server's: not counted
          else {
            const code = await closed;
            f.closedByServer++;
            f.closeCodes[code] = (f.closeCodes[code] ?? 0) + 1;
          }
          await closed;
        }
        if (!going()) return;
        await sleep(100); // then reconnect, as a charger does
      }
    }));
    const floodMs = Date.now() - floodStart;
    const s2 = await server.stats();
    const d2 = process.cpuUsage();
    const dLag2 = dLag.max / 1e6;
    dLag.disable();
    phase = 'done';
    await beating;
    const floodLines = server.logs.filter((l) => l.at >= floodStart && l.at <= floodStart + floodMs);
    // The summarised warnings write their "(repeated)" line up to 10 s after the first one.
    await sleep(11_000);
    const allLines = server.logs.filter((l) => l.at >= floodStart);

    const pcts = (xs: number[], secs: number) => {
      xs.sort((a, b) => a - b);
      const q = (p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(1) ?? '-';
      return `${xs.length} answered (${Math.round(xs.length / secs)}/s), p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`;
    };
    const cpu = (a: Stats | null, b: Stats | null, ms: number) => (a && b ? `${((b.cpuMs - a.cpuMs) / ms * 100).toFixed(0)} %` : '?');
    const drv = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage, ms: number) => `${((b.user + b.system - a.user - a.system) / 1000 / ms * 100).toFixed(0)} %`;
    const refused = Object.entries(f.refused).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
    console.log(
      `  flood: ${f.sent} malformed frames sent in ${(floodMs / 1000).toFixed(1)} s over ${f.connects} connections; ` +
        `closed by the server ${f.closedByServer} (codes ${JSON.stringify(f.closeCodes)}); reconnects refused ${refused}\n` +
        `  Heartbeats, 5 s baseline: ${pcts(latency.baseline, 5)}; server CPU ${cpu(s0, s1, 5000)} of a core, driver ${drv(d0, d1, 5000)}; ` +
          `longest event-loop delay: server ${s1?.lagMs.toFixed(0)} ms, driver ${dLag1.toFixed(0)} ms\n` +
        `  Heartbeats during the flood: ${pcts(latency.flood, floodMs / 1000)}; server CPU ${cpu(s1, s2, floodMs)}, driver ${drv(d1, d2, floodMs)}; ` +
          `longest event-loop delay: server ${s2?.lagMs.toFixed(0)} ms, driver ${dLag2.toFixed(0)} ms; ${hbFailed} failed\n` +
        `  server log: ${floodLines.length} warn/error lines during the flood, ${allLines.length} up to 11 s after it (${summarise(allLines)})\n` +
        `  server process alive: ${server.alive() && s2 ? 'yes' : 'NO'}; RSS ${s2 ? mb(s2.rss) : '?'} MB`,
    );
    for (const c of healthy) c.terminate();
  } finally {
    await server.close();
  }
}

/** Counts log lines by level and message, most frequent first. */
function summarise(lines: LogLine[]): string {
  const by = new Map<string, number>();
  for (const l of lines) {
    const key = `${({ 40: 'warn', 50: 'error', 60: 'fatal' } as Record<number, string>)[l.level] ?? l.level} "${l.msg}"`;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  return [...by].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

if (process.argv.includes('--serve')) await serve();
else {
  await drive();
  process.exit(0);
}
