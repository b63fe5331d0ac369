/**
 * Malformed frames under load: 500 well-behaved chargers send MeterValues (one call outstanding
 * each) while 100 connections send 100,000 malformed frames of every kind (testing/malformed-flood.ts:
 * bad JSON, wrong types, unknown actions, huge strings up to and over the 256 KiB frame limit,
 * binary frames, results and errors for unknown ids). The well-behaved chargers' latency is
 * measured in clean runs and runs under the garbage, in turn (the machine is shared: its load drifts).
 *
 *   npx tsx bench/ocpp-malformed.ts                                   PGlite (in memory)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocpp-malformed.ts
 *
 * Options: --chargers N (well-behaved, 500), --connections N (flood connections, 100), --frames N (100000, in all),
 *          --rounds N (garbage runs, 3: clean, garbage, clean, …, clean), --seconds N (each run, 20; a round's
 *          flood is offered at the pace that would last it, and the round lasts until the server has read it all),
 *          --flood-ids N (chargeBoxIds the flood connections take in turn, one per connection: closed ones are
 *          cooled down 30 s, 6000),
 *          --interval-ms N (each well-behaved charger sends one MeterValues per N ms; 0, the default: a
 *          closed loop, as fast as answered, which saturates this machine's two cores on its own),
 *          --garbage-closes-per-address N (the server's OCPP_GARBAGE_CLOSES_PER_ADDRESS, 30; 0: the flood's
 *          address is never refused, so every frame is delivered), --warm-up-frames N (malformed frames sent over
 *          5 s from another address before anything is measured, 5000; 0: none), --garbage-read-pause-ms N (the
 *          server's OCPP_GARBAGE_READ_PAUSE_MS; 0: a connection sending garbage is read at full speed),
 *          --cpu-prof (the server writes a V8 CPU profile to /tmp/ocpp-bench-profiles/ at exit).
 *
 * Three processes: the server (bench/ocpp-load.ts --serve: the testing harness over a fresh
 * database, chargers B1…BN in cps), the flood (this file with --flood), and this driver with the
 * well-behaved chargers (bench/ocpp-raw-charger.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { floodMalformed } from '../packages/server/src/testing/malformed-flood.ts';
import { meterLoop, pool, RawCharger } from './ocpp-raw-charger.ts';
import { numberOption, option } from './args.ts';
import { message } from './child.ts';

const chargers = numberOption('chargers', 500);
const connections = numberOption('connections', 100);
const frames = numberOption('frames', 100_000);
const seconds = numberOption('seconds', 20);
const rounds = numberOption('rounds', 3);
const floodIds = numberOption('flood-ids', 6000);
/** Each well-behaved charger's MeterValues interval; 0: a closed loop, as fast as answered. */
const intervalMs = numberOption('interval-ms', 0);
/** The server's OCPP_GARBAGE_CLOSES_PER_ADDRESS (0: every flood frame is delivered and answered). */
const garbageCloses = numberOption('garbage-closes-per-address', 30);
/** Garbage sent before anything is measured (over 5 s), as the MeterValues path is warmed up: the first round was cold. */
const warmUpFrames = numberOption('warm-up-frames', 5000);
/** The server's OCPP_GARBAGE_READ_PAUSE_MS (absent: the server's default; 0: a connection sending garbage is read at full speed). */
const readPause = option('garbage-read-pause-ms');

