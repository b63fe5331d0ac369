/**
 * The chargers list's mass update end to end through HTTP: 1,000 chargers, each with a current
 * configuration (AC-1.0.0 template), none connected. Times the check call (cpIds alone), the
 * applying call (cpIds + commonConfigJson: validation, one transaction updating 1,000 configs,
 * answered with a jobId) and the time until the job reports done (every charger recorded Offline).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/mass-update.ts
 *   npx tsx bench/mass-update.ts                        PGlite (in memory)
 *
 * Options: --chargers N (1000), --runs N (3). The server runs in this process (the testing harness:
 * a random port over a fresh database, a new database on the PostgreSQL server dropped at the end).
 */
import { cpus, totalmem } from 'node:os';
import { numberOption } from './args.ts';

const chargers = numberOption('chargers', 1000);
const runs = numberOption('runs', 3);
delete process.env.TEST_DATABASE_URL;
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const label = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const { startTestServer } = await import('../packages/server/src/testing/server.ts');
const { addSite } = await import('../packages/server/src/testing/ocpp-support.ts');
const s = await startTestServer();
try {
  const token = await s.login();
  const locId = await addSite(s.db);
  const t0 = performance.now();
  const rows = await s.db.query<{ cp_id: number }>(
    `INSERT INTO cps (cp_no, name, loc_id, enable_flag, heartbeat_interval)
     SELECT 'BENCH-MU-' || lpad(g::text, 5, '0'), 'bench ' || g, $1, 1, 30 FROM generate_series(1, $2::int) g RETURNING cp_id`,
    [locId, chargers],
  );
  await s.db.query(
    `INSERT INTO cp_config (cp_id, current, pending, description, fw_ver, config_json)
     SELECT c.cp_id, 1, 0, 'bench', 'AC-1.0.0', t.config_json FROM cps c, fw_ver_config t
      WHERE c.cp_no LIKE 'BENCH-MU-%' AND t.fw_ver = 'AC-1.0.0'`,
  );
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  console.log(`${label} ${version}; ${chargers} chargers with current configs seeded in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
  const cpIds = rows.map((r) => r.cp_id);

  const post = async (body: unknown) => {
    const t = performance.now();
    const res = await s.api('POST', '/api/cp_locs/cp_mass_update', { token, body });
    if (res.status !== 200 || res.body.status !== 'success') throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return { ms: performance.now() - t, body: res.body };
  };
  for (let run = 1; run <= runs; run++) {
    const check = await post({ cpIds });
    const start = performance.now();
    const apply = await post({ cpIds, commonConfigJson: { 'Time Zone': run, 'Auto Unlock Interval (ms)': 1000 + run * 100, Window: 'Shrink' } });
    let polls = 0;
    for (;;) {
      polls++;
      const p = await s.api('GET', `/api/cp_locs/cp_mass_update/${apply.body.jobId}`, { token });
      if (p.body.finished) {
        if (p.body.done !== chargers || p.body.results.some((r: { status: string }) => r.status !== 'offline')) throw new Error('unexpected results');
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const doneMs = performance.now() - start;
    const [{ n }] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cp_config WHERE current = 1 AND (config_json->'Time Zone'->>'Value')::int = $1 AND last_sent->>'Window' = 'Offline'`,
      [run],
    );
    if (n !== chargers) throw new Error(`only ${n} configs updated`);
    console.log(
      `run ${run}: check ${check.ms.toFixed(0)} ms; apply request ${apply.ms.toFixed(0)} ms; job done (all Offline, recorded) ${doneMs.toFixed(0)} ms after the request (${polls} polls)`,
    );
  }
} finally {
  await s.close();
}
