/**
 * Latency of the charger view's meter chart, GET /api/cps/:id/meter_chart, through HTTP on the real
 * server: one connector with 250,000 meter values over a month (a reading every 10.4 s), downsampled
 * by the server into at most 500 buckets.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/meter-chart.ts
 *   npx tsx bench/meter-chart.ts                        PGlite (in memory)
 *
 * Options: --rows N (250000), --requests N (50), --warmup N (5), --explain (EXPLAIN ANALYZE of the
 * month's statement).
 *
 * The server runs in a child process (this file with --serve), as in bench/user-log-list.ts: the
 * testing harness starts it on a random port over a fresh database (in-memory PGlite, or a new
 * database on the PostgreSQL server, dropped at the end). The rows are seeded with INSERT … SELECT
 * FROM generate_series: the measured connector, the same number on the charger's other connector
 * and on another charger (so the index has to pick the connector out of 750,000 rows), then
 * VACUUM ANALYZE. The parent sends the requests one at a time, timing each from the fetch to the
 * end of the body.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { option } from './args.ts';

/** Unix seconds: the month seeded is 2025-07-01 .. 2025-07-31 (UTC). */
const MONTH_START = Date.UTC(2025, 6, 1) / 1000;
const DAY = 86_400;
const MONTH_END = MONTH_START + 30 * DAY;

const RANGES: { name: string; from: number; to: number }[] = [
  { name: 'one month', from: MONTH_START, to: MONTH_END },
  { name: '7 days', from: MONTH_END - 7 * DAY, to: MONTH_END },
  { name: 'one day', from: MONTH_END - DAY, to: MONTH_END },
];

/** $1 cp_id, $2 connector_id, $3 rows: readings evenly over the month, energy rising, V and A varying. */
const SEED_SQL = `
INSERT INTO cp_meter_values (cp_id, connector_id, ts, energy, voltage, ampere)
SELECT $1, $2, to_timestamp(${MONTH_START} + (g - 1) * (30.0 * ${DAY}) / $3),
       (g * 7)::bigint, 225 + random() * 10, 8 + random() * 24
  FROM generate_series(1, $3::int) g`;

type FromChild =
  | { type: 'ready'; baseUrl: string; token: string; cpId: number; version: string; seedMs: number; tableMB: number }
  | { type: 'explained'; text: string };

if (process.argv.includes('--serve')) await serve();
else await drive();

async function serve() {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const { addCharger, addSite } = await import('../packages/server/src/testing/ocpp-support.ts');
  const rows = Number(process.env.BENCH_ROWS);
  const send = (m: FromChild) => process.send!(m);
  const s = await startTestServer();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await s.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('disconnect', shutdown);
  const token = await s.login();
  const locId = await addSite(s.db);
  const cpId = await addCharger(s.db, 'BENCH-CHART', { locId });
  const otherId = await addCharger(s.db, 'BENCH-OTHER', { locId });
  const t = performance.now();
  await s.db.query(SEED_SQL, [cpId, 1, rows]);
  await s.db.query(SEED_SQL, [cpId, 2, rows]);
  await s.db.query(SEED_SQL, [otherId, 1, rows]);
  await s.db.query('VACUUM ANALYZE cp_meter_values');
  const seedMs = performance.now() - t;
  const [{ mb }] = await s.db.query<{ mb: number }>(`SELECT pg_total_relation_size('cp_meter_values') / 1048576.0 AS mb`);
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);

  let captured: { text: string; params?: unknown[] }[] | undefined;
  const query = s.db.query.bind(s.db);
  s.db.query = ((text: string, params?: unknown[]) => {
    captured?.push({ text, params });
    return query(text, params);
  }) as typeof s.db.query;
  process.on('message', async (m: { cmd: 'explain'; path: string }) => {
    if (m.cmd !== 'explain') return;
    captured = [];
    await fetch(s.baseUrl + m.path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    const [c] = captured.filter((x) => /cp_meter_values/.test(x.text));
    captured = undefined;
    const plan = await query(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.params);
    send({ type: 'explained', text: plan.map((r) => '    ' + r['QUERY PLAN']).join('\n') });
  });
  send({ type: 'ready', baseUrl: s.baseUrl, token, cpId, version: `${s.db.kind === 'postgres' ? '' : 'in memory, '}PostgreSQL ${version}`, seedMs, tableMB: Number(mb) });
}

