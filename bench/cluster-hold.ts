/**
 * Several server nodes on one PostgreSQL and one Redis holding a large fleet heartbeating
 * (issue 13: 50,000 chargers on this 2-core machine, each process limited to about 20,000 open files).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx bench/cluster-hold.ts [--chargers 50000] [--nodes 3] [--hold 30]
 *
 * The nodes are the real server (src/main.ts) in processes of their own, on a fresh database with
 * N chargers in cps. The fleet is split evenly over the nodes (as a load balancer spreads it); each
 * share is driven by a driver process of its own (this file with --drive) with bare-socket chargers
 * (ocpp-raw-charger.ts), which connect and boot 200 at a time, then hold, each charger sending one
 * Heartbeat in the hold time, spread evenly. Printed: connect+boot rate, Heartbeat latency over the
 * whole fleet, each node's connections and RSS, online_flag 1 in the database and presence keys in Redis.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { freshDatabaseUrl } from '../packages/server/src/testing/database.ts';
import { freePort, startServerProcess, type ServerProcess } from '../packages/server/src/testing/server-process.ts';
import { heartbeats, pool, RawCharger } from './ocpp-raw-charger.ts';
import { numberOption, option } from './args.ts';

const cpNo = (i: number) => `CH${i + 1}`;

/** A driver process: connects and boots its share of the fleet on one node, holds it, reports. */
async function drive(): Promise<void> {
  const port = numberOption('port', 0);
  const from = numberOption('from', 0);
  const to = numberOption('to', 0);
  const hold = numberOption('hold', 30);
  const fleet = Array.from({ length: to - from }, (_, i) => new RawCharger('127.0.0.1', port, cpNo(from + i)));
  const t0 = performance.now();
  await pool(fleet, 200, (c) => c.boot());
  const bootSeconds = (performance.now() - t0) / 1000;
  process.send!({ type: 'booted', bootSeconds });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const beat = await heartbeats(fleet, hold);
  process.send!({ type: 'held', sent: beat.sent, failed: beat.failed, latencies: beat.latencies });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  process.exit(0);
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('BENCH_DATABASE_URL (PostgreSQL) and BENCH_REDIS_URL are needed: several nodes share both');
  const chargers = numberOption('chargers', 50_000);
  const nodeCount = numberOption('nodes', 3);
  const hold = numberOption('hold', 30);
  const prefix = `bench-${randomBytes(3).toString('hex')}:`;

  process.env.TEST_DATABASE_URL = databaseUrl;
  const fresh = await freshDatabaseUrl();
  const db = await openDatabase(fresh.url);
  const [site] = await db.query(`INSERT INTO cp_locs (address) VALUES ('bench') RETURNING loc_id`);
  await db.query(
    `INSERT INTO cps (cp_no, name, loc_id, heartbeat_interval) SELECT 'CH' || i, 'CH' || i, $2, $3 FROM generate_series(1, $1) i`,
    [chargers, site.loc_id, hold],
  );
  const redis = new Redis(redisUrl);
  const nodes: { port: number; proc: ServerProcess }[] = [];
  const drivers: ReturnType<typeof fork>[] = [];
  try {
    for (let i = 0; i < nodeCount; i++) {
      const port = await freePort();
      // --no-redis (one node): the same fleet without the Redis bus, to tell what the bus costs.
      const env: Record<string, string> = option('no-redis') === undefined ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } : {};
      nodes.push({ port, proc: await startServerProcess({ databaseUrl: fresh.url, port, adminPassword: 'bench-password', env }) });
    }
    const share = Math.ceil(chargers / nodeCount);
    const next = (child: ReturnType<typeof fork>, type: string) =>
      new Promise<any>((resolve) => child.once('message', (m: any) => m.type === type && resolve(m)));
    const booted: Promise<any>[] = [];
    const t0 = performance.now();
    nodes.forEach((n, i) => {
      const args = ['--drive', '--port', String(n.port), '--from', String(i * share), '--to', String(Math.min(chargers, (i + 1) * share)), '--hold', String(hold)];
      const child = fork(fileURLToPath(import.meta.url), args, { execArgv: ['--import', 'tsx', '--max-old-space-size=4096'] });
      drivers.push(child);
      booted.push(next(child, 'booted'));
    });
    const driverSeconds = Math.max(...(await Promise.all(booted)).map((b) => b.bootSeconds as number));
    const bootSeconds = (performance.now() - t0) / 1000;
    const online = async () => (await db.query(`SELECT count(*)::int AS n FROM cps WHERE online_flag = 1`))[0].n as number;
    for (let until = Date.now() + 60_000; (await online()) < chargers && Date.now() < until; ) await new Promise((r) => setTimeout(r, 500));
    console.log(`${nodeCount} nodes, ${chargers} chargers: connected and booted in ${driverSeconds.toFixed(1)} s (${Math.round(chargers / driverSeconds)}/s, 200 at a time per node; ${bootSeconds.toFixed(1)} s with the drivers' start); online_flag 1: ${await online()}`);

    const held = drivers.map((d) => next(d, 'held'));
    for (const d of drivers) d.send('hold');
    const results = await Promise.all(held);
    const latencies = results.flatMap((r) => r.latencies as number[]).sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    const failed = results.reduce((n, r) => n + r.failed, 0);
    let presence = 0;
    for (let cursor = '0'; ; ) {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}cp:*`, 'COUNT', 5000);
      presence += keys.length;
      if ((cursor = nextCursor) === '0') break;
    }
    console.log(`held ${hold} s: ${latencies.length} Heartbeats answered (${failed} failed), p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms; online_flag 1: ${await online()}; presence keys in Redis: ${presence}`);
    for (const [i, n] of nodes.entries()) {
      const ready = (await (await fetch(`http://127.0.0.1:${n.port}/readyz`)).json()) as { chargers: number };
      const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${n.proc.child.pid}/status`, 'utf8'))![1]) / 1024;
      console.log(`node ${i + 1}: ${ready.chargers} connections, RSS ${Math.round(rss)} MB`);
    }
  } finally {
    for (const d of drivers) d.send('exit');
    await Promise.all(nodes.map((n) => n.proc.kill('SIGTERM')));
    const keys = await redis.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
    redis.disconnect();
    await db.close();
    await fresh.drop();
  }
}

if (option('drive') !== undefined) await drive();
else await main();
