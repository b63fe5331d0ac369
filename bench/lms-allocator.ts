/**
 * Speed of the load-management allocator (packages/server/src/lms/allocator.ts): one reallocation of
 * a whole site, the pure function alone (no database, no OCPP), per mode.
 *
 *   npx tsx bench/lms-allocator.ts
 *
 * Options: --chargers N (500), --zones N (8), --runs N (5000 per mode), --warmup N (500), --sites N
 * (50 different random sites, cycled, so no run sees the same input twice in a row).
 *
 * Each site (seeded, so repeatable): zones of 250–800 A with 6 A min and 32 A max per charger, a
 * site limit at 70 % of the zones' sum (so it binds), and chargers spread over the zones: 10 %
 * without a car, 5 % uncontrolled (some measured above their max), maxCurrent 16, 22 or 32 A or
 * none, arrival times with ties. Target: under 5 ms per reallocation of 500 chargers.
 */
import { cpus, totalmem } from 'node:os';
import { allocate } from '../packages/server/src/lms/allocator.ts';
import { LMS_MODES } from '@ev/core';
import type { ChargerLoad, LmsMode, SiteLoad, ZoneLimits } from '../packages/server/src/lms/types.ts';
import { numberOption } from './args.ts';

const chargers = numberOption('chargers', 500);
const zoneCount = numberOption('zones', 8);
const runs = numberOption('runs', 5000);
const warmup = numberOption('warmup', 500);
const siteCount = numberOption('sites', 50);

/** mulberry32: a small seeded generator, so every run of the bench measures the same sites. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeSite(mode: LmsMode, seed: number): SiteLoad {
  const rnd = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const zones: ZoneLimits[] = [];
  for (let z = 1; z <= zoneCount; z++) zones.push({ zoneId: z, maxAvailable: 250 + Math.floor(rnd() * 5500) / 10, minPerCharger: 6, maxPerCharger: 32 });
  const list: ChargerLoad[] = [];
  for (let i = 0; i < chargers; i++) {
    const r = rnd();
    list.push({
      cpId: 1000 + i,
      zoneId: 1 + Math.floor(rnd() * zoneCount),
      wants: r >= 0.1,
      since: 1_700_000_000_000 + Math.floor(rnd() * 400) * 1000, // ties: 400 distinct seconds
      maxCurrent: pick([16, 22, 32, undefined]),
      measured: rnd() < 0.5 ? Math.floor(rnd() * 400) / 10 : undefined,
      uncontrolled: r >= 0.1 && r < 0.15,
    });
  }
  const siteLimit = Math.floor(zones.reduce((s, z) => s + z.maxAvailable, 0) * 7) / 10;
  return { mode, siteLimit, zones, chargers: list };
}

const lines: string[] = [];
for (const mode of LMS_MODES) {
  const sites = Array.from({ length: siteCount }, (_, i) => makeSite(mode, i + 1));
  const wall: number[] = [];
  const cpu: number[] = [];
  const states = { charging: 0, queueing: 0, uncontrolled: 0, idle: 0 };
  for (let i = 0; i < warmup + runs; i++) {
    const site = sites[i % sites.length];
    // CPU time too (µs resolution): on a shared machine the wall clock's tail is mostly the time
    // other jobs held the core, which the CPU time leaves out.
    const c = process.cpuUsage();
    const t = performance.now();
    const out = allocate(site);
    const ms = performance.now() - t;
    const used = process.cpuUsage(c);
    if (i >= warmup) {
      wall.push(ms);
      cpu.push((used.user + used.system) / 1000);
    }
    if (i < sites.length) for (const a of out) states[a.state]++;
  }
  const pct = (xs: number[], p: number) => xs[Math.max(0, Math.ceil(p * xs.length) - 1)].toFixed(3);
  const stats = (xs: number[]) => (xs.sort((a, b) => a - b), `${pct(xs, 0.5)} / ${pct(xs, 0.99)} / ${xs.at(-1)!.toFixed(3)}`);
  const mix = (Object.keys(states) as (keyof typeof states)[]).map((k) => `${k} ${Math.round(states[k] / sites.length)}`).join(', ');
  const line = `| ${mode} | ${wall.length} | ${stats(wall)} | ${stats(cpu)} | ${mix} |`;
  console.error(line);
  lines.push(line);
}

const date = new Date().toISOString().replace('T', ' ').replace(/:\d\d\..*/, ' UTC');
console.log(`\n### Results — ${date}\n`);
console.log(`Command: \`${`npx tsx bench/lms-allocator.ts ${process.argv.slice(2).join(' ')}`.trim()}\``);
console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}.`);
console.log(`${chargers} chargers in ${zoneCount} zones, site limit binding; ${siteCount} seeded sites cycled; ${warmup} warm-up + ${runs} timed reallocations per mode.\n`);
console.log('| mode | runs | wall ms p50 / p99 / max | CPU ms p50 / p99 / max | average mix per site |');
console.log('|---|---:|---:|---:|---|');
for (const l of lines) console.log(l);
