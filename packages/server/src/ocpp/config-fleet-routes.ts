import { randomUUID } from 'node:crypto';
import { ERROR_CODES, P, readPrivilege } from '@ev/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { idParams } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import { FleetAnswer, siteChargers, siteDrift, visibleSite, type SiteCharger } from './config-fleet.ts';
import { readConfiguration } from './config-readback-routes.ts';

/** Chargers of one site read at the same time: a site's uplink is often one modem. */
export const FLEET_READ_CONCURRENCY = 4;
/** A finished read's progress stays readable this long. */
export const FLEET_READ_TTL_MS = 60 * 60_000;

const FLEET_PRIVILEGES = [P.GET_CONFIGURATION, readPrivilege('cp_locs')];

const ReadResult = z.object({
  cpId: z.number(),
  cpNo: z.string(),
  status: z.enum(['waiting', 'reading', 'read', 'failed', 'offline']).describe('offline: not connected, not sent'),
  errorCode: z.number().optional().describe('Why it failed: the remote-action error code (10030 offline, 10031 no answer …)'),
  message: z.string().optional(),
  drift: z.number().optional().describe('After a read: how many keys differ from the configuration'),
});
const ReadProgress = z.object({
  readId: z.string(),
  locId: z.number(),
  total: z.number(),
  done: z.number().describe('Chargers finished, whatever the outcome'),
  read: z.number(),
  failed: z.number(),
  offline: z.number(),
  running: z.boolean(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  results: z.array(ReadResult),
});
type Progress = z.infer<typeof ReadProgress>;
type Result = Progress['results'][number];

interface Job extends Progress {
  finishedWork?: Promise<void>;
  expires?: NodeJS.Timeout;
}

const progressOf = ({ finishedWork: _, expires: __, ...progress }: Job): Progress => ({ ...progress, results: progress.results.map((r) => ({ ...r })) });

/**
 * The configuration fleet view (issue 29): a site's drift from its chargers' last reads, and a read
 * of all its connected chargers on demand. Each charger is read by readConfiguration, the path of the
 * per-charger POST: its GetConfiguration is in cp_requests and the action log. A read's progress is
 * kept in this node's memory (one read per site at a time): a poll that reaches another node finds none.
 */
export function configFleetRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** The site's latest read, by loc_id. */
  const reads = new Map<number, Job>();
  // After the chargers' sockets close (ocpp preClose runs first): the reads left end at once.
  app.addHook('preClose', async () => {
    await Promise.all([...reads.values()].map((j) => j.finishedWork));
    for (const job of reads.values()) clearTimeout(job.expires);
    reads.clear();
  });

  const connected = (cpId: number) => !!app.ocpp.central.connection(cpId);

  async function run(job: Job, targets: SiteCharger[], actor: AuthUser, log: FastifyBaseLogger): Promise<void> {
    const queue = targets.map((cp, i) => ({ cp, result: job.results[i]! })).filter(({ result }) => result.status === 'waiting');
    const finish = (result: Result, outcome: Partial<Result> & Pick<Result, 'status'>) => {
      Object.assign(result, outcome);
      job.done += 1;
      if (outcome.status === 'read') job.read += 1;
      else job.failed += 1;
    };
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { cp, result } = next;
        result.status = 'reading';
        try {
          const answer = await readConfiguration(app, log, actor, cp);
          if ('configurationKey' in answer) finish(result, { status: 'read', drift: answer.drift.length });
          else finish(result, { status: 'failed', errorCode: answer.errorCode, ...(answer.message ? { message: answer.message } : {}) });
        } catch (err) {
          log.error({ err, cpId: cp.cp_id, readId: job.readId }, 'Configuration not read from a charger of the site');
          finish(result, { status: 'failed', message: (err as Error).message });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FLEET_READ_CONCURRENCY, queue.length) }, worker));
    job.running = false;
    job.finishedAt = new Date().toISOString();
    log.info({ readId: job.readId, locId: job.locId, read: job.read, failed: job.failed, offline: job.offline }, 'Site configuration read');
    job.expires = setTimeout(() => {
      if (reads.get(job.locId) === job) reads.delete(job.locId);
    }, FLEET_READ_TTL_MS);
    job.expires.unref();
  }

  app.get('/api/cp_locs/:id/configDrift', {
    schema: { params: idParams, response: { 200: FleetAnswer } },
    config: { doc: { summary: 'A site\'s chargers and which configuration keys differ from their configuration (last reads)', privileges: FLEET_PRIVILEGES } },
  }, async (req) => {
    const user = requirePrivileges(req, ...FLEET_PRIVILEGES);
    const site = await visibleSite(app.db, user, req.params.id);
    return siteDrift(app.db, site, connected);
  });

  app.post('/api/cp_locs/:id/configDrift/read', {
    schema: { params: idParams, response: { 200: ReadProgress } },
    config: {
      doc: {
        summary: 'Read all of a site\'s connected chargers (GetConfiguration), a few at a time',
        privileges: FLEET_PRIVILEGES,
        note: 'Answers at once with the read\'s progress (readId); a read of the site already running is answered instead of a new one. '
          + 'Chargers not connected are reported offline and not sent to. The progress lives in the memory of the node that runs the read.',
      },
    },
  }, async (req) => {
    const user = requirePrivileges(req, ...FLEET_PRIVILEGES);
    const site = await visibleSite(app.db, user, req.params.id);
    const running = reads.get(site.loc_id);
    if (running?.running) return progressOf(running);
    clearTimeout(running?.expires);

    const targets = await siteChargers(app.db, site.loc_id);
    const online = (cp: SiteCharger) => cp.online_flag === 1 || connected(cp.cp_id);
    const results: Result[] = targets.map((cp) => online(cp)
      ? { cpId: cp.cp_id, cpNo: cp.cp_no, status: 'waiting' }
      : { cpId: cp.cp_id, cpNo: cp.cp_no, status: 'offline', errorCode: ERROR_CODES.CP_OFFLINE });
    const offline = results.filter((r) => r.status === 'offline').length;
    const job: Job = {
      readId: randomUUID(), locId: site.loc_id, total: targets.length, done: offline, read: 0, failed: 0, offline,
      running: true, startedAt: new Date().toISOString(), finishedAt: null, results,
    };
    reads.set(site.loc_id, job);
    // The read as a whole in the action log; each charger's GetConfiguration is audited as it is sent.
    await writeAudit(app.db, user, {
      action: 'COMMAND', target: 'cp_locs', targetId: site.loc_id,
      newData: { command: 'GetConfiguration', readId: job.readId, cpIds: results.filter((r) => r.status === 'waiting').map((r) => r.cpId), offline: results.filter((r) => r.status === 'offline').map((r) => r.cpId) },
    });
    const answer = progressOf(job);
    job.finishedWork = run(job, targets, user, req.log).catch((err) => req.log.error({ err, readId: job.readId }, 'Site configuration read failed'));
    return answer;
  });

  app.get('/api/cp_locs/:id/configDrift/read', {
    schema: { params: idParams, response: { 200: z.object({ read: ReadProgress.nullable().describe('The site\'s latest read on this node; null when none') }) } },
    config: { doc: { summary: 'The progress of the site\'s latest read of all chargers', privileges: FLEET_PRIVILEGES } },
  }, async (req) => {
    const user = requirePrivileges(req, ...FLEET_PRIVILEGES);
    const site = await visibleSite(app.db, user, req.params.id);
    const job = reads.get(site.loc_id);
    return { read: job ? progressOf(job) : null };
  });
}
