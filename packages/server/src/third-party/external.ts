import { EXTERNAL_ACTIONS, EXTERNAL_PRIVILEGES, ERROR_CODES, storedText, type ExternalAction, type ExternalPrivilege } from '@ev/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FailureLimiter } from '../auth/rate-limit.ts';
import { verifyPassword } from '../crypto/passwords.ts';
import { HttpError } from '../http/errors.ts';
import { ActionAnswer, remoteStart, remoteStop, startMinutes, type ChargerRow, type CommandActor } from '../ocpp/routes.ts';
import { logBadParkingEvent, ParkingAnswerSchema, ParkingEventBody, recordParkingEvent } from '../parking/events.ts';
import { licencePlateAnswer, LpAnswerSchema, lpQuery } from '../parking/lp.ts';
import { codeReason, logExternalFailure, type ExternalFailure } from './error-log.ts';

/** Calls one app may make in a minute; past it a 429 with Retry-After. */
export const EXTERNAL_CALLS_PER_MINUTE = 60;
export const EXTERNAL_PREFIX = '/api/external/v1';

interface ExternalApp {
  appId: string;
  privilege: ExternalPrivilege;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the external API's preValidation hook: the app whose X-App-Id / X-Api-Key were accepted. */
    externalApp?: ExternalApp;
  }
}

const int = (min: number) =>
  z.union([z.number().int(), z.string().regex(/^\d{1,10}$/).transform(Number)]).pipe(z.number().int().min(min).max(2 ** 31 - 1));
const text = z.union([z.string().max(100), z.number()]).nullish();
const cpParams = z.strictObject({ cpNo: z.string().min(1).max(100) });
/** Who the call is for, as the mall or parking app knows them: kept in the error log. */
const caller = { memberId: text, mallId: text, carparkId: text, remark: z.string().max(500).nullish() };
const startBody = z.object({ connectorId: int(1), minutes: int(0).nullish(), startCode: text, lp: text, entryTime: text, bayId: text, ...caller }).strict();
const stopBody = z.object({ connectorId: int(1), ...caller }).strict();

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};
const errorBody = (errorCode: string, message: string) => ({ status: 'error', errorCode, message });

/**
 * The API of the mall and parking apps (docs/external-api.md): not portal users, they sign each call with the
 * X-App-Id and X-Api-Key of their third_party_conf and may use only what its privilege_key allows.
 * Chargers are named by cp_no. Every refusal is kept in third_party_error_log; commands are audited
 * with the app as the actor.
 */
