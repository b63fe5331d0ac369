/**
 * List latency of GET /api/user_log through HTTP on the real server, over 1,000,000 rows.
 *
 *   npx tsx bench/user-log-list.ts                      PGlite (in memory) only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/user-log-list.ts
 *   npx tsx bench/user-log-list.ts --pg [url]           PGlite, then PostgreSQL (url defaults to the one above)
 *
 * Options: --only pglite|pg, --rows N (1000000), --requests N (200), --warmup N (20),
 *          --explain (print EXPLAIN ANALYZE of every statement the server ran for each query).
 *
 * The server runs in a child process (this file with --serve): the testing harness starts it on a
 * random port over a fresh database (in-memory PGlite, or a new database on the PostgreSQL server
 * that is dropped at the end), the rows are seeded with one INSERT … SELECT FROM generate_series,
 * then VACUUM ANALYZE. The parent signs in as admin (the harness's login, done in the child) and
 * sends the requests one at a time, timing each from the fetch to the end of the body. The child
 * reports its own CPU time and RSS, so the figures are those of the server process alone (with
 * PGlite that includes the database; with PostgreSQL the database server's CPU is not counted).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { option } from './args.ts';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
/** Unix seconds: the seeded year is 2025 (UTC), rows spread evenly over it in insertion order. */
const YEAR_START = Date.UTC(2025, 0, 1) / 1000;
const DAY = 86_400;
const JUL_15 = Date.UTC(2025, 6, 15) / 1000;
const FEB_1 = Date.UTC(2025, 1, 1) / 1000;

const QUERIES: { name: string; qs: string }[] = [
  { name: 'default page', qs: 'size=20&page=0' },
  { name: 'msg contains "failed" (~8%)', qs: 'size=20&page=0&msg=failed' },
  { name: 'msg contains "inactive" (~0.4%)', qs: 'size=20&page=0&msg=inactive' },
  { name: 'username contains "chen123" (one user)', qs: 'size=20&page=0&username=chen123' },
  { name: 'cre_dttm one day (2025-07-15)', qs: `size=20&page=0&cre_dttm=${JUL_15}&cre_dttm=${JUL_15 + DAY}` },
  { name: 'cre_dttm one week (2025-07-15..21)', qs: `size=20&page=0&cre_dttm=${JUL_15}&cre_dttm=${JUL_15 + 7 * DAY}` },
  { name: 'cre_dttm one week (2025-02-01..07)', qs: `size=20&page=0&cre_dttm=${FEB_1}&cre_dttm=${FEB_1 + 7 * DAY}` },
  { name: 'sort username asc', qs: 'size=20&page=0&sort_by=username&order=asc' },
  { name: 'sort type asc', qs: 'size=20&page=0&sort_by=type&order=asc' },
];

/**
 * One statement: about 5,000 usernames (a few used much more than others), LOGIN 47 %, LOGOUT
 * 45 %, LOGIN_FAILED 8 % with the server's own messages, a private IP per user, and timestamps
 * spread evenly over 2025 in insertion order (as a log is written). setseed makes it repeatable.
 */
const SEED_SQL = `
INSERT INTO user_log (type, username, user_id, ip, msg, cre_dttm)
SELECT CASE WHEN k < 0.47 THEN 'LOGIN' WHEN k < 0.92 THEN 'LOGOUT' ELSE 'LOGIN_FAILED' END,
       (ARRAY['chen','wang','lin','lee','huang','chang','liu','tsai','yang','wu','ops','tech'])[1 + u % 12] || (u / 12),
       CASE WHEN k >= 0.92 AND m < 0.10 THEN NULL ELSE u END,
       '10.' || (u / 250) || '.' || (u % 250) || '.' || (10 + floor(m * 20)::int),
       CASE WHEN k < 0.47 THEN 'Login' WHEN k < 0.92 THEN 'Logout'
            WHEN m < 0.10 THEN 'Login failed: unknown user'
            WHEN m < 0.15 THEN 'Login failed: user inactive'
            ELSE 'Login failed: wrong password' END,
       to_timestamp(${YEAR_START} + (g - 1) * (365.0 * ${DAY}) / $1)
  FROM (SELECT g, random() AS k, random() AS m, 1 + floor(4999 * power(random(), 2))::int AS u
          FROM generate_series(1, $1) g OFFSET 0) s`;

type ToChild = { cmd: 'stats' } | { cmd: 'explain'; paths: string[] } | { cmd: 'close' };
type FromChild =
  | { type: 'ready'; baseUrl: string; token: string; dbUrl: string; kind: string; version: string; seedMs: number; vacuumMs: number; tableMB: number }
  | { type: 'stats'; cpuUserMs: number; cpuSysMs: number; seedCpuMs: number; rssMB: number; maxRssMB: number }
  | { type: 'explained'; text: string }
  | { type: 'closed' };

if (process.argv.includes('--serve')) await serve();
else await drive();

// ---------------------------------------------------------------------------------------------
// Child: the server.

