/**
 * Answer compression (@fastify/compress, http/security.ts): size and time of large API answers
 * sent as they are (no Accept-Encoding) and brotli / gzip compressed, on the real server.
 *
 *   npx tsx bench/compression.ts                        PGlite (in memory)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/compression.ts
 *
 * Options: --rows N (user_log rows seeded, 2000), --requests N (per answer and encoding, 100).
 * Server and client share the process, over loopback: the time is the whole round trip, body read
 * to its end (and decompressed, as a browser would), median and p95. Loopback makes the transfer
 * almost free; what compression saves on a real link is shown at 10 Mbit/s (a VPN, a site's uplink).
 * The server's cost alone follows: CPU time (not wall time, so less sensitive to a busy machine) to
 * compress each answer as the plugin does (brotli quality 4, gzip level 6).
 */
import http from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { numberOption } from './args.ts';

const rows = numberOption('rows', 2000);
const requests = numberOption('requests', 100);
// The harness makes its fresh database on TEST_DATABASE_URL (else PGlite): set before it is loaded.
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const { startTestServer } = await import('../packages/server/src/testing/server.ts');
const s = await startTestServer();
const token = await s.login();
await s.db.query(
  `INSERT INTO user_log (type, username, user_id, ip, msg, cre_dttm)
   SELECT 'LOGIN', 'user' || (g % 500), g % 500, '10.0.' || (g % 250) || '.' || (g % 200), 'Login', now() - g * interval '1 minute'
     FROM generate_series(1, $1) g`,
  [rows],
);

const agent = new http.Agent({ keepAlive: true });
function get(path: string, encoding?: string): Promise<{ bytes: number; ms: number; encoding?: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (encoding) headers['accept-encoding'] = encoding;
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http.get(s.baseUrl + path, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const got = res.headers['content-encoding'];
        const text = got === 'br' ? brotliDecompressSync(body) : got === 'gzip' ? gunzipSync(body) : body;
        JSON.parse(text.toString());
        resolve({ bytes: body.length, ms: performance.now() - t, encoding: got });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

const ANSWERS = [
  { name: 'user_log list, size=200', path: '/api/user_log?size=200' },
  { name: 'user_log list, size=20 (a default page)', path: '/api/user_log?size=20' },
  { name: 'OpenAPI document', path: '/api/docs/openapi.json' },
];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (n: number) => n.toFixed(2);

console.log(`rows ${rows}, ${requests} requests per line; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log('| answer | encoding | bytes | median ms | p95 ms | + transfer at 10 Mbit/s ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const a of ANSWERS) {
  for (const encoding of [undefined, 'br', 'gzip']) {
    for (let i = 0; i < 10; i++) await get(a.path, encoding); // warm-up
    const times: number[] = [];
    let last = await get(a.path, encoding);
    for (let i = 0; i < requests; i++) {
      last = await get(a.path, encoding);
      times.push(last.ms);
    }
    if ((last.encoding ?? undefined) !== encoding) throw new Error(`${a.path}: asked ${encoding}, got ${last.encoding}`);
    const med = pct(times, 0.5);
    console.log(`| ${a.name} | ${encoding ?? 'none'} | ${last.bytes} | ${fmt(med)} | ${fmt(pct(times, 0.95))} | ${fmt(med + (last.bytes * 8) / 10_000)} |`);
  }
}

console.log('\n| answer | bytes | br CPU ms | gzip CPU ms |');
console.log('|---|---:|---:|---:|');
const cpuMs = (f: () => void, n = 50) => {
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000 / n;
};
for (const a of ANSWERS) {
  const body = await fetch(s.baseUrl + a.path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer()).then(Buffer.from);
  const br = cpuMs(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
  const gz = cpuMs(() => gzipSync(body));
  console.log(`| ${a.name} | ${body.length} | ${fmt(br)} | ${fmt(gz)} |`);
}
agent.destroy();
await s.close();