if (process.argv.includes('--flood')) {
  // The flood's own process: its sockets and JSON cost the driver's measurements nothing.
  const wsUrl = process.argv[process.argv.indexOf('--flood') + 1];
  const ids = Array.from({ length: floodIds }, (_, i) => `B${chargers + i + 1}`);
  // Loaded and waiting: each round's flood and its measured run start together.
  process.send!({ type: 'ready' });
  if (warmUpFrames) {
    await new Promise((r) => process.once('message', r));
    // Another address than the rounds' (its refusal must not carry over to them), the last round's ids.
    const from = Math.floor(((rounds - 1) * floodIds) / rounds);
    const result = await floodMalformed({
      wsUrl, ids: ids.slice(from), connections, frames: warmUpFrames, perSecond: warmUpFrames / 5,
      localAddress: '127.0.0.3', deadlineMs: 10_000,
    });
    process.send!({ type: 'warmed', ...result });
  }
  for (let round = 0; round < rounds; round++) {
    await new Promise((r) => process.once('message', r));
    const cpu0 = process.cpuUsage();
    // Each round its own part of the ids: the last round's are still cooling down.
    const from = Math.floor((round * floodIds) / rounds);
    const perRound = Math.round(frames / rounds);
    // From another address than the well-behaved chargers', as an attacker's would be.
    const result = await floodMalformed({
      wsUrl, ids: [...ids.slice(from), ...ids.slice(0, from)], connections, frames: perRound, perSecond: perRound / seconds,
      // The server reads a connection sending garbage slowly: the round lasts until its frames are all read,
      // unless the server refuses the flood's address (then what is left would be refused until the deadline).
      localAddress: '127.0.0.2', deadlineMs: (garbageCloses ? 1 : 20) * seconds * 1000 + 5000,
    });
    const cpu = process.cpuUsage(cpu0);
    process.send!({ type: 'flood', ...result, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
  process.exit(0);
}

const env = { ...process.env };
if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
else delete env.TEST_DATABASE_URL;
const execArgv = ['--import', 'tsx', '--max-old-space-size=4096'];
const profile = process.argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ocpp-bench-profiles'] : [];
const server = fork(fileURLToPath(new URL('./ocpp-load.ts', import.meta.url)), [
  '--serve', '--chargers', String(chargers + floodIds), '--garbage-closes-per-address', String(garbageCloses),
  ...(readPause === undefined ? [] : ['--garbage-read-pause-ms', readPause]),
], {
  env,
  execArgv: [...execArgv, ...profile],
});
const exits: string[] = [];
let flooder: ChildProcess | undefined;
server.once('exit', (code, signal) => {
  exits.push(`code ${code}, signal ${signal}`);
  if (code === 0) return; // closed by us at the end
  console.log(`!! server crashes: 1 (the server process exited: code ${code}, signal ${signal})`);
  flooder?.kill();
  process.exit(1);
});

interface Stats { rss: number; cpuMs: number; connections: number; requests: number; meterValues: number; statements: number }
const stats = async (): Promise<Stats> => (server.send({ type: 'stats' }), message(server, 'stats'));

try {
  const ready = await message(server, 'ready');
  const { hostname, port } = new URL(ready.wsUrl);
  console.log(`${new Date().toISOString()}; Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}; database ${ready.db}`);
  const fleet = Array.from({ length: chargers }, (_, i) => new RawCharger(hostname, Number(port), `B${i + 1}`));
  await pool(fleet, 200, (c) => c.boot());
  const txs = await Promise.all(fleet.map((c) =>
    c.call('StartTransaction', { connectorId: 1, idTag: 'BENCH', meterStart: 0, timestamp: new Date().toISOString() }).then((r) => r.transactionId as number),
  ));
  await meterLoop(fleet, txs, 3); // warm-up

  /**
   * A MeterValues run of `seconds`, and for as long as `alongside` (the flood) lasts; a well-behaved socket
   * closed under it fails the run (counted as a disconnection).
   */
  const run = async (name: string, alongside?: () => Promise<string>) => {
    const s0 = await stats();
    const extra = alongside?.();
    const [m, text] = await Promise.all([meterLoop(fleet, txs, seconds, intervalMs, extra).catch((err: Error) => err), extra]);
    const s1 = await stats();
    if (m instanceof Error) {
      console.log(`${name}: !! a well-behaved charger's socket failed: ${m.message}`);
      return null;
    }
    console.log(
      `${name}: ${m.seconds.toFixed(0)} s, ${m.answered} MeterValues answered (${Math.round(m.perSecond)}/s, ${m.errors} CALLERROR), p50 ${m.p50.toFixed(1)} ms, ` +
        `p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms; stored: cp_requests +${s1.requests - s0.requests}; ` +
        `${Math.round((s1.statements - s0.statements) / m.seconds)} statements/s; server CPU ${((s1.cpuMs - s0.cpuMs) / m.seconds / 10).toFixed(0)} %, RSS ${Math.round(s1.rss / 1048576)} MB${text ?? ''}`,
    );
    return { m, stored: s1.requests - s0.requests };
  };

  // Clean and garbage runs in turn: this machine's load from elsewhere drifts, each garbage run has a clean one on either side.
  const flood = (flooder = fork(fileURLToPath(import.meta.url), ['--flood', ready.wsUrl, ...process.argv.slice(2)], { execArgv }));
  await message(flood, 'ready');
  const floodRun = () => run(`under garbage (${Math.round(frames / rounds)} frames over ${connections} connections, offered over ${seconds} s)`, async () => {
    flood.send({ type: 'go' });
    const f = await message(flood, 'flood');
    const kinds = Object.entries(f.byKind as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', ');
    const refused = Object.entries(f.refused as Record<string, number>).map(([k, v]) => `${k} ×${v}`).join(', ') || 'none';
    return `\n  flood: ${f.sent} frames sent in ${(f.ms / 1000).toFixed(1)} s (${kinds}); ${f.answered} CALLERRORs back; ` +
      `flood process CPU ${(f.cpuMs / f.ms * 100).toFixed(0)} % of a core; ` +
      `${f.connections} connections, closed by the server ${JSON.stringify(f.closedByServer)}, reconnects refused: ${refused}`;
  });
  if (warmUpFrames) {
    flood.send({ type: 'go' });
    const [w] = await Promise.all([message(flood, 'warmed'), meterLoop(fleet, txs, 6)]);
    console.log(`warm-up (not measured): ${w.sent} malformed frames over ${w.connections} connections from 127.0.0.3 in ${(w.ms / 1000).toFixed(1)} s, with MeterValues`);
  }
  const clean = [await run('clean')];
  const garbage = [];
  for (let round = 0; round < rounds; round++) {
    garbage.push(await floodRun());
    clean.push(await run('clean'));
  }

  // Every well-behaved charger still on its first socket: a Heartbeat on it is answered.
  const alive = await Promise.all(fleet.map((c) =>
    Promise.race([c.call('Heartbeat', {}).then((r) => !!r.currentTime, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]),
  ));
  const dropped = alive.filter((ok) => !ok).length;
  const runs = [...clean, ...garbage];
  const lostRows = runs.reduce((n, r) => n + (r ? r.m.answered - r.stored : 0), 0);
  const p99s = (rs: typeof runs) => rs.map((r) => r?.m.p99 ?? NaN);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Each garbage run against the mean of the clean runs before and after it.
  const vsNeighbours = garbage.map((g, i) => (g && clean[i] && clean[i + 1] ? (2 * g.m.p99) / (clean[i]!.m.p99 + clean[i + 1]!.m.p99) : NaN));
  console.log(
    `server crashes: ${exits.length ? `1 (${exits[0]})` : 0}; well-behaved disconnections: ${dropped}/${chargers}; ` +
      `answered but not stored: ${lostRows}; MeterValues p99 median: clean ${median(p99s(clean)).toFixed(1)} ms, ` +
      `under garbage ${median(p99s(garbage)).toFixed(1)} ms (${(median(p99s(garbage)) / median(p99s(clean))).toFixed(2)}×); ` +
      `each garbage run / its clean neighbours: ${vsNeighbours.map((x) => x.toFixed(2)).join(', ')}`,
  );
  for (const c of fleet) c.terminate();
  if (exits.length || dropped || lostRows || runs.some((r) => !r)) process.exitCode = 1;
} finally {
  if (!exits.length) {
    server.send({ type: 'close' });
    await new Promise((r) => server.once('exit', r));
  }
}

