import { randomUUID } from 'node:crypto';
import {
  editPrivilege, MASS_UPDATE_KEYS, MASS_UPDATE_NO_CONFIG, P, withConfigDefaults,
  type ConfigJson, type ConfigSendResult, type ConfigSetting, type MassUpdateProgress, type MassUpdateStatus,
} from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { redisInTime } from '../cluster/redis.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { checkChanges, isPending, parseConfigJson, SendResultAnswer, sendSettings, type ChargerRow } from './cp-config.ts';

/** Chargers sent to at the same time by one job. */
export const MASS_UPDATE_CONCURRENCY = 20;
/** A job's progress stays readable this long after it finishes. */
export const MASS_UPDATE_JOB_TTL_MS = 60 * 60_000;
/**
 * With several nodes (Redis), the node running a job copies its progress to Redis at most this
 * often, so that the portal's polls may reach any node. While the job runs the copy lives
 * RUNNING_COPY_TTL_MS past its last refresh: a node that dies mid-job leaves no progress that
 * looks alive for ever.
 */
const PROGRESS_COPY_MS = 500;
const RUNNING_COPY_TTL_MS = 5 * 60_000;
/** How long a poll waits for Redis before it answers 503. */
const REDIS_WAIT_MS = 1000;
const MAX_CP_IDS = 5000;

const body = z.object({
  cpIds: z.array(z.union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)])).min(1).max(MAX_CP_IDS),
  /** The chosen settings: name → value (or {Value}); an object or a JSON string holding one. */
  commonConfigJson: z.union([z.string().max(200_000), z.record(z.string(), z.unknown())]).nullish(),
}).strict();
const jobParams = z.strictObject({ jobId: z.string().max(100) });

/** With cpIds alone: success, or the §8 error listing the chargers without a current config; with commonConfigJson: the job. */
const StartAnswer = z.union([
  z.object({ status: z.literal('success'), jobId: z.string().optional().describe('With commonConfigJson: the job sending it') }),
  z.object({ status: z.literal('error'), message: z.string(), cpNos: z.array(z.string()).describe('The chargers without a current configuration') }),
]);
const ProgressAnswer = z.object({
  jobId: z.string(),
  total: z.number(),
  done: z.number(),
  finished: z.boolean(),
  results: z.array(z.object({
    cpId: z.number(),
    cpNo: z.string(),
    status: z.enum(['sent', 'offline', 'partial', 'rejected', 'failed']),
    keys: z.record(z.string(), SendResultAnswer).describe('Per setting, the charger\'s answer'),
  })),
}) satisfies z.ZodType<MassUpdateProgress>;

interface Job extends MassUpdateProgress {
  userId: number;
  expires?: NodeJS.Timeout;
  /** The next copy of its progress to Redis, when one is due. */
  copy?: NodeJS.Timeout;
}

/** What the portal is answered about a job (without the node's own bookkeeping). */
const progressOf = ({ jobId, total, done, finished, results }: Job): MassUpdateProgress => ({ jobId, total, done, finished, results });

interface Target extends ChargerRow {
  cp_no: string;
  cp_config_id: number | null;
  config_json: ConfigJson | null;
}

/** commonConfigJson as name → value, every name a §9 key and every value of its kind (else 400). */
function parseCommon(raw: string | Record<string, unknown>): Record<string, ConfigSetting['Value']> {
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw badRequest('commonConfigJson: invalid', { commonConfigJson: 'invalid' });
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('commonConfigJson: invalid', { commonConfigJson: 'invalid' });
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (!entries.length) throw badRequest('commonConfigJson: required', { commonConfigJson: 'required' });
  const out: Record<string, ConfigSetting['Value']> = {};
  const fields: Record<string, string> = {};
  for (const [name, given] of entries) {
    const kind = MASS_UPDATE_KEYS[name];
    const value = given && typeof given === 'object' && !Array.isArray(given) ? (given as { Value?: unknown }).Value : given;
    if (!kind) {
      fields[name] = 'unknown_field';
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      fields[name] = 'invalid';
      continue;
    }
    try {
      // The §9 kind and range: the same checks as a config's own settings.
      out[name] = parseConfigJson(JSON.stringify({ [name]: { ...kind, Value: value } }))[name].Value;
    } catch (err) {
      // Its reason (not_on_step) when it has one.
      fields[name] = (err instanceof HttpError && (err.body.fields as Record<string, string> | undefined)?.[name]) || 'invalid';
    }
  }
  if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
  return out;
}

/**
 * The charger's current config with the chosen values: a setting it has keeps its Type, Authority
 * and Option (the value must fit them); one it lacks is added as §9 defines it. Throws a 400 naming
 * the charger and the settings that do not fit or that the user may not change.
 */
