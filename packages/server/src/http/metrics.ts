import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ERROR_CODES } from '@ev/core';
import type { CommandOutcome } from '../ocpp/commands.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** A command's outcome as a label: a handful of values, never the charger's own text. */
function outcomeLabel(outcome: CommandOutcome): string {
  if (outcome.status === 'success') return 'success';
  switch (outcome.errorCode) {
    case ERROR_CODES.CP_REJECTED: return 'rejected';
    case ERROR_CODES.CP_TIMEOUT: return 'timeout';
    case ERROR_CODES.CP_OFFLINE: return 'offline';
    default: return 'error';
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * With METRICS_TOKEN set, only `Authorization: Bearer <token>` may read; without it, only a
 * caller on this machine. The TCP peer is what counts, not req.ip (with TRUST_PROXY set, that is the
 * forwarded client), and a request a local reverse proxy forwarded is not local.
 */
function access(req: FastifyRequest, token: string | undefined): 200 | 401 | 403 {
  if (token) {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    // Digests have one length, so the comparison takes the same time whatever was sent.
    return timingSafeEqual(digest(given), digest(token)) ? 200 : 401;
  }
  const local = LOOPBACK.has(req.socket.remoteAddress ?? '') && !req.headers['x-forwarded-for'] && !req.headers.forwarded;
  return local ? 200 : 403;
}

/**
 * Prometheus metrics of this node at GET /metrics. One registry per app (tests run several apps in
 * one process). Registered after the OCPP central system and load management. The hot paths only
 * bump numbers; the metrics read them when scraped.
 */
export function metrics(app: FastifyInstance): void {
  const registers = [new Registry()];
  const [register] = registers;
  collectDefaultMetrics({ register });

  const { central, commands } = app.ocpp;
  new Gauge({
    name: 'ev_chargers_connected',
    help: 'Chargers connected to this node',
    registers,
    collect() {
      this.set(central.connectionCount);
    },
  });

  new Counter({
    name: 'ev_ocpp_connections_refused_total',
    help: 'Charger connections refused at the upgrade on this node, by reason (unknown charger, wrong password, too many failed sign-ins …)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, n] of central.refusals) this.inc({ reason }, n);
    },
  });

  const received = new Map<string, number>();
  app.bus.on('chargerMessage', ({ action }) => received.set(action, (received.get(action) ?? 0) + 1));
  new Counter({
    name: 'ev_ocpp_messages_received_total',
    help: 'Charger-initiated OCPP messages handled (committed and answered) on this node, by action',
    labelNames: ['action'],
    registers,
    collect() {
      this.reset();
      for (const [action, n] of received) this.inc({ action }, n);
    },
  });

  new Gauge({
    name: 'ev_batch_writer_queued_rows',
    help: 'Rows waiting in the OCPP batch writer for their group commit',
    registers,
    collect() {
      this.set(central.writer.queued);
    },
  });
  const flushSeconds = new Histogram({
    name: 'ev_batch_writer_flush_seconds',
    help: 'Time one batch of the OCPP batch writer took to commit',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const flushedRows = new Counter({ name: 'ev_batch_writer_rows_total', help: 'Rows the OCPP batch writer committed', registers });
  central.writer.onFlush = (rows, seconds) => {
    flushSeconds.observe(seconds);
    flushedRows.inc(rows);
  };

  const commandSeconds = new Histogram({
    name: 'ev_ocpp_command_duration_seconds',
    help: 'Commands sent to chargers: wait for their turn plus the charger\'s answer, by action and outcome',
    labelNames: ['action', 'outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  commands.onOutcome = (action, outcome, ms) => commandSeconds.observe({ action, outcome: outcomeLabel(outcome) }, ms / 1000);

  new Counter({
    name: 'ev_lms_reallocations_total',
    help: 'Load-management reallocation runs finished on this node',
    registers,
    collect() {
      this.reset();
      this.inc(app.lms.reallocations);
    },
  });

  const httpSeconds = new Histogram({
    name: 'ev_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route's pattern, never the raw URL: one series per route, whatever ids or garbage are requested.
    const route = req.routeOptions.url ?? 'unmatched';
    httpSeconds.observe({ method: req.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
  });

  const refusal = (description: string) => z.object({ message: z.string() }).describe(description);
  app.get('/metrics', {
    schema: {
      response: {
        200: { description: 'The Prometheus text format', content: { [register.contentType]: { schema: z.string() } } },
        401: refusal('METRICS_TOKEN is set and the Bearer token is missing or wrong'),
        403: refusal('No METRICS_TOKEN is set and the caller is not on this machine'),
      },
    },
    config: {
      public: true,
      doc: {
        summary: 'Prometheus metrics: chargers, OCPP messages by action, batch writer, commands, LMS, HTTP latency by route',
        note: 'Served to this machine; from elsewhere only with Authorization: Bearer METRICS_TOKEN, when that is set (else 403).',
      },
    },
  }, async (req, reply) => {
    const allowed = access(req, app.config.metricsToken);
    if (allowed === 401) return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'A valid metrics token is required' });
    if (allowed === 403) return reply.status(403).send({ message: 'Metrics are served to this machine only unless METRICS_TOKEN is set' });
    return reply.header('content-type', register.contentType).send(await register.metrics());
  });
  app.addHook('onClose', async () => register.clear());
}
