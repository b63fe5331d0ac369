/**
 * The Voucher.xlsx import end to end through HTTP: POST /api/voucher/import (multipart) with
 * 100,000 rows, timed from the request to the answer, and the server's peak RSS (the server runs
 * in a child process, this file with --serve, so the figure is the server's alone). Runs: a good
 * file (every row imported in one transaction), then the same file with one bad row at its end
 * (every row read and checked, nothing imported).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/voucher-import.ts
 *   npx tsx bench/voucher-import.ts                     PGlite (in memory)
 *
 * Options: --rows N (100000), --runs N (2 good imports). Targets: under 30 s, under 300 MB.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { numberOption } from './args.ts';

type FromChild =
  | { type: 'ready'; baseUrl: string; token: string; campaignId: number; label: string; version: string; rssMB: number; maxRssMB: number; heapMB: number; externalMB: number }
  | { type: 'stats'; rssMB: number; maxRssMB: number; heapMB: number; externalMB: number; vouchers: number };

if (process.argv.includes('--serve')) await serve();
else await drive();

async function serve() {
  const { startTestServer } = await import('../packages/server/src/testing/server.ts');
  const s = await startTestServer();
  process.on('disconnect', () => void s.close().finally(() => process.exit(0)));
  const token = await s.login();
  const site = await s.api('POST', '/api/cp_locs', { token, body: { address: 'Bench site' } });
  const campaign = await s.api('POST', '/api/campaign', { token, body: { name: 'Bench vouchers', fee: 0, locIds: [site.body.data.loc_id], isVoucher: 1 } });
  const [{ version }] = await s.db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  const mem = () => ({ rssMB: process.memoryUsage().rss / 1048576, maxRssMB: process.resourceUsage().maxRSS / 1024, heapMB: process.memoryUsage().heapTotal / 1048576, externalMB: process.memoryUsage().external / 1048576 });
  process.send!({
    type: 'ready', baseUrl: s.baseUrl, token, campaignId: campaign.body.data.id, version,
    label: process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite', ...mem(),
  } satisfies FromChild);
  process.on('message', async () => {
    const [{ n }] = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM voucher`);
    process.send!({ type: 'stats', vouchers: n, ...mem() } satisfies FromChild);
  });
}

/** A Voucher.xlsx of n rows (half the dates as text, half as Excel date cells), optionally one bad row last. */
async function workbook(n: number, badLast: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const ws = wb.addWorksheet('Voucher');
  ws.addRow(['memberId', 'voucherExpireDate']).commit();
  const year = new Date().getUTCFullYear() + 1;
  for (let i = 1; i <= n; i++) {
    const date = `${year}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const last = badLast && i === n;
    const row = ws.addRow([`M${String(i).padStart(7, '0')}`, last ? 'not a date' : i % 2 ? date : new Date(`${date}T00:00:00Z`)]);
    if (!last && i % 2 === 0) row.getCell(2).numFmt = 'yyyy-mm-dd';
    row.commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function drive() {
  const rows = numberOption('rows', 100_000);
  const runs = numberOption('runs', 2);
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TEST_DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = inbox(child);
  try {
    const ready = (await next()) as Extract<FromChild, { type: 'ready' }>;
    console.log(`${ready.label} ${ready.version}; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
    console.log(`server RSS after start ${Math.round(ready.rssMB)} MB (peak so far ${Math.round(ready.maxRssMB)} MB, V8 heap ${Math.round(ready.heapMB)} MB, external ${Math.round(ready.externalMB)} MB)`);
    const good = await workbook(rows, false);
    const bad = await workbook(rows, true);
    console.log(`files: ${rows.toLocaleString('en')} rows, ${(good.length / 1048576).toFixed(1)} MB`);
    const post = async (file: Buffer) => {
      const form = new FormData();
      form.append('campaignId', String(ready.campaignId));
      form.append('file', new Blob([new Uint8Array(file)]), 'Voucher.xlsx');
      const t = performance.now();
      const res = await fetch(`${ready.baseUrl}/api/voucher/import`, { method: 'POST', headers: { authorization: `Bearer ${ready.token}` }, body: form });
      const body = await res.json();
      return { ms: performance.now() - t, status: res.status, body };
    };
    const stats = async () => {
      child.send('stats');
      return (await next()) as Extract<FromChild, { type: 'stats' }>;
    };
    let expected = 0;
    for (let run = 1; run <= runs; run++) {
      const r = await post(good);
      if (r.status !== 200 || r.body.status !== 'success' || r.body.count !== rows) throw new Error(`${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      expected += rows;
      const s = await stats();
      if (s.vouchers !== expected) throw new Error(`${s.vouchers} vouchers stored, ${expected} expected`);
      console.log(`good file, run ${run}: ${(r.ms / 1000).toFixed(2)} s for ${rows.toLocaleString('en')} vouchers; server RSS ${Math.round(s.rssMB)} MB, peak ${Math.round(s.maxRssMB)} MB (V8 heap ${Math.round(s.heapMB)} MB, external ${Math.round(s.externalMB)} MB)`);
    }
    const r = await post(bad);
    const s = await stats();
    if (r.body.status !== 'error' || r.body.errors?.[0]?.row !== rows + 1 || s.vouchers !== expected) throw new Error(`bad file: ${JSON.stringify(r.body).slice(0, 300)}`);
    console.log(`file with a bad last row: ${(r.ms / 1000).toFixed(2)} s (row ${r.body.errors[0].row} reported, nothing imported); server RSS ${Math.round(s.rssMB)} MB, peak ${Math.round(s.maxRssMB)} MB`);
  } finally {
    child.disconnect();
    await new Promise((ok) => child.once('exit', ok));
  }
}

/** The child's messages, one at a time; rejects when the child dies first. */
function inbox(child: ChildProcess) {
  const queue: FromChild[] = [];
  let waiter: ((m: FromChild) => void) | undefined;
  let fail: ((e: Error) => void) | undefined;
  child.on('message', (m: FromChild) => (waiter ? (waiter(m), (waiter = undefined)) : queue.push(m)));
  child.on('exit', (code) => fail?.(new Error(`server process exited (${code})`)));
  return () =>
    new Promise<FromChild>((ok, no) => {
      const m = queue.shift();
      if (m) return ok(m);
      waiter = ok;
      fail = no;
    });
}
