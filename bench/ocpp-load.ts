/**
 * OCPP central-system load: connections held, MeterValues throughput and latency, reconnect storm.
 *
 *   npx tsx bench/ocpp-load.ts                                   PGlite (in memory)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocpp-load.ts
 *
 * Options: --chargers N (connections held and storm, 10000), --meter-chargers N (500),
 *          --seconds N (MeterValues run, 15), --only connections|meter|storm.
 *
 * The server runs in a child process (this file with --serve): the testing harness starts the
 * real server on a random port over a fresh database (in-memory PGlite, or a new database on the
 * PostgreSQL server, dropped at the end) with N chargers in cps. This process is the load driver:
 * plain `ws` sockets writing OCPP-J frames by hand, because ocpp-rpc clients cost 3–4 client cores
 * per server core (DESIGN, measured figures). Both share the machine's cores, so the figures are
 * a floor. The child reports its own CPU time and RSS, and counts rows in the database.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? process.argv[i + 1] : undefined;
})();

/* ---------------------------------------------------------------- server (child) */

async function serve(): Promise<void> {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const n = arg('chargers', 10000);
  const s = await startTestServer({ logLevel: 'error' });
  const [site] = await s.db.query(`INSERT INTO cp_locs (address) VALUES ('bench site') RETURNING loc_id`);
  await s.db.query(
    `INSERT INTO cps (cp_no, name, loc_id) SELECT 'B' || g, 'B' || g, $2 FROM generate_series(1, $1) g`,
    [n, site.loc_id],
  );
  process.send!({ type: 'ready', wsUrl: s.wsUrl, db: s.db.kind });
  process.on('message', async (m: any) => {
    if (m.type === 'stats') {
      const [online] = await s.db.query(`SELECT count(*)::int AS n FROM cps WHERE online_flag = 1`);
      const [rows] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests`);
      const [meters] = await s.db.query(`SELECT count(*)::int AS n FROM cp_meter_values`);
      const cpu = process.cpuUsage();
      process.send!({
        type: 'stats',
        rss: process.memoryUsage().rss,
        cpuMs: (cpu.user + cpu.system) / 1000,
        connections: s.app.ocpp.central.connectionCount,
        online: online.n,
        requests: rows.n,
        meterValues: meters.n,
      });
    } else if (m.type === 'close') {
      await s.close();
      process.exit(0);
    }
  });
}

/* ---------------------------------------------------------------- driver (parent) */

interface Stats { rss: number; cpuMs: number; connections: number; online: number; requests: number; meterValues: number }

/** One charger as a bare socket: frames by hand, one call outstanding, answers matched by id. */
class LeanCharger {
  ws!: WebSocket;
  private seq = 0;
  private waiting = new Map<string, { resolve: (payload: any) => void; reject: (err: Error) => void }>();

  constructor(readonly url: string, readonly cpNo: string) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(`${this.url}/ocpp/${this.cpNo}`, ['ocpp1.6'], { perMessageDeflate: false });
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      // A socket that dies fails its calls, so a storm retries instead of waiting forever.
      this.ws.once('close', () => {
        for (const w of this.waiting.values()) w.reject(new Error('closed'));
        this.waiting.clear();
        reject(new Error('closed'));
      });
      this.ws.on('message', (data) => {
        const msg = JSON.parse(data.toString());
        const done = this.waiting.get(msg[1]);
        if (!done) return;
        this.waiting.delete(msg[1]);
        done.resolve(msg[0] === 3 ? msg[2] : { callError: msg[2] });
      });
    });
  }

  call(action: string, payload: unknown): Promise<any> {
    const id = String(++this.seq);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify([2, id, action, payload]));
    });
  }

  async boot(): Promise<void> {
    await this.open();
    const res = await this.call('BootNotification', { chargePointVendor: 'Bench', chargePointModel: 'Lean' });
    if (res.status !== 'Accepted') throw new Error(`${this.cpNo}: boot ${JSON.stringify(res)}`);
  }
}

async function drive(): Promise<void> {
  const chargers = arg('chargers', 10000);
  const meterChargers = arg('meter-chargers', 500);
  const seconds = arg('seconds', 15);
  const env = { ...process.env };
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete env.TEST_DATABASE_URL;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', '--chargers', String(chargers)], {
    env,
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
  });
  const ready = await message(child, 'ready');
  const url: string = ready.wsUrl;
  console.log(`database: ${ready.db}; chargers in cps: ${chargers}`);
  const stats = async (): Promise<Stats> => {
    child.send({ type: 'stats' });
    return message(child, 'stats');
  };

  try {
    if (!only || only === 'connections' || only === 'storm') {
      const fleet = Array.from({ length: chargers }, (_, i) => new LeanCharger(url, `B${i + 1}`));
      const before = await stats();
      const t0 = performance.now();
      await pool(fleet, 200, (c) => c.boot());
      const secs = (performance.now() - t0) / 1000;
      await until(async () => (await stats()).online === chargers);
      const held = await stats();
      console.log(
        `connections held: ${held.connections}, online_flag 1: ${held.online}; connect+boot ${Math.round(chargers / secs)}/s ` +
          `(${secs.toFixed(1)} s, 200 at a time); server RSS ${mb(held.rss)} MB (+${((held.rss - before.rss) / chargers / 1024).toFixed(1)} KB each), ` +
          `server CPU ${((held.cpuMs - before.cpuMs) / chargers).toFixed(2)} ms per connect+boot`,
      );

      if (!only || only === 'storm') {
        // Every charger loses its connection at once and comes straight back (a network blip, a
        // load balancer restart): all reconnect and boot together.
        for (const c of fleet) c.ws.terminate();
        const s0 = await stats();
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
        console.log(
          `reconnect storm: ${chargers - failed}/${chargers} booted again in ${booted.toFixed(1)} s, online_flag right after ${settled.toFixed(1)} s; ` +
            `connections ${s1.connections}, online ${s1.online}; server CPU ${((s1.cpuMs - s0.cpuMs) / 1000).toFixed(1)} s`,
        );
      }
      for (const c of fleet) c.ws.terminate();
      await until(async () => (await stats()).online === 0);
    }

    if (!only || only === 'meter') {
      const fleet = Array.from({ length: meterChargers }, (_, i) => new LeanCharger(url, `B${i + 1}`));
      await pool(fleet, 200, (c) => c.boot());
      const txs = await Promise.all(fleet.map((c) =>
        c.call('StartTransaction', { connectorId: 1, idTag: 'BENCH', meterStart: 0, timestamp: new Date().toISOString() }).then((r) => r.transactionId as number),
      ));
      const before = await stats();
      const latencies: number[] = [];
      let errors = 0;
      const end = performance.now() + seconds * 1000;
      await Promise.all(fleet.map(async (c, i) => {
        for (let wh = 0; performance.now() < end; wh += 10) {
          const t = performance.now();
          const res = await c.call('MeterValues', {
            connectorId: 1,
            transactionId: txs[i],
            meterValue: [{
              timestamp: new Date().toISOString(),
              sampledValue: [
                { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
                { value: '230.1', measurand: 'Voltage', unit: 'V' },
                { value: '16.0', measurand: 'Current.Import', unit: 'A' },
              ],
            }],
          });
          if (res?.callError) errors++;
          latencies.push(performance.now() - t);
        }
      }));
      const after = await stats();
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
      console.log(
        `MeterValues: ${meterChargers} chargers, one call outstanding each, ${seconds} s: ${Math.round(latencies.length / seconds)}/s answered ` +
          `(${errors} CALLERROR), latency p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms; ` +
          `rows written: cp_requests +${after.requests - before.requests}, cp_meter_values +${after.meterValues - before.meterValues}; ` +
          `server CPU ${((after.cpuMs - before.cpuMs) / latencies.length * 1000).toFixed(0)} µs per message`,
      );
      for (const c of fleet) c.ws.terminate();
    }
  } finally {
    child.send({ type: 'close' });
    await new Promise((r) => child.once('exit', r));
  }
}

function message(child: ChildProcess, type: string): Promise<any> {
  return new Promise((resolve) => {
    const on = (m: any) => {
      if (m?.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
  });
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function until(fn: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const stop = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > stop) throw new Error('timed out waiting for the server to settle');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

if (process.argv.includes('--serve')) await serve();
else await drive();
