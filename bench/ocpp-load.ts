/**
 * OCPP central-system load: connections held, MeterValues throughput and latency, reconnect storm.
 *
 *   npx tsx bench/ocpp-load.ts                                   PGlite (in memory)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocpp-load.ts
 *   npx tsx bench/ocpp-load.ts --protocol ocpp2.0.1              the chargers speak OCPP 2.0.1
 *
 * Options: --protocol ocpp1.6|ocpp2.0.1 (what the chargers offer and send, ocpp-frames.ts; 1.6 by
 *          default: in 2.0.1 the MeterValues are TransactionEvent Updated events), --chargers N (connections held and storm, 15000), --hold N (seconds the fleet is held
 *          heartbeating, 30), --meter-chargers N (500), --seconds N (MeterValues run, 15),
 *          --rounds N (the MeterValues run is cut into N turns with the no-work server, 3),
 *          --node-flags "max-semi-space-size=64 …" (Node.js flags for both servers, written without
 *          their dashes, to compare them),
 *          --paced 0.3,0.4,… (after the closed loop, the same chargers send at these fractions of
 *          the no-work rate, for the latency below saturation; 0 skips it), --paced-seconds N (each, 5),
 *          --only connections|meter|storm, --cpu-prof (the server writes a V8 CPU profile to
 *          /tmp/ocpp-bench-profiles/ at exit, for Chrome DevTools or speedscope), --backlog N (the
 *          server's listen backlog, 4096; 0 keeps the harness's, Node's 511), --loop-delay (each
 *          MeterValues turn also reports how late each server's event loop ran; it slows the no-work
 *          server, so it is a diagnostic, not for ratios).
 *
 * First the limits (ocpp-baselines.ts): a no-work ocpp-rpc server and multi-row INSERTs, measured
 * in this run; every figure is printed as a ratio to them too. The no-work server keeps running
 * beside the real one, and the MeterValues run takes turns with it (no-work, real, real, no-work,
 * no-work, real, …): on a shared machine whose speed drifts within a minute, a ratio of figures
 * taken seconds apart says more than one of figures taken a minute apart. The ratios printed are
 * the median of the turns'.
 *
 * The server runs in a child process (this file with --serve): the testing harness starts the
 * real server on a random port over a fresh database (in-memory PGlite, or a new database on the
 * PostgreSQL server, dropped at the end) with N chargers in cps. This process is the load driver:
 * WebSocket clients written on bare TCP sockets with OCPP-J frames from templates
 * (ocpp-raw-charger.ts), because ocpp-rpc clients cost 3–4 client cores per server core and even
 * `ws` clients took most of a core at 8,000 messages/s (DESIGN, measured figures). Both share the
 * machine's cores, so the figures are a floor. The child reports its own CPU time and RSS, and
 * counts rows in the database.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { heartbeats, meterLoop, pool, RawCharger, type MeterLoopResult } from './ocpp-raw-charger.ts';
import { protocolOption, startCall } from './ocpp-frames.ts';
import { cost, mb, postgresCpuMsSince, postgresTicks, until, waits, type Stats, type Turn } from './ocpp-load-parts.ts';
import { insertBaseline, NoWorkServer } from './ocpp-baselines.ts';
import { numberOption, option } from './args.ts';
import { message, serverSample, type ServerSample } from './child.ts';
import { DEFAULT_GARBAGE_READ_PAUSE_MS } from '../packages/server/src/ocpp/connection.ts';

const only = option('only');
const nodeFlags = (option('node-flags') ?? '').split(' ').filter(Boolean).map((f) => `--${f}`);

/* ---------------------------------------------------------------- server (child) */

