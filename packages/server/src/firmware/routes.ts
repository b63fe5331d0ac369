import {
  createPrivilege, editPrivilege, FIRMWARE_JOB_STATES, FIRMWARE_TARGET_KINDS, readPrivilege, type FirmwareJobState,
} from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { idParams, recordId } from '../http/schema.ts';
import { commandableCharger } from '../ocpp/routes.ts';
import { writeAudit } from '../resources/audit.ts';
import { chargerFirmware, ChargerFirmwareAnswer } from './charger.ts';
import { endJob, FirmwareRunner } from './runner.ts';

const CREATE = createPrivilege('firmware_jobs');
const STOP = editPrivilege('firmware_jobs');
const READ = readPrivilege('firmware_jobs');
const MAX_TARGETS = 5000;

const startBody = z.strictObject({
  firmwareId: recordId,
  targetKind: z.enum(FIRMWARE_TARGET_KINDS).describe('What targetIds are: sites, zones or chargers'),
  targetIds: z.array(recordId).min(1).max(MAX_TARGETS),
  retrieveDate: z.iso.datetime({ offset: true }).optional().describe('When the chargers download the image; now when absent or past'),
  retries: z.number().int().min(0).max(100).optional(),
  retryInterval: z.number().int().min(0).max(86_400).optional().describe('Seconds between the charger\'s download attempts'),
  maxFailurePct: z.number().int().min(0).max(100).default(100).describe('The job stops sending once this share (%) of its chargers failed; 100 never stops'),
  waveSize: z.number().int().min(1).max(100).default(5).describe('Chargers updating at the same time'),
});
const StartAnswer = z.object({ status: z.literal('success'), jobId: z.number(), total: z.number() });
const State = z.enum(FIRMWARE_JOB_STATES);
const ProgressAnswer = z.object({
  jobId: z.number(),
  status: z.enum(['Running', 'Finished', 'Stopped']),
  stopReason: z.string().nullable(),
  version: z.string(),
  total: z.number(),
  counts: z.record(State, z.number()).describe('Chargers per state (every state, 0 included)'),
  chargers: z.array(z.object({
    cpId: z.number(),
    cpNo: z.string(),
    state: State,
    stateAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    reportedVersion: z.string().nullable().describe('The firmwareVersion of its first BootNotification after the send'),
    history: z.array(z.object({ state: State, at: z.string() })),
  })),
});

interface Target {
  cp_id: number;
  cp_no: string;
  loc_id: number;
  charge_point_vendor: string | null;
  charge_point_model: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const same = (want: string | null, have: string | null) => !want?.trim() || have == null || want.trim().toLowerCase() === have.trim().toLowerCase();

/** The chargers a job targets that the user may see, each with whether the image fits it. */
async function targetsOf(app: FastifyInstance, user: AuthUser, kind: (typeof FIRMWARE_TARGET_KINDS)[number], ids: number[]): Promise<Target[]> {
  const column = kind === 'site' ? 'loc_id' : kind === 'zone' ? 'zone_id' : 'cp_id';
  const rows = await app.db.query<Target>(
    `SELECT cp_id, cp_no, loc_id, charge_point_vendor, charge_point_model FROM cps
      WHERE ${column} = ANY($1::int[]) AND deleted_at IS NULL ORDER BY cp_no`,
    [ids],
  );
  const visible = rows.filter((t) => user.allSites || user.siteIds.includes(t.loc_id));
  // Chargers (or a site) outside the user's sites do not exist for them: the request is refused whole.
  if (kind === 'chargers' && visible.length !== new Set(ids).size) throw notFound('Charging point not found');
  if (kind === 'site' && !user.allSites && ids.some((id) => !user.siteIds.includes(id))) throw notFound('Site not found');
  return visible;
}

/**
 * Firmware update jobs (issue 29): start one (CREATE_FIRMWARE_JOBS), follow its progress (READ_), stop it
 * (EDIT_), and a charger's firmware (installed version, last statuses, update history). The runner
 * (runner.ts) does the sending; firmware/status.ts takes the chargers' answers.
 */
export function firmwareRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const runner = new FirmwareRunner(app);
  app.addHook('onReady', async () => runner.start());
  app.addHook('preClose', async () => runner.stop());
  // A charger's firmware message or boot may free a place in its job's wave: look at once.
  app.bus.on('chargerMessage', ({ action }) => {
    if (action === 'FirmwareStatusNotification' || action === 'BootNotification') runner.kick();
  });

