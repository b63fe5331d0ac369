/**
 * The data-rotation job under charging load: seeds old charger messages (cp_requests, 400 days
 * back, generate_series in chunks), then lets the server's own job (housekeeping/rotation.ts:
 * 5,000 primary keys per DELETE, a pause between statements) delete them while simulated chargers
 * charge (StartTransaction, MeterValues every --interval ms, StopTransaction). Prints the chargers'
 * MeterValues latency (p50 / p99 / max, answered - sent) before and during the deletion, and the
 * deletion's duration.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/data-rotation.ts
 *
 * Options: --rows N (5000000), --chargers N (1000), --interval ms (10000), --batch N (5000),
 * --pause ms (20). The server runs in this process (the testing harness: a new database on the
 * PostgreSQL server, dropped at the end); so do the chargers.
 */
import { cpus, totalmem } from 'node:os';
import { numberOption } from './args.ts';

const rows = numberOption('rows', 5_000_000);
const chargers = numberOption('chargers', 1000);
const interval = numberOption('interval', 10_000);
const batchSize = numberOption('batch', 5000);
const pauseMs = numberOption('pause', 20);
delete process.env.TEST_DATABASE_URL;
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const label = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const { startTestServer } = await import('../packages/server/src/testing/server.ts');
const { addCard, addSite } = await import('../packages/server/src/testing/ocpp-support.ts');
const { startChargingLoad } = await import('../packages/server/src/testing/charging-load.ts');
const { RotationJob } = await import('../packages/server/src/housekeeping/rotation.ts');
const { openDatabase } = await import('../packages/server/src/db/client.ts');
type CallRecord = ReturnType<ReturnType<typeof startChargingLoad>['calls']>[number];

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : NaN);
function latency(calls: CallRecord[], from: number, to: number) {
  const mv = calls.filter((c) => c.action === 'MeterValues' && c.sentAt >= from && c.sentAt < to && c.outcome !== 'pending');
  const ms = mv.filter((c) => c.outcome === 'ack').map((c) => c.answeredAt! - c.sentAt).sort((a, b) => a - b);
  return `${mv.length} MeterValues (${(mv.length / ((to - from) / 1000)).toFixed(0)}/s), p50 ${pct(ms, 50)} ms, p99 ${pct(ms, 99)} ms, max ${ms.at(-1)} ms, not acknowledged ${mv.length - ms.length}`;
}

const s = await startTestServer({ logLevel: 'warn' });
try {
  const locId = await addSite(s.db);
  await addCard(s.db, ['BENCH']);
  const cps = await s.db.query<{ cp_id: number; cp_no: string }>(
    `INSERT INTO cps (cp_no, name, loc_id, enable_flag, heartbeat_interval)
     SELECT 'BENCH-ROT-' || lpad(g::text, 5, '0'), 'bench ' || g, $1, 1, 3600 FROM generate_series(1, $2::int) g RETURNING cp_id, cp_no`,
    [locId, chargers],
  );
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  console.log(`${label} ${version}; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);

  // Old rows in arrival order (ids ascending with time), as chargers wrote them 400 days ago, over
  // a connection of its own without the server's statement timeout.
  const t0 = performance.now();
  const chunk = 100_000;
  const seeder = await openDatabase(s.databaseUrl, { poolSize: 1, statementTimeoutMs: 600_000 });
  for (let done = 0; done < rows; done += chunk) {
    await seeder.query(
      `INSERT INTO cp_requests (request_type, cp_id, cp_no, connector_id, cre_dttm, request_data, response_data, energy)
       SELECT 11, $1, $2, 1, now() - interval '400 days' + g * interval '1 millisecond', '{"connectorId":1,"meterValue":[{"sampledValue":[{"value":"1234"}]}]}', '{}', g
         FROM generate_series($3::int, $4::int) g`,
      [cps[0].cp_id, cps[0].cp_no, done + 1, Math.min(done + chunk, rows)],
    );
  }
  await seeder.query(`ANALYZE cp_requests`);
  await seeder.close();
  console.log(`${rows.toLocaleString('en')} old cp_requests rows seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const load = startChargingLoad({ wsUrl: s.wsUrl, cpNos: cps.map((c) => c.cp_no), idTag: 'BENCH', meterIntervalMs: interval, metersPerSession: 20 });
  if (!(await load.progressed(3, 120_000))) throw new Error('the chargers did not get going');
  const baseFrom = Date.now();
  await new Promise((r) => setTimeout(r, 15_000));
  const baseTo = Date.now();
  console.log(`${chargers} chargers, MeterValues every ${interval} ms`);
  console.log(`before the deletion: ${latency(load.calls(), baseFrom, baseTo)}`);

  await s.db.query(`UPDATE data_rotation_setup SET is_enabled = (item = 'cp_request')::int, period_month = 12`);
  const job = new RotationJob(s.db, { batchSize, pauseMs });
  const from = Date.now();
  const [report] = (await job.start())!;
  const to = Date.now();
  console.log(`deletion: ${report.deleted.toLocaleString('en')} rows in ${report.statements} statements (batch ${batchSize}, pause ${pauseMs} ms), ${((to - from) / 1000).toFixed(1)} s, ${Math.round(report.deleted / ((to - from) / 1000)).toLocaleString('en')} rows/s`);
  console.log(`during the deletion: ${latency(load.calls(), from, to)}`);
  await load.stop();
  const [{ left }] = await s.db.query<{ left: number }>(`SELECT count(*)::int AS left FROM cp_requests WHERE cre_dttm < now() - interval '12 months'`);
  console.log(`old rows left: ${left}`);
} finally {
  await s.close();
}
