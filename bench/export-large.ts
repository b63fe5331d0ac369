/**
 * A very large Excel export (issue 30): GET /api/cp_requests/export/excel over 1,000,000 matching
 * rows, as the portal's list asks for it (its default filter, sort and visible columns, English
 * headers), read to the end over HTTP. The server runs in a child process (this file with --serve),
 * and its peak RSS is sampled from /proc/<pid>/status while the file streams, so the figure is the
 * server's alone. The file is then checked: a valid xlsx with the header, every row, and (past the cap)
 * the row saying it was cut.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/export-large.ts
 *
 * Options: --rows N (1000000 rows seeded, all matching). Targets: under 60 s, under 300 MB.
 * PostgreSQL only: the targets are PostgreSQL's, and PGlite would hold the table in the server's RSS.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { EXPORT_ROW_LIMIT, getResource } from '@ev/core';
import { numberOption } from './args.ts';

interface Ready { type: 'ready'; baseUrl: string; databaseUrl: string; token: string; version: string }
/** The server's CPU time so far and its memory now, MB. */
interface Stats { type: 'stats'; cpuMs: number; heapMB: number; externalMB: number }

if (process.argv.includes('--serve')) await serve();
else await drive();

async function serve() {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const s = await startTestServer();
  process.on('disconnect', () => void s.close().finally(() => process.exit(0)));
  const token = await s.login();
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  process.send!({ type: 'ready', baseUrl: s.baseUrl, databaseUrl: s.databaseUrl, token, version } satisfies Ready);
  process.on('message', () => {
    const cpu = process.cpuUsage();
    const m = process.memoryUsage();
    process.send!({ type: 'stats', cpuMs: (cpu.user + cpu.system) / 1000, heapMB: m.heapTotal / 1048576, externalMB: m.external / 1048576 } satisfies Stats);
  });
}

/**
 * Seeds the server's database from this process, so that the server's process holds only what a
 * server would (no seeding pool, no test modules).
 * Messages of the list's default types, payloads of the size real ones have, meter figures on a
 * third; in chunks over a connection of its own, without the server's statement timeout.
 */
async function seedRows(databaseUrl: string, rows: number): Promise<number> {
  const { addCharger, addSite } = await import('../packages/server/src/testing/ocpp-support.ts');
  const { openDatabase } = await import('../packages/server/src/db/client.ts');
  const t = performance.now();
  const seeder = await openDatabase(databaseUrl, { poolSize: 1, statementTimeoutMs: 600_000 });
  const locId = await addSite(seeder);
  const cpId = await addCharger(seeder, 'BENCH-CP-1', { locId });
  for (let done = 0; done < rows; done += 200_000) {
    await seeder.query(
      `INSERT INTO cp_requests (request_type, cp_id, cp_no, connector_id, connector_status, request_data, response_data, cre_dttm, loc, uuid,
                                session_id, tran_id, energy, voltage, ampere)
       SELECT (ARRAY[1, 2, 3, 4, 5, 7, 10, 14, 16])[1 + g % 9], $1, 'BENCH-CP-1', 1 + g % 2, 'Charging',
              jsonb_build_object('connectorId', 1 + g % 2, 'status', 'Charging', 'errorCode', 'NoError', 'timestamp', now() - g * interval '1 minute'),
              jsonb_build_object('currentTime', now() - g * interval '1 minute'), now() - g * interval '1 minute', $2, md5(g::text),
              g / 100, g / 100, CASE WHEN g % 3 = 0 THEN g * 10 END, CASE WHEN g % 3 = 0 THEN 230.5 END, CASE WHEN g % 3 = 0 THEN 16.2 END
         FROM generate_series($3::int, $4::int) g`,
      [cpId, locId, done + 1, Math.min(done + 200_000, rows)],
    );
  }
  await seeder.query('VACUUM ANALYZE cp_requests');
  await seeder.close();
  return performance.now() - t;
}