export function externalRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limiter = new FailureLimiter(EXTERNAL_CALLS_PER_MINUTE, 60_000);

  /** What the log says about the call, from whatever the caller sent (valid or not). */
  function describe(req: FastifyRequest, action: ExternalAction): Omit<ExternalFailure, 'errorCode' | 'reason'> {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const connector = Number(body.connectorId ?? query.connectorId);
    return {
      appId: header(req, 'x-app-id'),
      action,
      chargerId: (req.params as { cpNo?: string }).cpNo,
      connectorId: Number.isInteger(connector) ? connector : null,
      memberId: body.memberId as string | undefined,
      mallId: body.mallId as string | undefined,
      carparkId: body.carparkId as string | undefined,
    };
  }

  /** `reason` answers the app (English, as the API speaks); `logged` is the stored text the error log shows in the reader's language. */
  async function refuse(req: FastifyRequest, action: ExternalAction, status: number, errorCode: string, reason: string, logged: string): Promise<never> {
    await logExternalFailure(app.db, { ...describe(req, action), errorCode, reason: logged });
    throw new HttpError(status, errorBody(errorCode, reason));
  }

  /** The app authentication of each external route (the portal's token hook skips them: externalApp). */
  const authenticate = (action: ExternalAction) => async (req: FastifyRequest, reply: FastifyReply) => {
    const appId = header(req, 'x-app-id');
    const apiKey = header(req, 'x-api-key');
    // Counted before the key is checked: a guessing client is slowed as much as a busy one.
    const bucket = `app:${appId ?? ''}`;
    if (limiter.blocked(bucket)) {
      reply.header('retry-after', '60');
      throw new HttpError(429, errorBody('rate_limited', `More than ${EXTERNAL_CALLS_PER_MINUTE} calls a minute`));
    }
    limiter.fail(bucket);
    if (!appId || !apiKey || appId.length > 100 || apiKey.length > 200) return refuse(req, action, 401, 'invalid_credentials', 'Missing or invalid X-App-Id / X-Api-Key', storedText('msg.log.external.missingCredentials'));
    const [conf] = await app.db.query<{ app_id: string; privilege_key: string; api_key_hash: string | null }>(
      `SELECT app_id, privilege_key, api_key_hash FROM third_party_conf WHERE app_id = $1 AND deleted_at IS NULL`,
      [appId],
    );
    if (!conf || !(await verifyPassword(apiKey, conf.api_key_hash))) {
      const noSecret = conf && !conf.api_key_hash;
      const reason = noSecret ? 'The app has no secret (removed)' : 'Unknown app or wrong API key';
      return refuse(req, action, 401, 'invalid_credentials', reason, storedText(noSecret ? 'msg.log.external.noSecret' : 'msg.log.external.wrongKey'));
    }
    const privilege = conf.privilege_key as ExternalPrivilege;
    if (!(EXTERNAL_PRIVILEGES as readonly string[]).includes(privilege) || !EXTERNAL_ACTIONS[privilege].includes(action)) {
      return refuse(req, action, 403, 'not_permitted', `Privilege ${conf.privilege_key} does not allow ${action}`,
        storedText('msg.log.external.notAllowed', { privilege: conf.privilege_key, action }));
    }
    req.externalApp = { appId, privilege };
  };

  /**
   * The options of every external route. The app is authenticated in preValidation, so an unsigned or
   * refused call is answered 401/403 before its input is validated. Every later refusal is kept in the
   * error log: the input's 400 (the route's schemas, before the handler) and what the handler throws
   * in onError (authenticate logs its own refusals), a refusal answered 200 ({status: 'error',
   * errorCode}) in preSerialization. `badInput` keeps a refused input elsewhere too.
   */
  const external = (action: ExternalAction, badInput?: (req: FastifyRequest, err: HttpError) => Promise<void>) => ({
    config: { externalApp: true, doc: { summary: `External API: ${action.replace('_', ' ')}`, externalAction: action } },
    preValidation: authenticate(action),
    onError: async (req: FastifyRequest, _reply: FastifyReply, err: FastifyError) => {
      if (!req.externalApp || !(err instanceof HttpError)) return;
      const invalid = (err as { validationContext?: string }).validationContext !== undefined;
      if (invalid && badInput) await badInput(req, err);
      const reason = Array.isArray(err.body.errors)
        ? storedText('msg.log.external.badInput', { errors: (err.body.errors as string[]).join('; ') })
        : storedText('msg.log.external.refused', { status: err.statusCode, message: err.message });
      await logExternalFailure(app.db, { ...describe(req, action), errorCode: err.statusCode, reason });
    },
    preSerialization: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const refused = payload as { status?: unknown; errorCode?: number | string; message?: string } | null;
      if (reply.statusCode === 200 && refused?.status === 'error') {
        await logExternalFailure(app.db, { ...describe(req, action), errorCode: refused.errorCode ?? 'error', reason: codeReason(refused.errorCode, refused.message, req.body) });
      }
      return payload;
    },
  });

  /** The charger named by its number; null when there is none (answered 10001 like the portal). */
  async function chargerByNo(cpNo: string): Promise<ChargerRow | null> {
    const [cp] = await app.db.query<ChargerRow>(
      `SELECT cp_id, cp_no, loc_id, enable_flag, double_use_flag FROM cps WHERE cp_no = $1 AND deleted_at IS NULL`,
      [cpNo],
    );
    return cp ?? null;
  }

  const actor = (req: FastifyRequest): CommandActor => ({ id: null, username: `app:${req.externalApp!.appId}` });
  const notFound = { status: 'error' as const, errorCode: ERROR_CODES.CP_NOT_FOUND };

  app.post(`${EXTERNAL_PREFIX}/chargers/:cpNo/start`, {
    schema: { params: cpParams, body: startBody, response: { 200: ActionAnswer } },
    ...external('remote_start'),
  }, async (req) => {
    const body = req.body;
    const minutes = startMinutes(body.minutes);
    if (minutes === null) return { status: 'error' as const, errorCode: ERROR_CODES.INVALID_DURATION };
    const cp = await chargerByNo(req.params.cpNo);
    if (!cp) return notFound;
    // On a charger with a charging rate these make it an RSR (rsr/start.ts), the call kept in cp_rsr_api_log.
    const rsr = { lp: body.lp, entryTime: body.entryTime, bayId: body.bayId, mallId: body.mallId, carparkId: body.carparkId, api: { url: req.url, body: req.body } };
    return remoteStart(app, req.log, actor(req), cp, { connectorId: body.connectorId, minutes, memberId: body.memberId, startCode: body.startCode, remark: body.remark, ...rsr });
  });

  app.post(`${EXTERNAL_PREFIX}/chargers/:cpNo/stop`, {
    schema: { params: cpParams, body: stopBody, response: { 200: ActionAnswer } },
    ...external('remote_stop'),
  }, async (req) => {
    const cp = await chargerByNo(req.params.cpNo);
    if (!cp) return notFound;
    return remoteStop(app, req.log, actor(req), cp, req.body.connectorId, req.body.remark);
  });

  // The plate of the connector's bay, the same answer as the portal's getLp (parking/lp.ts).
  app.get(`${EXTERNAL_PREFIX}/chargers/:cpNo/lp`, {
    schema: { params: cpParams, querystring: lpQuery, response: { 200: LpAnswerSchema } },
    ...external('get_lp'),
  }, async (req) => {
    const cp = await chargerByNo(req.params.cpNo);
    if (!cp) return notFound;
    return licencePlateAnswer(app.db, cp.cp_id, req.query.connectorId, app.config.timeZone);
  });

  // The parking system's car in / car out (parking/events.ts): the bay updated and bay_log written, bad input too.
  app.post(`${EXTERNAL_PREFIX}/parking/events`, {
    schema: { body: ParkingEventBody, response: { 200: ParkingAnswerSchema } },
    ...external('parking_event', (req, err) => logBadParkingEvent(app.db, req.body, err)),
  }, async (req) => recordParkingEvent(app.db, `app:${req.externalApp!.appId}`, req.body));
}
