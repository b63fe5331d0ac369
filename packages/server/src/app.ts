import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import type { Config } from './config.ts';
import { trustFunction } from './http/client-address.ts';
import type { Database } from './db/client.ts';
import { authRoutes } from './auth/routes.ts';
import { resolveToken } from './auth/session.ts';
import { securityHeaders } from './http/security.ts';
import { compression } from './http/compression.ts';
import { portalStatic } from './http/portal-static.ts';
import { forbidden, HttpError, unauthorized } from './http/errors.ts';
import { requirePrivileges } from './auth/guard.ts';
import { noQueryByDefault, zodValidator } from './http/schema.ts';
import { resourceRoutes } from './resources/routes.ts';
import { lmsProfileRoutes } from './lms/profiles.ts';
import { priceSchemeRoutes } from './pricing/price-scheme.ts';
import { voucherRoutes } from './vouchers/routes.ts';
import { parkingRoutes } from './parking/lp.ts';
import { paymentRoutes } from './payments/routes.ts';
import { closeSessionRoute } from './ocpp/unconfirmed.ts';
import { chargingRateRoutes } from './pricing/charging-rate.ts';
import { ocppServer } from './ocpp/setup.ts';
import { loadManagement } from './lms/setup.ts';
import { alerting } from './alerts/setup.ts';
import { Bus } from './bus/index.ts';
import { openRedis, type RedisLink } from './cluster/redis.ts';
import { isDatabaseUnavailable } from './db/faults.ts';
import { DATABASE_UNAVAILABLE, healthRoutes } from './http/health.ts';
import { openApi } from './http/openapi.ts';
import { dashboardRoutes } from './dashboards/routes.ts';
import { deviceModelRoutes } from './device-model/routes.ts';
import { openingHours } from './opening-hours/setup.ts';
import { thirdPartyRoutes } from './third-party/index.ts';
import { housekeeping } from './housekeeping/index.ts';
import { remoteStartRequests } from './rsr/setup.ts';
import { cluster } from './cluster/setup.ts';
import { metrics } from './http/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
    bus: Bus;
    /** The link to Redis when REDIS_URL is set (several nodes), else undefined: one node on its own. */
    redis: RedisLink | undefined;
  }
  interface FastifyContextConfig {
    /** The route needs no signed-in user. */
    public?: boolean;
    /** The route is the external API: apps sign calls with X-App-Id / X-Api-Key (third-party/), not a portal token. */
    externalApp?: boolean;
  }
}

export async function buildApp(config: Config, db: Database): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    // req.ip (sign-in limits, logs) is the TCP peer unless TRUST_PROXY names the proxies in front.
    trustProxy: trustFunction(config.trustProxy),
    // Repeated query parameters (multiselect filters, opts) arrive as arrays.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('bus', new Bus());
  const redis = config.redisUrl ? openRedis(config.redisUrl, config.redisPrefix, app.log) : undefined;
  app.decorate('redis', redis);
  // Last of all the close hooks (registered first): the others may still publish on the way out.
  if (redis) app.addHook('onClose', () => redis.close());
  db.onConnectionLost = (err) => app.log.warn({ err: err.message }, 'database connection lost; the pool opens a new one when needed');

  await securityHeaders(app, config.corsOrigins);
  await compression(app);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.routeOptions.config?.public || req.routeOptions.config?.externalApp) return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const user = token ? await resolveToken(db, token, config.tokenTtlHours) : null;
    if (!user) throw unauthorized();
    req.user = user;
  });
  // The privileges a route declares (config.doc, the same ones its document names) are checked before its input is read:
  // a caller without them is answered 403, whatever they sent.
  app.addHook('preValidation', async (req) => {
    const doc = req.routeOptions.config?.doc;
    if (!req.user || !doc) return;
    if (doc.privileges?.length) requirePrivileges(req, ...doc.privileges);
    if (doc.anyPrivilege && !doc.anyPrivilege.some((p) => req.user!.privileges.has(p))) throw forbidden(doc.anyPrivilege[0]);
  });
  // Route schemas are zod (http/schema.ts): validated by zod into the project's 400; answers are written as they are
  // (their schemas document them, and http/api-answers.test.ts checks real answers against them).
  app.setValidatorCompiler(zodValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRoute', noQueryByDefault);

  app.setErrorHandler((err: any, req, reply) => {
    if (err instanceof HttpError) return reply.status(err.statusCode).send(err.body);
    // A PostgreSQL data exception (class 22) is a value the checks before it let through: the client's
    // input, answered as such rather than as a server fault. It is still logged, as a gap to close.
    if (typeof err.code === 'string' && /^22[0-9A-Z]{3}$/.test(err.code)) {
      req.log.warn({ err }, 'database refused a value');
      return reply.status(400).send({ errors: ['A value has the wrong form'], fields: {} });
    }
    if (isDatabaseUnavailable(err)) {
      // Unreachable, restarting or locked: nothing the client did, and worth trying again shortly.
      req.log.warn({ err: err.message, code: err.code }, 'request failed: database unavailable');
      return reply.status(503).header('retry-after', '5').send(DATABASE_UNAVAILABLE);
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, too large, wrong content type.
      return reply.status(status).send({ errors: [err.message], fields: {}, code: err.code });
    }
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ message: 'Server error, please try again later' });
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return reply.status(404).send({ message: 'This page does not exist' });
    if (req.url.startsWith(config.portalPath) && existsSync(config.portalDir)) return reply.sendFile('index.html');
    // The portal's home without its trailing slash (/portal): where the router leaves the address bar after sign-in.
    const path = req.url.split('?')[0];
    if (config.portalPath !== '/' && path === config.portalPath.slice(0, -1)) return reply.redirect(config.portalPath + req.url.slice(path.length));
    return reply.status(404).send({ message: 'This page does not exist' });
  });

  // First: it collects the routes registered after it.
  await openApi(app);
  healthRoutes(app);
  authRoutes(app);
  thirdPartyRoutes(app);
  resourceRoutes(app);
  lmsProfileRoutes(app);
  priceSchemeRoutes(app);
  await app.register(voucherRoutes);
  parkingRoutes(app);
  paymentRoutes(app);
  closeSessionRoute(app);
  chargingRateRoutes(app);
  ocppServer(app);
  deviceModelRoutes(app);
  alerting(app);
  loadManagement(app);
  cluster(app);
  remoteStartRequests(app);
  dashboardRoutes(app);
  openingHours(app);
  housekeeping(app);
  metrics(app);

  if (existsSync(config.portalDir)) {
    // wildcard: files of a newer build are served without a restart; unknown paths fall back to index.html above.
    await portalStatic(app, config.portalDir, config.portalPath);
    if (config.portalPath !== '/') app.get('/', (_req, reply) => reply.redirect(config.portalPath));
  }
  return app;
}