function applyTo(user: AuthUser, cp: Target, values: Record<string, ConfigSetting['Value']>): ConfigJson {
  const stored = cp.config_json ?? {};
  const current = withConfigDefaults(stored);
  const next: ConfigJson = { ...stored };
  const changed: ConfigJson = {};
  for (const [name, value] of Object.entries(values)) {
    const existing = current[name];
    changed[name] = existing ? { ...existing, Value: value } : { ...MASS_UPDATE_KEYS[name], Option: [...MASS_UPDATE_KEYS[name].Option], Value: value };
  }
  try {
    Object.assign(next, parseConfigJson(JSON.stringify(changed)));
    checkChanges(user, stored, next);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const fields = (err.body.fields ?? {}) as Record<string, string>;
    const errors = ((err.body.errors ?? []) as string[]).map((e) => `${cp.cp_no} ${e}`);
    throw badRequest(errors, fields);
  }
  return next;
}

function statusOf(keys: Record<string, ConfigSendResult>): MassUpdateStatus {
  const r = Object.values(keys);
  if (r.every((x) => x === 'Accepted')) return 'sent';
  if (r.every((x) => x === 'Offline')) return 'offline';
  if (r.every((x) => x === 'Rejected' || x === 'NotSupported')) return 'rejected';
  return 'partial';
}

/**
 * Spec part 1 §2, §5, §7: POST /cp_locs/cp_mass_update. With cpIds alone it checks that every
 * selected charger has a current configuration (§8 error listing those that lack one). With
 * commonConfigJson too, it sets the chosen settings in every charger's current config (one
 * transaction, all or nothing) and answers at once with a jobId; the sending runs in the background,
 * MASS_UPDATE_CONCURRENCY chargers at a time, its progress at GET /cp_locs/cp_mass_update/{jobId}.
 */
