/**
 * SIGKILL while charging, at full size: the server process is killed while 1,000 chargers charge
 * on PostgreSQL, started again on the same database and port, and every call the chargers saw
 * acknowledged is looked up in the database (packages/server/src/ocpp/crash-recovery.test.ts is
 * the CI version with 100).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocpp-crash.ts
 *
 * Options: --chargers N (1000), --meter-ms N (MeterValues interval, 1000), --meters N (per session, 5),
 *          --before-s N (charging before the kill, 10), --down-s N (server down, 2), --after-s N (charging after, 10).
 *
 * The server is src/main.ts in a child process (testing/server-process.ts) over a fresh database;
 * the chargers are the fault tests' (testing/charging-load.ts): one call at a time, a start or
 * stop whose answer was lost sent again after reconnecting, reconnecting every 200 ms.
 */
import { cpus, loadavg } from 'node:os';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { freshDatabaseUrl } from '../packages/server/src/testing/database.ts';
import { startChargingLoad, type CallRecord, type ChargingLoad } from '../packages/server/src/testing/charging-load.ts';
import { checkRecovery, freePort, startServerProcess } from '../packages/server/src/testing/server-process.ts';
import { numberOption } from './args.ts';

const pgUrl = process.env.BENCH_DATABASE_URL;
if (!pgUrl) {
  console.log('needs PostgreSQL: set BENCH_DATABASE_URL (the embedded database is one process’s file)');
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl; // freshDatabaseUrl makes its database there
const n = numberOption('chargers', 1000);
const meterMs = numberOption('meter-ms', 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const IDTAG = 'CRASHTAG';
const cpNos = Array.from({ length: n }, (_, i) => `K${String(i + 1).padStart(5, '0')}`);

console.log(`${new Date().toISOString()}; Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`);
const fresh = await freshDatabaseUrl();
const port = await freePort();
const start = () => startServerProcess({ databaseUrl: fresh.url, port, adminPassword: 'bench-crash', startTimeoutMs: 120_000 });
let server = await start();
const db = await openDatabase(fresh.url, { poolSize: 2 });
try {
  const [site] = await db.query(`INSERT INTO cp_locs (address) VALUES ('crash bench') RETURNING loc_id`);
  await db.query(`INSERT INTO cps (cp_no, name, loc_id) SELECT x, x, $2 FROM unnest($1::text[]) x`, [cpNos, site.loc_id]);
  await db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('crash bench', $1, 1)`, [IDTAG]);

  // Ten groups started a tenth of a session apart: at the kill, chargers are at every step of a session.
  const meters = numberOption('meters', 5);
  const loads: ChargingLoad[] = [];
  for (let g = 0; g < 10; g++) {
    if (g) await sleep((meterMs * (meters + 2)) / 10);
    const group = cpNos.filter((_, i) => i % 10 === g);
    loads.push(startChargingLoad({ wsUrl: `ws://127.0.0.1:${port}`, cpNos: group, idTag: IDTAG, meterIntervalMs: meterMs, metersPerSession: meters }));
  }
  const load = {
    chargers: loads.flatMap((l) => l.chargers),
    calls: () => loads.flatMap((l) => l.calls()),
    progressed: async (k: number, ms: number) => (await Promise.all(loads.map((l) => l.progressed(k, ms)))).every(Boolean),
    stop: () => Promise.all(loads.map((l) => l.stop())),
  };
  if (!(await load.progressed(2, 120_000))) console.log('!! not every charger charging before the kill');
  await sleep(numberOption('before-s', 10) * 1000);
  await server.kill('SIGKILL');
  const killedAt = Date.now();
  await sleep(numberOption('down-s', 2) * 1000);
  const spawnedAt = Date.now();
  server = await start();
  const readyAt = Date.now();
  await load.progressed(2, 120_000);
  await sleep(numberOption('after-s', 10) * 1000);
  await load.stop();
  const stoppedAt = Date.now();

  const calls = load.calls();
  const report = await checkRecovery(db, calls, cpNos);
  const acked = (action: CallRecord['action']) => calls.filter((c) => c.action === action && c.outcome === 'ack').length;
  const starts = acked('StartTransaction');
  const meterValues = acked('MeterValues');
  const stops = acked('StopTransaction');
  const lost = report.missingRequests.length + report.missingSessions.length + report.missingMeterValues.length + report.unappliedStops.length;
  const [sessions] = await db.query(`SELECT count(*)::int AS n FROM cp_sessions WHERE cp_no = ANY($1::text[])`, [cpNos]);
  // Per charger: its first acknowledged BootNotification (reconnected) and first other acknowledged call after the kill.
  const firstAfter = (pick: (c: CallRecord) => boolean) =>
    load.chargers.map((ch) => ch.calls.find((c) => c.outcome === 'ack' && c.sentAt >= killedAt && pick(c))?.answeredAt ?? Infinity);
  const reconnected = firstAfter((c) => c.action === 'BootNotification');
  const charging = firstAfter((c) => c.action !== 'BootNotification');
  const sec = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'never');
  const lostAtKill = calls.filter((c) => c.outcome === 'lost' && c.sentAt <= killedAt).length;
  console.log(
    `${n} chargers charging on ${fresh.url.replace(/\/\/[^@]*@/, '//')}, MeterValues every ${meterMs} ms; SIGKILL ${numberOption('before-s', 10)} s into charging, ` +
      `restarted ${sec(spawnedAt - killedAt)} later, stopped ${sec(stoppedAt - readyAt)} after ready\n` +
      `  acknowledged: StartTransaction ${starts}, MeterValues ${meterValues}, StopTransaction ${stops} (${report.acknowledged} in all, + ${acked('BootNotification')} boots)\n` +
      `  found in the database: StartTransaction ${starts - report.missingSessions.length} sessions, MeterValues ${meterValues - report.missingMeterValues.length} readings, ` +
      `StopTransaction ${stops - report.unappliedStops.length} closed with their meterStop; cp_requests rows ${report.acknowledged - report.missingRequests.length}\n` +
      `  lost ${lost}; duplicates ${report.duplicateTransactionIds.length} (sessions ${sessions.n}, ${report.unacknowledgedSessions.length} not named by an acknowledged start); ` +
      `open ${report.openSessions}, closed without their stop ${report.closedWithoutStop}\n` +
      `  the crash: ${lostAtKill} calls lost their answer at the kill; sent again after it and acknowledged: ${report.retriedStarts} starts ` +
      `(${report.retriedStartsStoredBefore} already stored: same transactionId back), ${report.retriedStops} stops; refused ${report.refused} ${JSON.stringify(report.errorCodes)}\n` +
      `  restart: server ready ${sec(readyAt - spawnedAt)} after the spawn; all ${n} reconnected (BootNotification acknowledged) ${sec(Math.max(...reconnected) - spawnedAt)} ` +
      `after the spawn = ${sec(Math.max(...reconnected) - readyAt)} after ready; all charging again ${sec(Math.max(...charging) - readyAt)} after ready`,
  );
  if (lost || report.duplicateTransactionIds.length || report.unacknowledgedSessions.length) process.exitCode = 1;
} finally {
  await server.kill('SIGKILL');
  await db.close();
  await fresh.drop();
}