  app.post('/api/firmware_jobs/start', {
    schema: { body: startBody, response: { 200: StartAnswer } },
    config: { doc: { summary: 'Start a firmware update job (UpdateFirmware in waves to a site, a zone or chosen chargers)', privileges: [CREATE], note: 'Chargers whose reported vendor or model differs from the image\'s are left out of a site or zone; naming one is a 400 (targetIds: not_fitting).' } },
  }, async (req) => {
    const user = requirePrivileges(req, CREATE);
    const b = req.body;
    const [image] = await app.db.query<{ version: string; charge_point_vendor: string | null; charge_point_model: string | null }>(
      `SELECT version, charge_point_vendor, charge_point_model FROM firmware WHERE firmware_id = $1 AND deleted_at IS NULL`,
      [b.firmwareId],
    );
    if (!image) throw badRequest('firmwareId: not_found', { firmwareId: 'not_found' });
    const all = await targetsOf(app, user, b.targetKind, b.targetIds);
    const fits = (t: Target) => same(image.charge_point_vendor, t.charge_point_vendor) && same(image.charge_point_model, t.charge_point_model);
    const unfit = all.filter((t) => !fits(t));
    if (b.targetKind === 'chargers' && unfit.length) {
      throw badRequest(unfit.map((t) => `${t.cp_no}: the image is for ${image.charge_point_vendor ?? ''} ${image.charge_point_model ?? ''}`.trim()), { targetIds: 'not_fitting' });
    }
    const targets = all.filter(fits);
    if (!targets.length) throw badRequest('targetIds: no_chargers', { targetIds: 'no_chargers' });
    const jobId = await app.db.tx(async (sql) => {
      const [job] = await sql.query<{ firmware_job_id: number }>(
        `INSERT INTO firmware_jobs (firmware_id, target_kind, target_ids, retrieve_date, retries, retry_interval, max_failure_pct, wave_size, total, created_by, created_by_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING firmware_job_id`,
        [b.firmwareId, b.targetKind, [...new Set(b.targetIds)], b.retrieveDate ?? new Date().toISOString(), b.retries ?? null, b.retryInterval ?? null,
          b.maxFailurePct, b.waveSize, targets.length, user.id, user.username],
      );
      await sql.query(
        `INSERT INTO firmware_job_chargers (firmware_job_id, cp_id, cp_no, history)
         SELECT $1, t.cp_id, t.cp_no, jsonb_build_array(jsonb_build_object('state', 'Queued', 'at', now())) FROM unnest($2::int[], $3::text[]) AS t(cp_id, cp_no)`,
        [job.firmware_job_id, targets.map((t) => t.cp_id), targets.map((t) => t.cp_no)],
      );
      await writeAudit(sql, user, { action: 'CREATE', target: 'firmware_jobs', targetId: job.firmware_job_id, newData: { ...b, cpIds: targets.map((t) => t.cp_id) } });
      return job.firmware_job_id;
    });
    req.log.info({ jobId, total: targets.length, user: user.username }, 'Firmware job started');
    runner.kick();
    return { status: 'success' as const, jobId, total: targets.length };
  });

  app.get('/api/firmware_jobs/:id/progress', {
    schema: { params: idParams, response: { 200: ProgressAnswer } },
    config: { doc: { summary: 'A firmware job\'s progress: chargers per state, and each charger\'s state', privileges: [READ] } },
  }, async (req) => {
    const user = requirePrivileges(req, READ);
    const [job] = await app.db.query<{ status: 'Running'; stop_reason: string | null; version: string; total: number }>(
      `SELECT j.status, j.stop_reason, f.version, j.total FROM firmware_jobs j JOIN firmware f USING (firmware_id) WHERE j.firmware_job_id = $1`,
      [req.params.id],
    );
    if (!job) throw notFound('Firmware job not found');
    const rows = await app.db.query<{ cp_id: number; cp_no: string; loc_id: number; state: FirmwareJobState; state_at: Date; sent_at: Date | null; reported_version: string | null; history: { state: FirmwareJobState; at: string }[] }>(
      `SELECT j.cp_id, j.cp_no, c.loc_id, j.state, j.state_at, j.sent_at, j.reported_version, j.history
         FROM firmware_job_chargers j JOIN cps c USING (cp_id) WHERE j.firmware_job_id = $1 ORDER BY j.cp_no`,
      [req.params.id],
    );
    const counts = Object.fromEntries(FIRMWARE_JOB_STATES.map((s) => [s, 0])) as Record<FirmwareJobState, number>;
    for (const r of rows) counts[r.state] += 1;
    // Counts are the whole job's; only chargers of the user's sites are listed.
    const chargers = rows.filter((r) => user.allSites || user.siteIds.includes(r.loc_id)).map((r) => ({
      cpId: r.cp_id, cpNo: r.cp_no, state: r.state, stateAt: iso(r.state_at), sentAt: r.sent_at && iso(r.sent_at), reportedVersion: r.reported_version, history: r.history,
    }));
    return { jobId: req.params.id, status: job.status, stopReason: job.stop_reason, version: job.version, total: job.total, counts, chargers };
  });

  app.post('/api/firmware_jobs/:id/stop', {
    schema: { params: idParams, response: { 200: z.object({ status: z.literal('success') }) } },
    config: { doc: { summary: 'Stop a running firmware job: chargers not yet sent to are not sent to', privileges: [STOP], note: 'Chargers already sent UpdateFirmware go on updating (OCPP 1.6 cannot cancel it). A job that is not running is a 400 (status: not_running).' } },
  }, async (req) => {
    const user = requirePrivileges(req, STOP);
    const id = req.params.id;
    const done = await app.db.tx(async (sql) => {
      const [job] = await sql.query<{ status: string }>(`SELECT status FROM firmware_jobs WHERE firmware_job_id = $1 FOR UPDATE`, [id]);
      if (!job) throw notFound('Firmware job not found');
      if (!(await endJob(sql, id, 'Stopped', 'user'))) return false;
      await writeAudit(sql, user, { action: 'UPDATE', target: 'firmware_jobs', targetId: id, oldData: { status: job.status }, newData: { status: 'Stopped' } });
      return true;
    });
    if (!done) throw badRequest('status: not_running', { status: 'not_running' });
    return { status: 'success' as const };
  });

  app.get('/api/cps/:id/firmware', {
    schema: { params: idParams, response: { 200: ChargerFirmwareAnswer } },
    config: { doc: { summary: 'A charger\'s firmware: installed version, last firmware and diagnostics status, update history', privileges: [readPrivilege('cps')] } },
  }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('cps'));
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) throw notFound('Charging point not found');
    return chargerFirmware(app.db, cp.cp_id);
  });
}
