/**
 * Latency of the live dashboards, GET /api/v2/quickInfo and GET /api/quick_info, through HTTP on the real
 * server: 2,000 connectors (1,000 chargers of two connectors) in 50 sites, a year of finished sessions
 * (1,500,000 by default) and a running session with readings on every Charging connector.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/dashboards.ts
 *   npx tsx bench/dashboards.ts                        PGlite (in memory; use --sessions 200000)
 *
 * Options: --sessions N (1500000), --requests N (100), --warmup N (10), --explain (EXPLAIN ANALYZE of
 * each statement of an all-sites request).
 *
 * The testing harness starts the server in this process on a random port over a fresh database (a new
 * database on the PostgreSQL server, dropped at the end). Rows are seeded with INSERT … SELECT FROM
 * generate_series, then VACUUM ANALYZE. Requests go one at a time as the admin (who holds
 * READ_DASHBOARD_SUMMARY, so the usage summaries are computed too), timed from the fetch to the parsed body;
 * the Node CPU time of each (server and client, one process: PostgreSQL's own time is not in it) shows the
 * cost apart from waiting for a core on a shared machine.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { numberOption, option } from './args.ts';

const SITES = 50;
const CHARGERS = 1000;
const sessions = numberOption('sessions', 1_500_000);
const requests = numberOption('requests', 100);
const warmup = numberOption('warmup', 10);

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
else delete process.env.TEST_DATABASE_URL;
const label = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const deadline = setTimeout(() => {
  console.error('bench: time limit (15 min) reached, stopping');
  process.exit(2);
}, 15 * 60_000);
deadline.unref();

const { startTestServer } = await import('../packages/server/src/testing/server.ts');
const { DEFAULT_DATABASE_OPTIONS } = await import('../packages/server/src/db/client.ts');
// The seed's statements run for minutes: the server's 5 s statement timeout is for requests.
const s = await startTestServer({ timeZone: 'Asia/Hong_Kong', database: { ...DEFAULT_DATABASE_OPTIONS, statementTimeoutMs: 15 * 60_000 } });
try {
  console.error(`${label}: seeding ${SITES} sites, ${CHARGERS * 2} connectors, ${sessions.toLocaleString('en')} sessions…`);
  const t0 = performance.now();
  await s.db.query(`INSERT INTO cp_locs (address) SELECT 'Bench site ' || g FROM generate_series(1, ${SITES}) g`);
  await s.db.query(
    `INSERT INTO cps (cp_no, name, loc_id, online_flag)
     SELECT 'BENCH-' || lpad(g::text, 4, '0'), 'Bench charger ' || g, l.loc_id, (g % 25 <> 0)::int
       FROM generate_series(1, ${CHARGERS}) g
       JOIN (SELECT loc_id, row_number() OVER (ORDER BY loc_id) - 1 AS i FROM cp_locs) l ON l.i = g % ${SITES}`,
  );
  // A third charging, the rest mostly available, some faulted, unavailable or never reported (N/A).
  await s.db.query(
    `INSERT INTO cp_connectors (cp_id, connector_id, status, last_status_dttm)
     SELECT c.cp_id, n, (ARRAY['Charging', 'Available', 'Available', 'Charging', 'Faulted', 'Available', 'Charging',
                               'SuspendedEV', 'Unavailable', NULL, 'Available', 'Preparing'])[1 + (c.cp_id * 2 + n) % 12],
            now() - make_interval(secs => (c.cp_id * 37 + n) % 7200)
       FROM cps c CROSS JOIN generate_series(0, 2) n`,
  );
  // Finished sessions evenly over the last year: 20 minutes to 4 hours each, 2 to 40 kWh.
  await s.db.query(
    `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, session_start_time, session_end_time,
                              start_meter, end_meter, total_pw_consume, running_pw_consume, total_charge_time, energy)
     SELECT g, c.cp_id, c.cp_no, c.loc_id, 1 + (g / ${CHARGERS}) % 2, 'TAG-' || g, st, st + make_interval(secs => d),
            0, wh, wh, wh, d, wh
       FROM generate_series(1, $1::int) g
       JOIN cps c ON c.cp_id = (SELECT min(cp_id) FROM cps) + g % ${CHARGERS}
       CROSS JOIN LATERAL (SELECT now() - interval '365 days' + (g * (365.0 * 86400 / $1)) * interval '1 second' - interval '5 hours' AS st,
                                  1200 + (g::int8 * 7919) % 13200 AS d, 2000 + (g::int8 * 104729) % 38000 AS wh) x`,
    [sessions],
  );
  // A running session with 30 readings on every connector in a charging status.
  await s.db.query(
    `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, session_start_time, start_meter,
                              running_pw_consume, energy, voltage, ampere)
     SELECT 0, c.cp_id, c.cp_no, c.loc_id, k.connector_id, 'RUN-' || k.id, now() - make_interval(secs => 60 + k.id * 53 % 10800),
            100000, k.id * 97 % 30000, 100000 + k.id * 97 % 30000, 230, 16
       FROM cp_connectors k JOIN cps c ON c.cp_id = k.cp_id
      WHERE k.connector_id > 0 AND k.status IN ('Charging', 'SuspendedEV')`,
  );
  await s.db.query(
    `INSERT INTO cp_meter_values (session_id, cp_id, connector_id, ts, energy, voltage, ampere, soc)
     SELECT x.session_id, x.cp_id, x.connector_id, x.session_start_time + make_interval(secs => r * 60), 100000 + r * 50,
            225 + r % 10, 10 + r % 6, 20 + r
       FROM cp_sessions x CROSS JOIN generate_series(1, 30) r WHERE x.session_end_time IS NULL`,
  );
  await s.db.query('VACUUM ANALYZE');
  const seedMs = performance.now() - t0;
  const [size] = await s.db.query<{ mb: number; version: string }>(
    `SELECT pg_total_relation_size('cp_sessions') / 1048576.0 AS mb, current_setting('server_version') AS version`,
  );
  const [{ loc_id: oneSite }] = await s.db.query<{ loc_id: number }>(`SELECT min(loc_id) AS loc_id FROM cp_locs`);
  const token = await s.login();

  const calls = [
    { name: 'v2/quickInfo, all sites', path: '/api/v2/quickInfo' },
    { name: 'v2/quickInfo, one site', path: `/api/v2/quickInfo?locId=${oneSite}` },
    { name: 'quick_info (v1), all sites', path: '/api/quick_info' },
    { name: 'quick_info (v1), one site', path: `/api/quick_info?loc_id=${oneSite}` },
  ];
  const lines: string[] = [];
  const loadBefore = loadavg()[0];
  for (const c of calls) {
    const times: number[] = [];
    const cpu: number[] = [];
    let connectors = 0;
    let bytes = 0;
    for (let i = 0; i < warmup + requests; i++) {
      const t = performance.now();
      const c0 = process.cpuUsage();
      const res = await fetch(s.baseUrl + c.path, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      const body = JSON.parse(text);
      const ms = performance.now() - t;
      const used = process.cpuUsage(c0);
      if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${text.slice(0, 300)}`);
      connectors = body.cpQuickInfoDTOS?.length ?? body.response.info.refs.cp_connectors.length;
      bytes = text.length;
      if (i >= warmup) {
        times.push(ms);
        cpu.push((used.user + used.system) / 1000);
      }
    }
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)].toFixed(1);
    const line = `| ${c.name} | ${times.length} | ${pct(times, 0.5)} | ${pct(times, 0.95)} | ${pct(times, 0.99)} | ${pct(cpu, 0.5)} | ${connectors} | ${Math.round(bytes / 1024)} |`;
    console.error(line);
    lines.push(line);
  }

  let plans = '';
  if (option('explain') !== undefined) {
    const captured: { text: string; params?: unknown[] }[] = [];
    const query = s.db.query.bind(s.db);
    s.db.query = ((text: string, params?: unknown[]) => {
      captured.push({ text, params });
      return query(text, params);
    }) as typeof s.db.query;
    await fetch(s.baseUrl + calls[0].path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    s.db.query = query;
    for (const c of captured.filter((x) => /cp_sessions/.test(x.text))) {
      const plan = await query(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.params);
      plans += `\n${plan.map((r) => '    ' + r['QUERY PLAN']).join('\n')}\n`;
    }
  }

  const date = new Date().toISOString().replace('T', ' ').replace(/:\d\d\..*/, ' UTC');
  const cmd = `${process.env.BENCH_DATABASE_URL ? `BENCH_DATABASE_URL=${process.env.BENCH_DATABASE_URL} ` : ''}npx tsx bench/dashboards.ts ${process.argv.slice(2).join(' ')}`.trim();
  console.log(`\n### Results — ${date}\n`);
  console.log(`Command: \`${cmd}\``);
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}. ${label} (PostgreSQL ${size.version}). Load average ${loadBefore.toFixed(1)} before the requests, ${loadavg()[0].toFixed(1)} after.`);
  console.log(`Seed ${SITES} sites, ${CHARGERS * 2} connectors, ${sessions.toLocaleString('en')} sessions over a year + VACUUM ANALYZE ${(seedMs / 1000).toFixed(1)} s; cp_sessions with indexes ${Math.round(size.mb)} MB. ${warmup} warm-up + ${requests} timed requests per call, one at a time, as the admin (summaries included).\n`);
  console.log('| call | requests | p50 ms | p95 ms | p99 ms | Node CPU ms p50 | connectors | answer KB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const l of lines) console.log(l);
  if (plans) console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of the statements of an all-sites v2 request:\n${plans}`);
} finally {
  await s.close();
}
process.exit(0);