async function drive() {
  const rows = Number(option('rows') || 250_000);
  const requests = Number(option('requests') || 50);
  const warmup = Number(option('warmup') || 5);
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_ROWS: String(rows) };
  delete env.TEST_DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const label = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const deadline = setTimeout(() => {
    console.error('bench: time limit (10 min) reached, stopping');
    process.exit(2);
  }, 10 * 60_000);
  deadline.unref();

  console.error(`${label}: starting the server and seeding 3 × ${rows.toLocaleString('en')} meter values…`);
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = once(child);
  try {
    const ready = (await next('ready')) as Extract<FromChild, { type: 'ready' }>;
    const lines: string[] = [];
    for (const r of RANGES) {
      const path = `/api/cps/${ready.cpId}/meter_chart?connector_id=1&from=${r.from}&to=${r.to}`;
      const times: number[] = [];
      let body: any;
      for (let i = 0; i < warmup + requests; i++) {
        const t = performance.now();
        const res = await fetch(ready.baseUrl + path, { headers: { authorization: `Bearer ${ready.token}` } });
        body = await res.json();
        const ms = performance.now() - t;
        if (res.status !== 200 || body.status !== 'success') throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        if (i >= warmup) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const pct = (p: number) => times[Math.max(0, Math.ceil(p * times.length) - 1)];
      const line = `| ${r.name} | ${times.length} | ${pct(0.5).toFixed(1)} | ${pct(0.95).toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${body.data.step} | ${body.data.points.length} |`;
      console.error(line);
      lines.push(line);
    }
    let plan = '';
    if (option('explain') !== undefined) {
      child.send({ cmd: 'explain', path: `/api/cps/${ready.cpId}/meter_chart?connector_id=1&from=${RANGES[0].from}&to=${RANGES[0].to}` });
      plan = ((await next('explained')) as Extract<FromChild, { type: 'explained' }>).text;
    }
    const date = new Date().toISOString().replace('T', ' ').replace(/:\d\d\..*/, ' UTC');
    const cmd = `${process.env.BENCH_DATABASE_URL ? `BENCH_DATABASE_URL=${process.env.BENCH_DATABASE_URL} ` : ''}npx tsx bench/meter-chart.ts ${process.argv.slice(2).join(' ')}`.trim();
    console.log(`\n### Results — ${date}\n`);
    console.log(`Command: \`${cmd}\``);
    console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}. ${label} (${ready.version}).`);
    console.log(`Seed 3 × ${rows.toLocaleString('en')} rows + VACUUM ANALYZE ${(ready.seedMs / 1000).toFixed(1)} s; cp_meter_values with indexes ${Math.round(ready.tableMB)} MB. ${warmup} warm-up + ${requests} timed requests per range, one at a time.\n`);
    console.log('| range | requests | p50 ms | p95 ms | max ms | step s | points |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const l of lines) console.log(l);
    if (plan) console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of the month:\n\n${plan}`);
  } finally {
    child.disconnect();
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

/** Waits for the child's next message of a type; rejects when the child dies first. */
function once(child: ChildProcess) {
  const queue: FromChild[] = [];
  let waiter: { type: string; ok: (m: FromChild) => void; fail: (e: Error) => void } | undefined;
  let dead: Error | undefined;
  child.on('message', (m: FromChild) => {
    if (waiter?.type === m.type) {
      const w = waiter;
      waiter = undefined;
      w.ok(m);
    } else queue.push(m);
  });
  child.on('exit', (code, signal) => {
    dead = new Error(`server process exited (${signal ?? code})`);
    waiter?.fail(dead);
  });
  return (type: FromChild['type']): Promise<FromChild> => {
    const i = queue.findIndex((m) => m.type === type);
    if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
    if (dead) return Promise.reject(dead);
    return new Promise((ok, fail) => (waiter = { type, ok, fail }));
  };
}
