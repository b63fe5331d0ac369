/**
 * Load management end to end: from a charger's event (a car plugged in, a session stopped) to the
 * SetChargingProfile it causes arriving at a charger, with 500 simulated chargers on one site.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/lms-latency.ts
 *   npx tsx bench/lms-latency.ts                        PGlite (in memory)
 *
 * Options: --chargers N (500), --events N (200 per scenario). The server and the chargers run in
 * this process (the testing harness: a random port over a fresh database).
 *
 * Scenarios, each on a fresh site of N chargers in one zone:
 * - QUEUEING, 16 A each, room for half of them: plug-in → the arriving charger's limit (while there
 *   is room), then stop → the head of the queue's limit.
 * - DISTRIBUTION, min 6 A, room for every charger at its min: plug-in → every charging charger is
 *   lowered first, then the newcomer raised; timed to the first profile and to the newcomer's.
 */
import { cpus } from 'node:os';
import { numberOption } from './args.ts';

const chargerCount = numberOption('chargers', 500);
const events = numberOption('events', 200);
delete process.env.TEST_DATABASE_URL;
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const label = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const { SimulatedCharger } = await import('../packages/simulator/src/index.ts');
const { startTestServer } = await import('../packages/server/src/testing/server.ts');
const { addCard, eventually } = await import('../packages/server/src/testing/ocpp-support.ts');
const { addLmsSite } = await import('../packages/server/src/testing/lms.ts');
type Sim = InstanceType<typeof SimulatedCharger>;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const summary = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} events)`;

const s = await startTestServer({ logLevel: 'warn' });
try {
  await addCard(s.db, ['BENCH-LMS']);
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  console.log(`${label} ${version}; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}; ${chargerCount} chargers per site`);

  /** A fresh site and its connected chargers, every one held at 0 A; profiles received are timed. */
  async function site(prefix: string, mode: 'QUEUEING' | 'DISTRIBUTION', zone: { zoneA: number; minA: number; maxA: number }) {
    const cpNos = Array.from({ length: chargerCount }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
    await addLmsSite(s.db, { mode, ...zone, chargers: cpNos });
    s.app.lms.configurationChanged();
    const sims: Sim[] = cpNos.map((cpNo) => new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, connectors: 1, reconnect: false }));
    const received = new Map<Sim, number[]>();
    for (const sim of sims) {
      received.set(sim, []);
      sim.on('command', (method: string) => method === 'SetChargingProfile' && received.get(sim)!.push(performance.now()));
    }
    for (let i = 0; i < sims.length; i += 50) await Promise.all(sims.slice(i, i + 50).map((c) => c.start()));
    await eventually(async () => sims.every((c) => c.allowedCurrent(1) === 0), 60_000);
    await s.app.lms.settled();
    /** The first profile any charger (or `only`) received after t0. */
    const firstAfter = (t0: number, only?: Sim) => {
      let first = Infinity;
      for (const [sim, times] of received) {
        if (only && sim !== only) continue;
        for (const t of times) if (t >= t0 && t < first) first = t;
      }
      return first;
    };
    return { sims, firstAfter };
  }

  async function timed(action: () => Promise<unknown>, arrived: (t0: number) => number): Promise<number> {
    const t0 = performance.now();
    await action();
    if (!(await eventually(async () => Number.isFinite(arrived(t0)), 10_000))) throw new Error('no SetChargingProfile within 10 s');
    const ms = arrived(t0) - t0;
    await s.app.lms.settled();
    return ms;
  }

  // QUEUEING: room for half the chargers at 16 A.
  {
    const { sims, firstAfter } = await site('BQ', 'QUEUEING', { zoneA: 16 * (chargerCount / 2), minA: 16, maxA: 16 });
    const starts: number[] = [];
    for (let i = 0; i < chargerCount / 2; i++) {
      const ms = await timed(() => sims[i].plugIn(1), (t0) => firstAfter(t0, sims[i]));
      if (i < events) starts.push(ms);
    }
    for (let i = chargerCount / 2; i < chargerCount; i++) await sims[i].plugIn(1); // queue up
    await s.app.lms.settled();
    const handovers: number[] = [];
    for (let i = 0; i < Math.min(events, chargerCount / 2); i++) {
      const head = sims[chargerCount / 2 + i];
      handovers.push(await timed(() => sims[i].unplug(1), (t0) => firstAfter(t0, head)));
    }
    console.log(`QUEUEING     plug-in → its own limit:               ${summary(starts)}`);
    console.log(`QUEUEING     unplug → the head of the queue's limit: ${summary(handovers)}`);
    await Promise.all(sims.map((c) => c.stop()));
  }

  // DISTRIBUTION: every charger fits at 6 A; each arrival lowers all who charge.
  {
    const { sims, firstAfter } = await site('BD', 'DISTRIBUTION', { zoneA: 6 * chargerCount, minA: 6, maxA: 32 });
    const first: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < Math.min(events, chargerCount); i++) {
      let t0 = 0;
      own.push(await timed(async () => {
        t0 = performance.now();
        await sims[i].plugIn(1);
      }, (start) => firstAfter(start, sims[i])));
      first.push(firstAfter(t0) - t0);
    }
    console.log(`DISTRIBUTION plug-in → first profile (a decrease):  ${summary(first)}`);
    console.log(`DISTRIBUTION plug-in → the newcomer's own limit:    ${summary(own)} (after up to ${Math.min(events, chargerCount) - 1} decreases were accepted)`);
    await Promise.all(sims.map((c) => c.stop()));
  }
} finally {
  await s.close();
}