/** The process's resident set now and at its peak (VmRSS, VmHWM), MB. */
async function memory(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** The sheet's rows counted from `unzip -p` as it inflates (the sheet is far too big to parse whole), with its first and last bytes. */
async function sheetRows(file: string): Promise<{ rows: number; head: string; tail: string }> {
  const unzip = spawn('unzip', ['-p', file, 'xl/worksheets/sheet1.xml'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let rows = 0;
  let head = '';
  let carry = '';
  for await (const chunk of unzip.stdout as AsyncIterable<Buffer>) {
    const text = carry + chunk.toString('utf8');
    rows += text.split('<row ').length - 1;
    if (head.length < 4000) head += text.slice(0, 4000);
    // Keep enough to see a tag cut between chunks and the last rows' text.
    carry = text.slice(-4000);
    rows -= carry.split('<row ').length - 1;
  }
  rows += carry.split('<row ').length - 1;
  const code = await new Promise((ok) => unzip.once('close', ok));
  if (code !== 0) throw new Error(`unzip exited ${code}: not a valid xlsx`);
  return { rows, head, tail: carry };
}

async function drive() {
  if (!process.env.BENCH_DATABASE_URL) throw new Error('set BENCH_DATABASE_URL (PostgreSQL; its user may create databases)');
  const rows = numberOption('rows', 1_000_000);
  // glibc's malloc arenas capped as `npm run serve` starts the server (package.json): fewer, fuller arenas.
  const env: NodeJS.ProcessEnv = { MALLOC_ARENA_MAX: '2', ...process.env };
  env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', ...process.argv.slice(2)], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const file = join(tmpdir(), `export-large-${process.pid}.xlsx`);
  try {
    const ready = await readyOf(child);
    const pid = child.pid!;
    const seedMs = await seedRows(ready.databaseUrl, rows);
    console.log(`PostgreSQL ${ready.version}; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load average ${loadavg()[0].toFixed(1)}`);
    console.log(`seeded ${rows.toLocaleString('en')} cp_requests rows in ${(seedMs / 1000).toFixed(1)} s`);

    // What the portal's list sends: its default filter and sort, its visible columns with English headers.
    const def = getResource('cp_requests')!;
    const keys = def.columns.filter((c) => !c.hiddenInList && c.display !== 'action').map((c) => c.field);
    const listed = new URLSearchParams({ sort_by: def.defaultSort!.field, order: def.defaultSort!.order });
    for (const type of def.defaultFilters!.request_type as number[]) listed.append('request_type', String(type));
    const query = new URLSearchParams(listed);
    query.set('sheet_name', def.labels.en!.name);
    query.set('lang', 'en');
    for (const k of keys) query.append('keys', k);
    for (const k of keys) query.append('headers', def.labels.en!.fields[k] ?? k);
    const auth = { authorization: `Bearer ${ready.token}` };
    const list = await (await fetch(`${ready.baseUrl}/api/cp_requests?size=20&page=0&${listed}`, { headers: auth })).json();
    console.log(`the list's total: ${list.dataset.totalElements.toLocaleString('en')}${list.dataset.totalIsEstimate ? ' (estimate)' : ''}; ${keys.length} columns: ${keys.join(', ')}`);

    const stats = () => new Promise<Stats>((ok) => {
      child.once('message', ok);
      child.send('stats');
    });
    const cpuBefore = (await stats()).cpuMs;
    const before = await memory(pid);
    let peak = before.rss;
    // V8's heap and the buffers outside it when the RSS peaked: what the export's memory is made of.
    let atPeak = { heapMB: 0, externalMB: 0 };
    const sampler = setInterval(() => void memory(pid).then((m) => (peak = Math.max(peak, m.rss)), () => undefined), 50);
    const inside = setInterval(() => void stats().then((s) => {
      if (s.heapMB + s.externalMB > atPeak.heapMB + atPeak.externalMB) atPeak = s;
    }), 500);
    const t = performance.now();
    const res = await fetch(`${ready.baseUrl}/api/cp_requests/export/excel?${query}`, { headers: auth });
    if (res.status !== 200 || !res.body) throw new Error(`${res.status} ${await res.text()}`);
    let bytes = 0;
    let firstByteMs = 0;
    const counted = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    counted.on('data', (c: Buffer) => {
      if (!bytes) firstByteMs = performance.now() - t;
      bytes += c.length;
    });
    await pipeline(counted, createWriteStream(file));
    const ms = performance.now() - t;
    clearInterval(sampler);
    clearInterval(inside);
    const cpuMs = (await stats()).cpuMs - cpuBefore;
    const after = await memory(pid);
    peak = Math.max(peak, after.rss);

    const sheet = await sheetRows(file);
    const written = Math.min(rows, EXPORT_ROW_LIMIT);
    const expected = 1 + written + (rows > EXPORT_ROW_LIMIT ? 1 : 0);
    if (sheet.rows !== expected) throw new Error(`${sheet.rows} sheet rows, ${expected} expected`);
    if (!sheet.head.includes('Request ID')) throw new Error(`no English header: ${sheet.head.slice(0, 500)}`);
    if ((rows > EXPORT_ROW_LIMIT) !== sheet.tail.includes('Export stopped after')) throw new Error(`cap row wrong: …${sheet.tail.slice(-500)}`);
    console.log(`\n| export | wall s | server CPU s | first byte ms | MB | rows/s | server RSS before / peak sampled / VmHWM MB | at most: V8 heap / external MB |`);
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    console.log(`| ${written.toLocaleString('en')} rows × ${keys.length} columns | ${(ms / 1000).toFixed(1)} | ${(cpuMs / 1000).toFixed(1)} | ${firstByteMs.toFixed(0)} | ${(bytes / 1048576).toFixed(1)} | ${Math.round(written / (ms / 1000)).toLocaleString('en')} | ${Math.round(before.rss)} / ${Math.round(peak)} / ${Math.round(after.hwm)} | ${Math.round(atPeak.heapMB)} / ${Math.round(atPeak.externalMB)} |`);
    console.log(`\nchecked: valid xlsx, ${sheet.rows.toLocaleString('en')} sheet rows (header + ${written.toLocaleString('en')}${rows > EXPORT_ROW_LIMIT ? ' + the cap row' : ''})`);
  } finally {
    await rm(file, { force: true });
    if (child.connected) child.disconnect();
    if (child.exitCode === null) await new Promise((ok) => child.once('exit', ok));
  }
}

function readyOf(child: ChildProcess): Promise<Ready> {
  return new Promise((ok, no) => {
    child.once('message', (m: Ready) => ok(m));
    child.once('exit', (code) => no(new Error(`server process exited (${code})`)));
  });
}