async function serve() {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const rows = Number(process.env.BENCH_ROWS);
  const send = (m: FromChild) => process.send!(m);
  // The bench stops by itself: if the parent goes away, so does the server (and its database).
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  const shutdown = async () => {
    await server?.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('disconnect', shutdown);

  server = await startTestServer();
  const s = server;
  const token = await s.login();
  let t = performance.now();
  await s.db.tx(async (sql) => {
    await sql.query('SELECT setseed(0.42)');
    await sql.query(SEED_SQL, [rows]);
  });
  const seedMs = performance.now() - t;
  t = performance.now();
  await s.db.query('VACUUM ANALYZE user_log');
  const vacuumMs = performance.now() - t;
  const [{ mb }] = await s.db.query<{ mb: number }>(`SELECT pg_total_relation_size('user_log') / 1048576.0 AS mb`);
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  const cpu0 = process.cpuUsage();

  // For --explain: every statement the server runs while one request is served.
  let captured: { text: string; params?: unknown[] }[] | undefined;
  const query = s.db.query.bind(s.db);
  s.db.query = ((text: string, params?: unknown[]) => {
    captured?.push({ text, params });
    return query(text, params);
  }) as typeof s.db.query;

  process.on('message', async (m: ToChild) => {
    if (m.cmd === 'stats') {
      const cpu = process.cpuUsage(cpu0);
      send({
        type: 'stats',
        cpuUserMs: cpu.user / 1000,
        cpuSysMs: cpu.system / 1000,
        seedCpuMs: (cpu0.user + cpu0.system) / 1000,
        rssMB: process.memoryUsage().rss / 1048576,
        maxRssMB: process.resourceUsage().maxRSS / 1024,
      });
    } else if (m.cmd === 'explain') {
      let text = '';
      for (const path of m.paths) {
        captured = [];
        await fetch(s.baseUrl + path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
        const statements = captured.filter((c) => /user_log/.test(c.text) && !/^EXPLAIN/.test(c.text));
        captured = undefined;
        text += `\n### ${path}\n`;
        for (const c of statements) {
          const plan = await query(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.params);
          text += `\n${c.text}\n  params: ${JSON.stringify(c.params)}\n`;
          text += plan.map((r) => '  ' + r['QUERY PLAN']).join('\n') + '\n';
        }
      }
      send({ type: 'explained', text });
    } else if (m.cmd === 'close') {
      await s.close();
      server = undefined;
      send({ type: 'closed' });
      process.disconnect();
    }
  });
  send({ type: 'ready', baseUrl: s.baseUrl, token, dbUrl: s.app.config.databaseUrl, kind: s.db.kind, version: `${s.db.kind === 'postgres' ? '' : 'in memory, '}PostgreSQL ${version}`, seedMs, vacuumMs, tableMB: Number(mb) });
}

// ---------------------------------------------------------------------------------------------
// Parent: the client.

interface Result {
  name: string;
  qs: string;
  n: number;
  p50: number;
  p95: number;
  max: number;
  total: number;
  estimate: boolean;
}

interface Run {
  label: string;
  ready: Extract<FromChild, { type: 'ready' }>;
  stats: Extract<FromChild, { type: 'stats' }>;
  results: Result[];
  requests: number;
}

async function drive() {
  const rows = Number(option('rows') || 1_000_000);
  const requests = Number(option('requests') || 200);
  const warmup = Number(option('warmup') || 20);
  const only = option('only');
  const pgFlag = option('pg');
  const pgUrl = process.env.BENCH_DATABASE_URL || (pgFlag !== undefined ? pgFlag || DEFAULT_PG : undefined) || (only === 'pg' ? DEFAULT_PG : undefined);
  const explain = option('explain') !== undefined;

  const targets: { label: string; dbBase?: string }[] = [];
  if (only !== 'pg') targets.push({ label: 'PGlite' });
  if (pgUrl && only !== 'pglite') targets.push({ label: 'PostgreSQL', dbBase: pgUrl });

  // A hard stop, whatever happens: the children follow when this process exits.
  const deadline = setTimeout(() => {
    console.error('bench: time limit (30 min) reached, stopping');
    process.exit(2);
  }, 30 * 60_000);
  deadline.unref();

  const runs: Run[] = [];
  for (const target of targets) runs.push(await runOne(target, rows, requests, warmup, explain));

  const date = new Date().toISOString().replace('T', ' ').replace(/\..*/, ' UTC');
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`;
  console.log(`\n## Results — ${date}\n`);
  const env = process.env.BENCH_DATABASE_URL ? `BENCH_DATABASE_URL=${process.env.BENCH_DATABASE_URL} ` : '';
  console.log(`Command: \`${[env + 'npx tsx bench/user-log-list.ts', ...process.argv.slice(2)].join(' ')}\``);
  console.log(`Machine: ${machine}. ${rows.toLocaleString('en')} rows; ${warmup} warm-up + ${requests} timed requests per query, one at a time.\n`);
  for (const run of runs) {
    const { ready, stats } = run;
    console.log(`### ${run.label} (${ready.version})\n`);
    console.log(`Seed ${(ready.seedMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(ready.vacuumMs / 1000).toFixed(1)} s, table with indexes ${Math.round(ready.tableMB)} MB.\n`);
    console.log('| query | requests | p50 ms | p95 ms | max ms | totalElements |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of run.results) {
      console.log(`| ${r.name}: \`${r.qs}\` | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.total.toLocaleString('en')}${r.estimate ? ' (estimate)' : ''} |`);
    }
    const cpu = stats.cpuUserMs + stats.cpuSysMs;
    console.log(
      `\nServer process during the requests: CPU ${(cpu / 1000).toFixed(1)} s (user ${(stats.cpuUserMs / 1000).toFixed(1)} s, system ${(stats.cpuSysMs / 1000).toFixed(1)} s) for ${run.requests} requests ` +
        `= ${(cpu / run.requests).toFixed(2)} ms per request; CPU for start and seed ${(stats.seedCpuMs / 1000).toFixed(1)} s; RSS ${Math.round(stats.rssMB)} MB at the end, peak ${Math.round(stats.maxRssMB)} MB.\n`,
    );
  }
}

async function runOne(target: { label: string; dbBase?: string }, rows: number, requests: number, warmup: number, explain: boolean): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_ROWS: String(rows) };
  delete env.TEST_DATABASE_URL;
  if (target.dbBase) env.TEST_DATABASE_URL = target.dbBase;
  console.error(`${target.label}: starting the server and seeding ${rows.toLocaleString('en')} rows…`);
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inbox = messages(child);
  let ready: Extract<FromChild, { type: 'ready' }> | undefined;
  let closed = false;
  try {
    ready = (await inbox.next('ready')) as Extract<FromChild, { type: 'ready' }>;
    console.error(`${target.label}: seeded in ${(ready.seedMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(ready.vacuumMs / 1000).toFixed(1)} s`);
    const results: Result[] = [];
    for (const q of QUERIES) {
      const path = `/api/user_log?${q.qs}`;
      const times: number[] = [];
      let body: any;
      for (let i = 0; i < warmup + requests; i++) {
        const t = performance.now();
        const res = await fetch(ready.baseUrl + path, { headers: { authorization: `Bearer ${ready.token}` } });
        body = await res.json();
        const ms = performance.now() - t;
        if (res.status !== 200 || !Array.isArray(body?.dataset?.content)) throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        if (i >= warmup) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const pct = (p: number) => times[Math.max(0, Math.ceil(p * times.length) - 1)];
      const ds = body.dataset;
      const r = { name: q.name, qs: q.qs, n: times.length, p50: pct(0.5), p95: pct(0.95), max: times[times.length - 1], total: ds.totalElements, estimate: !!ds.totalIsEstimate };
      console.error(`  ${q.name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, total ${r.total}${r.estimate ? ' (estimate)' : ''}, page ${ds.content.length} rows`);
      results.push(r);
    }
    child.send({ cmd: 'stats' } satisfies ToChild);
    const stats = (await inbox.next('stats')) as Extract<FromChild, { type: 'stats' }>;
    if (explain) {
      child.send({ cmd: 'explain', paths: QUERIES.map((q) => `/api/user_log?${q.qs}`) } satisfies ToChild);
      console.log(((await inbox.next('explained')) as Extract<FromChild, { type: 'explained' }>).text);
    }
    const run: Run = { label: target.label, ready, stats, results, requests: QUERIES.length * (warmup + requests) };
    child.send({ cmd: 'close' } satisfies ToChild);
    await inbox.next('closed');
    closed = true;
    return run;
  } finally {
    if (!closed) {
      child.kill();
      // The child could not drop its database: do it here.
      if (ready?.kind === 'postgres' && target.dbBase) await dropDatabase(target.dbBase, ready.dbUrl).catch((e) => console.error('could not drop the bench database:', e));
    }
  }
}

async function dropDatabase(base: string, dbUrl: string) {
  const name = new URL(dbUrl).pathname.slice(1);
  if (!/^evtest_\w+$/.test(name)) return;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
}

/** Waits for the child's messages one type at a time; rejects when the child dies first. */
function messages(child: ChildProcess) {
  const queue: FromChild[] = [];
  let waiter: { type: string; ok: (m: FromChild) => void; fail: (e: Error) => void } | undefined;
  let dead: Error | undefined;
  child.on('message', (m: FromChild) => {
    if (waiter && m.type === waiter.type) {
      const w = waiter;
      waiter = undefined;
      w.ok(m);
    } else queue.push(m);
  });
  child.on('exit', (code, signal) => {
    dead = new Error(`server process exited (${signal ?? code})`);
    waiter?.fail(dead);
  });
  return {
    next(type: FromChild['type']): Promise<FromChild> {
      const i = queue.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
      if (dead) return Promise.reject(dead);
      return new Promise((ok, fail) => (waiter = { type, ok, fail }));
    },
  };
}