async function serve(): Promise<void> {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const n = numberOption('chargers', 15000);
  const s = await startTestServer({
    logLevel: 'error',
    ocppGarbageClosesPerAddress: numberOption('garbage-closes-per-address', 30),
    ocppGarbageReadPauseMs: numberOption('garbage-read-pause-ms', DEFAULT_GARBAGE_READ_PAUSE_MS),
  });
  const backlog = numberOption('backlog', 4096);
  if (backlog) {
    // The same port again with a longer accept queue (Node's default is 511; Linux caps it at
    // net.core.somaxconn): a storm's connects that overflow it wait for TCP's retransmits, idle.
    const { port } = s.app.server.address() as { port: number };
    await new Promise((r) => s.app.server.close(r));
    await new Promise<void>((r) => s.app.server.listen({ port, host: '127.0.0.1', backlog }, r));
  }
  const [site] = await s.db.query(`INSERT INTO cp_locs (address) VALUES ('bench site') RETURNING loc_id`);
  await s.db.query(
    `INSERT INTO cps (cp_no, name, loc_id) SELECT 'B' || g, 'B' || g, $2 FROM generate_series(1, $1) g`,
    [n, site.loc_id],
  );
  // The sessions must be accepted: a refused start is closed at once and its meter values update nothing.
  await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('bench', 'BENCH', 1)`);
  // What the load costs the database: statements and transactions the server sends.
  const count = { statements: 0, transactions: 0 };
  const { query, tx } = s.db;
  s.db.query = (text, params, name) => (count.statements++, query(text, params, name));
  s.db.tx = (fn) => {
    count.transactions++;
    return tx((sql) => fn({ query: (text, params, name) => (count.statements++, sql.query(text, params, name)) }));
  };
  // The longest commit of the batch writer between two samples: a charger's answer waits for it.
  let slowestCommitMs = 0;
  const writer = s.app.ocpp.central.writer;
  const metricsOnFlush = writer.onFlush;
  writer.onFlush = (rows, seconds) => {
    metricsOnFlush?.(rows, seconds);
    slowestCommitMs = Math.max(slowestCommitMs, seconds * 1000);
  };
  serverSample(); // starts the event-loop delay measure (--loop-delay)
  process.send!({ type: 'ready', wsUrl: s.wsUrl, db: s.db.kind });
  process.on('message', async (m: any) => {
    if (m.type === 'insertBaseline') {
      const rows = await query(`SELECT cp_id, cp_no, loc_id FROM cps WHERE cp_no = ANY($1::text[])`, [m.cpNos]);
      const byNo = new Map(rows.map((r) => [r.cp_no, r]));
      // 2.0.1 chargers name their transactions themselves: their sessions are looked up.
      const open = new Map((await query(`SELECT cp_id, max(session_id) AS session_id FROM cp_sessions WHERE session_end_time IS NULL GROUP BY cp_id`))
        .map((r) => [r.cp_id, r.session_id as number]));
      const sessions = (m.cpNos as string[]).map((no, i) => {
        const r = byNo.get(no)!;
        return { sessionId: (m.sessionIds?.[i] as number | undefined) ?? open.get(r.cp_id)!, cpId: r.cp_id, cpNo: no, locId: r.loc_id };
      });
      process.send!({ type: 'insertBaseline', ...(await insertBaseline({ ...s.db, query, tx }, sessions, m.seconds)) });
    } else if (m.type === 'cpu') {
      process.send!({ ...serverSample(), slowestCommitMs });
      slowestCommitMs = 0;
    } else if (m.type === 'stats') {
      const [online] = await s.db.query(`SELECT count(*)::int AS n FROM cps WHERE online_flag = 1`);
      const [rows] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`);
      const [meters] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values`);
      const cpu = process.cpuUsage();
      process.send!({
        type: 'stats',
        rss: process.memoryUsage().rss,
        heap: process.memoryUsage().heapUsed,
        cpuMs: (cpu.user + cpu.system) / 1000,
        connections: s.app.ocpp.central.connectionCount,
        online: online.n,
        requests: rows.n,
        meterValues: meters.n,
        ...count,
      });
    } else if (m.type === 'close') {
      await s.close();
      process.exit(0);
    }
  });
}

/* ---------------------------------------------------------------- driver (parent) */

async function drive(): Promise<void> {
  const chargers = numberOption('chargers', 15000);
  const hold = numberOption('hold', 30);
  const meterChargers = numberOption('meter-chargers', 500);
  const seconds = numberOption('seconds', 15);
  const protocol = protocolOption();
  if (process.argv.includes('--loop-delay')) process.env.BENCH_LOOP_DELAY = '1'; // both servers, see child.ts
  const env = { ...process.env };
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete env.TEST_DATABASE_URL;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', '--chargers', String(chargers), '--backlog', String(numberOption('backlog', 4096))], {
    env,
    execArgv: [...nodeFlags, '--import', 'tsx', '--max-old-space-size=4096', ...(process.argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ocpp-bench-profiles'] : [])],
  });
  const ready = await message(child, 'ready');
  const { hostname: host, port } = new URL(ready.wsUrl);
  const charger = (i: number) => new RawCharger(host, Number(port), `B${i + 1}`, protocol);
  console.log(`protocol: ${protocol}; database: ${ready.db}; chargers in cps: ${chargers}; listen backlog ${numberOption('backlog', 4096) || 'Node default (511)'}`);
  const stats = async (): Promise<Stats> => {
    child.send({ type: 'stats' });
    return message(child, 'stats');
  };

  // The limits, measured now on this machine: the figures below are printed as ratios to them.
  const noWork = await NoWorkServer.start(nodeFlags, protocol);
  const noWorkBoot = await noWork.boot(Math.min(chargers, 5000), meterChargers);
  console.log(
    `limit, ocpp-rpc strict mode doing no work: connect+boot ${Math.round(noWorkBoot.perSecond)}/s ` +
      `(${noWorkBoot.n}, 200 at a time), ${noWorkBoot.cpuMsEach.toFixed(2)} ms server CPU each`,
  );
  const ratio = (x: number, limit: number) => (x / limit).toFixed(2);

  try {
    if (!only || only === 'connections' || only === 'storm') {
      const fleet = Array.from({ length: chargers }, (_, i) => charger(i));
      const before = await stats();
      const t0 = performance.now();
      await pool(fleet, 200, (c) => c.boot());
      const secs = (performance.now() - t0) / 1000;
      await until(async () => (await stats()).online === chargers);
      const booted = await stats();
      const bootCpu = (booted.cpuMs - before.cpuMs) / chargers;
      console.log(
        `connect+boot: ${booted.connections} connections, online_flag 1: ${booted.online}; ${Math.round(chargers / secs)}/s ` +
          `(${secs.toFixed(1)} s, 200 at a time; ${ratio(chargers / secs, noWorkBoot.perSecond)} of the no-work rate); ` +
          `server CPU ${bootCpu.toFixed(2)} ms per connect+boot (no-work/this ${ratio(noWorkBoot.cpuMsEach, bootCpu)}); ` +
          `database ${((booted.statements - before.statements) / chargers).toFixed(2)} statements, ` +
          `${((booted.transactions - before.transactions) / chargers).toFixed(3)} transactions per connect+boot`,
      );
      const beat = await heartbeats(fleet, hold);
      const held = await stats();
      console.log(
        `held ${hold} s: ${held.connections} connections, online_flag 1: ${held.online}; ${beat.sent} Heartbeats answered ` +
          `(${beat.failed} failed), p50 ${beat.p50.toFixed(1)} ms, p99 ${beat.p99.toFixed(1)} ms; server RSS ${mb(held.rss)} MB, heap ${mb(held.heap)} MB ` +
          `(+${((held.rss - before.rss) / chargers / 1024).toFixed(1)} KB each), server CPU while held ${((held.cpuMs - booted.cpuMs) / hold / 10).toFixed(1)} %`,
      );

      if (!only || only === 'storm') {
        // Every charger loses its connection at once and comes straight back (a network blip, a
        // load balancer restart): all reconnect and boot together.
        for (const c of fleet) c.terminate();
        const s0 = await stats();
        const d0 = process.cpuUsage();
        const t1 = performance.now();
        let failed = 0;
        await Promise.all(fleet.map(async (c) => {
          for (let attempt = 0; ; attempt++) {
            try {
              await c.boot();
              return;
            } catch {
              if (attempt === 20) {
                failed++;
                return;
              }
              await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
            }
          }
        }));
        const booted = (performance.now() - t1) / 1000;
        await until(async () => (await stats()).online === chargers - failed);
        const settled = (performance.now() - t1) / 1000;
        const s1 = await stats();
        const cpu = (s1.cpuMs - s0.cpuMs) / 1000;
        const d1 = process.cpuUsage(d0);
        const n = chargers - failed;
        console.log(
          `reconnect storm: ${n}/${chargers} booted again in ${booted.toFixed(1)} s, online_flag right after ${settled.toFixed(1)} s; ` +
            `connections ${s1.connections}, online ${s1.online}; server CPU ${cpu.toFixed(1)} s (wall/CPU ${ratio(settled, cpu)}), ` +
            `driver CPU ${((d1.user + d1.system) / 1e6).toFixed(1)} s; ` +
            `${Math.round(n / booted)} boots/s (${ratio(n / booted, noWorkBoot.perSecond)} of the no-work connect+boot rate); database ` +
            `${((s1.statements - s0.statements) / n).toFixed(2)} statements, ${((s1.transactions - s0.transactions) / n).toFixed(3)} transactions ` +
            `per boot (the drops' offline flags included)`,
        );
      }
      for (const c of fleet) c.terminate();
      await until(async () => (await stats()).online === 0);
    }

    if (!only || only === 'meter') {
      const fleet = Array.from({ length: meterChargers }, (_, i) => charger(i));
      await pool(fleet, 200, (c) => c.boot());
      const txs = await Promise.all(fleet.map(async (c) => {
        const start = startCall(protocol, c.cpNo);
        return start.txId(await c.call(start.action, start.payload));
      }));
      const sessionIds = protocol === 'ocpp1.6' ? txs : undefined;
      child.send({ type: 'insertBaseline', seconds: Math.min(seconds, 5), cpNos: fleet.map((c) => c.cpNo), sessionIds });
      const insert = await message(child, 'insertBaseline');
      console.log(
        `limit, multi-row INSERT of a MeterValues' rows (cp_requests + cp_meter_values), ${meterChargers} pairs per transaction, ` +
          `one connection: ${Math.round(insert.rowsPerSecond)} rows/s (${insert.msPerTransaction.toFixed(1)} ms per transaction)`,
      );
      const rounds = numberOption('rounds', 3);
      const turn = seconds / rounds;
      // Both warmed up (JIT, pools, caches) before anything counts.
      await meterLoop(fleet, txs, 2);
      await noWork.meter(2);
      const ourSample = async (): Promise<ServerSample> => (child.send({ type: 'cpu' }), message(child, 'cpu'));
      const local = ready.db === 'postgres' && /@(127\.0\.0\.1|localhost)[:/]/.test(process.env.BENCH_DATABASE_URL ?? '');
      /** A turn with the CPU each process spent in it: the server measured, the database (when on this machine), this driver. */
      const measured = async (run: () => Promise<MeterLoopResult>, sampleServer: () => Promise<ServerSample>): Promise<Turn> => {
        const s0 = (await sampleServer()).cpuMs;
        const db0 = local ? postgresTicks() : new Map<string, number>();
        const d0 = process.cpuUsage();
        const m = await run();
        const d = process.cpuUsage(d0);
        const end = await sampleServer();
        return {
          ...m,
          serverCpuMs: end.cpuMs - s0,
          loopP99Ms: end.loopP99Ms,
          loopMaxMs: end.loopMaxMs,
          slowestCommitMs: end.slowestCommitMs,
          databaseCpuMs: local ? postgresCpuMsSince(db0) : 0,
          driverCpuMs: (d.user + d.system) / 1000,
        };
      };
      const ours: Turn[] = [];
      const theirs: Turn[] = [];
      const before = await stats();
      for (let r = 0; r < rounds; r++) {
        const real = async () => void ours.push(await measured(() => meterLoop(fleet, txs, turn), ourSample));
        const baseline = async () => void theirs.push(await measured(() => noWork.meter(turn), () => noWork.sample()));
        // no-work first in even turns, real first in odd ones: a drift in the machine's speed
        // within a turn favours neither.
        if (r % 2 === 0) await baseline(), await real();
        else await real(), await baseline();
        console.log(
          `  turn ${r + 1}: no-work ${Math.round(theirs[r].perSecond)}/s (p99 ${theirs[r].p99.toFixed(1)} ms${waits(theirs[r])}), ` +
            `this server ${Math.round(ours[r].perSecond)}/s (p99 ${ours[r].p99.toFixed(1)} ms, ${ours[r].errors} CALLERROR${waits(ours[r])}): ` +
            `rate ${ratio(ours[r].perSecond, theirs[r].perSecond)}, per server core ${ratio(cost([theirs[r]]).server, cost([ours[r]]).server)}, ` +
            `p99 ${ratio(ours[r].p99, theirs[r].p99)}×`,
        );
      }
      const after = await stats();
      const answered = ours.reduce((n, m) => n + m.answered, 0);
      const busySeconds = turn * rounds;
      const rows = after.requests - before.requests + after.meterValues - before.meterValues;
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const rpc = cost(theirs);
      const we = cost(ours);
      const sum = (c: typeof we) => c.server + c.database + c.driver;
      console.log(
        `limit, ocpp-rpc strict mode doing no work: MeterValues ${Math.round(median(theirs.map((m) => m.perSecond)))}/s ` +
          `with ${meterChargers} chargers (median of ${rounds} turns; p50 ${median(theirs.map((m) => m.p50)).toFixed(1)} ms, ` +
          `p99 ${median(theirs.map((m) => m.p99)).toFixed(1)} ms), server CPU ${rpc.server.toFixed(0)} µs per call ` +
          `= ${Math.round(1e6 / rpc.server)} calls/s per server core`,
      );
      console.log(
        `MeterValues: ${meterChargers} chargers, one call outstanding each, ${rounds} turns of ${turn} s: ` +
          `${Math.round(median(ours.map((m) => m.perSecond)))}/s answered (median; ${ours.reduce((n, m) => n + m.errors, 0)} CALLERROR), ` +
          `latency p50 ${median(ours.map((m) => m.p50)).toFixed(1)} ms, p99 ${median(ours.map((m) => m.p99)).toFixed(1)} ms, ` +
          `max ${Math.max(...ours.map((m) => m.max)).toFixed(1)} ms; ` +
          `rows written: cp_requests +${after.requests - before.requests}, cp_meter_values +${after.meterValues - before.meterValues}; ` +
          `server CPU ${we.server.toFixed(0)} µs per message (${(ours.reduce((k, t) => k + t.serverCpuMs, 0) / busySeconds / 10).toFixed(0)} % of a core ` +
          `in its turns); server RSS ${mb(after.rss)} MB, heap ${mb(after.heap)} MB; ` +
          `database ${((after.statements - before.statements) / answered).toFixed(2)} statements per message`,
      );
      // Every process runs on the same cores: a rate ratio can only reach the ratio of the CPU each message costs in all.
      console.log(
        `CPU per message, all processes: this server's turns ${we.server.toFixed(0)} (server) + ${we.database.toFixed(0)} (PostgreSQL) + ` +
          `${we.driver.toFixed(0)} (driver) = ${sum(we).toFixed(0)} µs; no-work turns ${rpc.server.toFixed(0)} + ${rpc.database.toFixed(0)} + ` +
          `${rpc.driver.toFixed(0)} = ${sum(rpc).toFixed(0)} µs: with every core kept busy, the rate ratio can reach at most ` +
          `${ratio(sum(rpc), sum(we))}` +
          (local ? '' : ready.db === 'postgres' ? ' (PostgreSQL is not on this machine: its CPU is not counted)' : ' (PGlite runs inside the server: its CPU is in the server\'s)'),
      );
      console.log(
        `MeterValues as ratios (median of the turns): rate ${median(ours.map((m, r) => m.perSecond / theirs[r].perSecond)).toFixed(2)} ` +
          `of the no-work rpc rate, ${ratio(rpc.server, we.server)} of its calls per server core, ` +
          `p99 ${median(ours.map((m, r) => m.p99 / theirs[r].p99)).toFixed(2)}× its p99; ` +
          `rows ${ratio(rows / busySeconds, insert.rowsPerSecond)} of the INSERT limit`,
      );
      // Latency below saturation: above, each charger keeps a call outstanding, so the mean latency is
      // the chargers over the rate (Little's law) and says nothing the rate does not. Here the same
      // chargers send at set rates, fractions of the no-work rate above, each one call per interval.
      const noWorkRate = median(theirs.map((m) => m.perSecond));
      const pacedSeconds = numberOption('paced-seconds', 5);
      const steps = (option('paced') ?? '0.3,0.4,0.5,0.6').split(',').map(Number).filter((f) => f > 0);
      let under50: number | null = null;
      for (const f of steps) {
        const intervalMs = (meterChargers / (f * noWorkRate)) * 1000;
        const theirsPaced = await noWork.meter(pacedSeconds, intervalMs);
        const oursPaced = await measured(() => meterLoop(fleet, txs, pacedSeconds, intervalMs), ourSample);
        if (oursPaced.p99 < 50 && oursPaced.errors === 0) under50 = f;
        console.log(
          `  paced at ${f} of the no-work rate (${Math.round(f * noWorkRate)}/s offered, one call per ${intervalMs.toFixed(0)} ms per charger): ` +
            `this server ${Math.round(oursPaced.perSecond)}/s, p50 ${oursPaced.p50.toFixed(1)} ms, p99 ${oursPaced.p99.toFixed(1)} ms, ` +
            `max ${oursPaced.max.toFixed(1)} ms, ${oursPaced.errors} CALLERROR${waits(oursPaced)}, server CPU ${((oursPaced.serverCpuMs * 1000) / oursPaced.answered).toFixed(0)} µs per message; ` +
            `no-work ${Math.round(theirsPaced.perSecond)}/s, p50 ${theirsPaced.p50.toFixed(1)} ms, p99 ${theirsPaced.p99.toFixed(1)} ms`,
        );
      }
      if (steps.length) console.log(
        `MeterValues paced, ${meterChargers} chargers: p99 under 50 ms ` +
          (under50 === null ? `at none of the rates tried (${steps.join(', ')} of the no-work rate)` : `up to ${under50} of the no-work rate (${Math.round(under50 * noWorkRate)}/s), the highest tried that kept it`),
      );
      for (const c of fleet) c.terminate();
    }
  } finally {
    await noWork.close();
    child.send({ type: 'close' });
    await new Promise((r) => child.once('exit', r));
  }
}

if (process.argv.includes('--serve')) await serve();
else await drive();