export function massUpdateRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const jobs = new Map<string, Job>();
  app.addHook('onClose', async () => {
    for (const job of jobs.values()) {
      clearTimeout(job.expires);
      clearTimeout(job.copy);
    }
    jobs.clear();
  });

  const copyKey = (jobId: string) => `${app.redis!.prefix}mass-update:${jobId}`;
  /** Copies the job's progress to Redis now (when the nodes share it), for the polls other nodes answer. */
  const copyNow = async (job: Job) => {
    clearTimeout(job.copy);
    job.copy = undefined;
    if (!app.redis) return;
    const ttl = job.finished ? MASS_UPDATE_JOB_TTL_MS : RUNNING_COPY_TTL_MS;
    await app.redis.cmd.set(copyKey(job.jobId), JSON.stringify({ ...progressOf(job), userId: job.userId }), 'PX', ttl)
      .catch((err: Error) => app.log.warn({ err: err.message, jobId: job.jobId }, 'Mass update progress not copied to Redis'));
  };
  // Throttled: a job of thousands of chargers would otherwise copy its growing result list once per charger.
  const copySoon = (job: Job) => {
    if (app.redis && !job.copy) job.copy = setTimeout(() => void copyNow(job), PROGRESS_COPY_MS);
  };
  /** A job run by another node, from its copy in Redis (503 while Redis cannot be read). */
  const copied = async (jobId: string): Promise<Job | undefined> => {
    if (!app.redis) return undefined;
    let text: string | null;
    try {
      text = await redisInTime(app.redis, (cmd) => cmd.get(copyKey(jobId)), REDIS_WAIT_MS);
    } catch (err) {
      app.log.warn({ err: (err as Error).message, jobId }, 'Mass update progress not read from Redis');
      throw new HttpError(503, { message: 'The progress of this job cannot be read now; please try again in a few seconds', errorCode: 'cluster_unavailable' });
    }
    return text ? (JSON.parse(text) as Job) : undefined;
  };

  async function run(job: Job, targets: Target[], values: Record<string, ConfigSetting['Value']>): Promise<void> {
    const queue = [...targets];
    const settings = (cp: Target): ConfigJson => {
      const all = withConfigDefaults(cp.config_json ?? {});
      return Object.fromEntries(Object.keys(values).map((k) => [k, all[k]]));
    };
    const worker = async () => {
      for (let cp = queue.shift(); cp; cp = queue.shift()) {
        let keys: Record<string, ConfigSendResult> = {};
        let status: MassUpdateStatus;
        try {
          keys = await sendSettings(app, cp, settings(cp));
          status = statusOf(keys);
          await app.db.query(
            `UPDATE cp_config SET last_sent = COALESCE(last_sent, '{}'::jsonb) || $2::jsonb, sent_dttm = now(),
                    pending = CASE WHEN $3 THEN 1 ELSE 0 END
              WHERE cp_config_id = $1`,
            [cp.cp_config_id, JSON.stringify(keys), isPending(keys)],
          );
        } catch (err) {
          app.log.error({ err, cpId: cp.cp_id, jobId: job.jobId }, 'Mass update not sent to a charger');
          status = 'failed';
        }
        job.results.push({ cpId: cp.cp_id, cpNo: cp.cp_no, status, keys });
        job.done += 1;
        copySoon(job);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MASS_UPDATE_CONCURRENCY, targets.length) }, worker));
    job.finished = true;
    job.results.sort((a, b) => a.cpNo.localeCompare(b.cpNo, 'en'));
    app.log.info({ jobId: job.jobId, total: job.total, statuses: job.results.map((r) => r.status) }, 'Mass update sent');
    void copyNow(job);
    job.expires = setTimeout(() => jobs.delete(job.jobId), MASS_UPDATE_JOB_TTL_MS);
    job.expires.unref();
  }

  app.post('/api/cp_locs/cp_mass_update', { schema: { body, response: { 200: StartAnswer } }, config: { doc: { summary: 'Send common settings to many chargers (a job)', privileges: [P.CP_CONFIG, editPrivilege('cp_config')] } } }, async (req) => {
    const user = requirePrivileges(req, P.CP_CONFIG, editPrivilege('cp_config'));
    const { cpIds: given, commonConfigJson } = req.body;
    const cpIds = [...new Set(given)];
    const values = commonConfigJson == null ? null : parseCommon(commonConfigJson);

    const load = (sql: Sql) => sql.query<Target>(
      `SELECT c.cp_id, c.cp_no, c.loc_id, c.charge_point_vendor, k.cp_config_id, k.config_json
         FROM cps c LEFT JOIN cp_config k ON k.cp_id = c.cp_id AND k.current = 1
        WHERE c.cp_id = ANY($1::int[]) AND c.deleted_at IS NULL
        ORDER BY c.cp_no`,
      [cpIds],
    );
    const check = (targets: Target[]) => {
      const visible = targets.filter((t) => user.allSites || user.siteIds.includes(t.loc_id));
      // Outside the user's sites a charger does not exist for them: the whole request is refused.
      if (visible.length !== cpIds.length) throw notFound('Charging point not found');
      return targets.filter((t) => t.cp_config_id == null).map((t) => t.cp_no);
    };
    const lacking = { status: 'error', message: MASS_UPDATE_NO_CONFIG } as const;

    if (!values) {
      const cpNos = check(await load(app.db));
      return cpNos.length ? { ...lacking, cpNos } : { status: 'success' as const };
    }

    const outcome = await app.db.tx(async (sql: Sql) => {
      // The current configs are locked: a config edit of one of them waits for this update.
      await sql.query(`SELECT cp_config_id FROM cp_config WHERE cp_id = ANY($1::int[]) AND current = 1 ORDER BY cp_config_id FOR UPDATE`, [cpIds]);
      const targets = await load(sql);
      const cpNos = check(targets);
      if (cpNos.length) return { cpNos };
      const next = targets.map((t) => applyTo(user, t, values));
      await sql.query(
        `UPDATE cp_config c SET config_json = v.j::jsonb, pending = 1, update_time = now()
           FROM unnest($1::int[], $2::text[]) AS v(id, j) WHERE c.cp_config_id = v.id`,
        [targets.map((t) => t.cp_config_id), next.map((j) => JSON.stringify(j))],
      );
      await writeAudit(sql, user, {
        action: 'UPDATE', target: 'cp_config', remark: 'mass update',
        newData: { cpIds: targets.map((t) => t.cp_id), commonConfigJson: values },
      });
      return { targets: targets.map((t, i) => ({ ...t, config_json: next[i] })) };
    });
    if (outcome.cpNos) return { ...lacking, cpNos: outcome.cpNos };

    const targets = outcome.targets!;
    const job: Job = { jobId: randomUUID(), userId: user.id, total: targets.length, done: 0, finished: false, results: [] };
    jobs.set(job.jobId, job);
    void copyNow(job);
    req.log.info({ jobId: job.jobId, cpIds: targets.map((t) => t.cp_id), keys: Object.keys(values), user: user.username }, 'Mass update saved');
    run(job, targets, values).catch((err) => app.log.error({ err, jobId: job.jobId }, 'Mass update job failed'));
    return { status: 'success' as const, jobId: job.jobId };
  });

  app.get('/api/cp_locs/cp_mass_update/:jobId', { schema: { params: jobParams, response: { 200: ProgressAnswer } }, config: { doc: { summary: 'The progress of a mass update job', privileges: [P.CP_CONFIG, editPrivilege('cp_config')] } } }, async (req): Promise<MassUpdateProgress> => {
    const user = requirePrivileges(req, P.CP_CONFIG, editPrivilege('cp_config'));
    const { jobId } = req.params;
    const job = jobs.get(jobId) ?? (await copied(jobId));
    // Another user's job is not theirs to see.
    if (!job || job.userId !== user.id) throw notFound('Mass update job not found');
    return progressOf(job);
  });
}
