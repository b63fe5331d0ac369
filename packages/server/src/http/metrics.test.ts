import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { OCPP_REQUEST_TYPES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, eventually } from '../testing/ocpp-support.ts';
import { addLmsSite } from '../testing/lms.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, as far as these tests read it. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** Sum of the samples named `name` carrying every label given. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Starting two servers on the embedded database takes long on a busy machine. */
const START_TIMEOUT_MS = 180_000;

describe('GET /metrics', () => {
  let s: TestServer;
  /** A second server with METRICS_TOKEN set. */
  let t: TestServer;
  let sim: SimulatedCharger;
  let cpId: number;

  beforeAll(async () => {
    // One after the other: embedded databases share this thread, and a start starved of it misses Fastify's ready timeout.
    s = await startTestServer();
    t = await startTestServer({ metricsToken: 'metrics-secret-1' });
    await addCard(s.db, ['CARD-MET']);
    const site = await addLmsSite(s.db, { mode: 'DISTRIBUTION', zoneA: 32, minA: 6, maxA: 32, chargers: ['MET-1'] });
    cpId = site.cpIds[0];
    s.app.lms.configurationChanged();
    sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'MET-1', connectors: 1, reconnect: false, maxCurrentA: 32 });
    await sim.start();
    await eventually(async () => s.app.lms.sites.has(site.locId) && sim.allowedCurrent(1) === 0);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await sim?.stop();
    await Promise.all([s?.close(), t?.close()]);
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.baseUrl}/metrics`, { headers });
    return { status: res.status, type: res.headers.get('content-type'), samples: parse(await res.text()) };
  };

  /** cp_requests rows per action and direction: what the metrics must agree with. */
  const logged = async (direction: 'in' | 'out') => {
    const rows = await s.db.query<{ request_type: number; n: number }>(
      `SELECT request_type, count(*)::int AS n FROM cp_requests WHERE cp_id = $1 GROUP BY request_type`, [cpId]);
    const counts = new Map<string, number>();
    for (const r of rows) {
      const type = OCPP_REQUEST_TYPES.find((t) => t.id === r.request_type && t.direction === direction);
      if (type) counts.set(type.action, r.n);
    }
    return counts;
  };

  it('counts charger messages by action, commands by outcome, batch writes, reallocations and HTTP routes', async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain/);
    expect(total(before.samples, 'ev_chargers_connected')).toBe(1);
    const reallocationsBefore = total(before.samples, 'ev_lms_reallocations_total');
    expect(reallocationsBefore).toBeGreaterThan(0);

    // The charger's own messages, then a command through the API, then LMS work from a new session.
    await sim.heartbeat();
    await sim.heartbeat();
    const admin = await s.login();
    const unlock = await s.api('POST', `/api/cps/unlockCharger/${cpId}`, { token: admin, body: { connectorId: 1 } });
    expect(unlock.body.status).toBe('success');
    await sim.plugIn(1);
    await sim.startTransaction(1, 'CARD-MET');
    await eventually(async () => sim.allowedCurrent(1) > 0);
    await s.app.lms.settled();
    expect((await s.api('GET', '/no-such-page/12345')).status).toBe(404);

    // The charger reacts to its new limits with more messages, and commands from load management
    // log their rows in the background: compare once a scrape and the log agree.
    const agree = (m: Sample[], counts: Map<string, number>, name: string) =>
      [...counts].every(([action, n]) => total(m, name, { action }) === n) &&
      total(m, name) === [...counts.values()].reduce((x, y) => x + y, 0);
    const after = await eventually(async () => {
      const m = await scrape();
      const [received, sent] = [await logged('in'), await logged('out')];
      const settled = agree(m.samples, received, 'ev_ocpp_messages_received_total') &&
        agree(m.samples, sent, 'ev_ocpp_command_duration_seconds_count') && total(m.samples, 'ev_batch_writer_queued_rows') === 0;
      return settled ? { m: m.samples, received } : null;
    });
    // Every committed charger message is counted under its action, every command under its own, as cp_requests logged them.
    expect(after).toBeTruthy();
    const { m, received } = after!;
    expect(received.get('Heartbeat')).toBe(2);
    expect(received.get('StartTransaction')).toBe(1);

    expect(total(m, 'ev_ocpp_command_duration_seconds_count', { action: 'UnlockConnector', outcome: 'success' })).toBe(1);
    expect(total(m, 'ev_ocpp_command_duration_seconds_count', { action: 'SetChargingProfile', outcome: 'success' })).toBeGreaterThan(0);
    expect(total(m, 'ev_ocpp_command_duration_seconds_bucket', { action: 'UnlockConnector', le: '+Inf' })).toBe(1);

    expect(total(m, 'ev_lms_reallocations_total')).toBeGreaterThan(reallocationsBefore);
    expect(total(m, 'ev_batch_writer_queued_rows')).toBe(0);
    // Every cp_requests row went through the writer, along with meter values and charger updates.
    const [{ n: requestRows }] = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cp_requests`);
    expect(total(m, 'ev_batch_writer_rows_total')).toBeGreaterThanOrEqual(requestRows);
    expect(total(m, 'ev_batch_writer_flush_seconds_count')).toBeGreaterThan(0);

    // HTTP latency by route pattern and status class; an unknown address is one series, not one per URL.
    expect(total(m, 'ev_http_request_duration_seconds_count', { method: 'POST', route: '/api/:resource/unlockCharger/:id', status: '2xx' })).toBe(1);
    expect(total(m, 'ev_http_request_duration_seconds_count', { method: 'POST', route: '/api/login', status: '2xx' })).toBe(1);
    expect(total(m, 'ev_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '4xx' })).toBe(1);
    expect(total(m, 'ev_http_request_duration_seconds_sum', { route: '/api/:resource/unlockCharger/:id' })).toBeGreaterThan(0);
    expect(m.some((x) => x.labels.route?.includes('no-such-page') || x.labels.route?.includes(String(cpId)))).toBe(false);

    // The process's own figures.
    expect(total(m, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(total(m, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('refuses a request a proxy forwarded when no METRICS_TOKEN is set: it may come from anywhere', async () => {
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).status).toBe(403);
    expect((await scrape({ forwarded: 'for=127.0.0.1' })).status).toBe(403);
  });

  it('with METRICS_TOKEN set, asks every caller for the token, loopback included', async () => {
    const get = (headers: Record<string, string> = {}) => fetch(`${t.baseUrl}/metrics`, { headers });
    const none = await get();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await get({ authorization: 'Bearer metrics-secret-2' })).status).toBe(401);
    expect((await get({ authorization: 'Bearer metrics-secret' })).status).toBe(401);
    expect((await get({ authorization: 'Basic metrics-secret-1' })).status).toBe(401);
    const ok = await get({ authorization: 'Bearer metrics-secret-1' });
    expect(ok.status).toBe(200);
    const samples = parse(await ok.text());
    // Its own registry: the other server's charger is not counted here.
    expect(samples.find((x) => x.name === 'ev_chargers_connected')?.value).toBe(0);
  });
});
