import type { FastifyInstance } from 'fastify';
import { editPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import { writeAudit } from '../resources/audit.ts';
import { RotationJob } from './rotation.ts';
import { unconfirmedAutoClose } from './unconfirmed-sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The data-rotation job of this node (nightly, or run now from the portal). */
    rotation: RotationJob;
  }
}

/** The local hour (APP_TIMEZONE) of the nightly run. */
export const ROTATION_HOUR = 3;

/** The date and hour now in the time zone, e.g. ['2026-11-23', 3]. */
export function localHour(now: Date, timeZone: string): [string, number] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return [`${parts.year}-${parts.month}-${parts.day}`, Number(parts.hour)];
}

/**
 * Housekeeping of the server: the data-rotation job, run once a night in the 03:00 hour of
 * APP_TIMEZONE (checked every minute, so clock changes and DST cannot skip or double it) and on
 * demand: POST /api/data_rotation_setup/run (EDIT_DATA_ROTATION_SETUP) starts a run and answers at
 * once ({status: "running"} when one is already under way); GET the same path tells whether one
 * runs and what the last one removed. Closing the server stops a run between two statements.
 * Also the auto-close of unconfirmed sessions (unconfirmed-sessions.ts).
 */
export function housekeeping(app: FastifyInstance): void {
  unconfirmedAutoClose(app);
  let closing = false;
  const job = new RotationJob(app.db, { stopped: () => closing, log: app.log });
  app.decorate('rotation', job);
  const run = (why: string) => {
    const started = job.start();
    started?.catch((err: unknown) => app.log.warn({ err, why }, 'data rotation failed; the next run tries again'));
    return started !== undefined;
  };

  let lastNight: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      const [day, hour] = localHour(new Date(), app.config.timeZone);
      if (hour !== ROTATION_HOUR || day === lastNight) return;
      lastNight = day;
      if (!app.redis) return void run('nightly');
      // Several nodes: the first to claim the night runs it.
      const { cmd, prefix, nodeId } = app.redis;
      cmd.set(`${prefix}rotation:${day}`, nodeId, 'PX', 86_400_000, 'NX').then(
        (won) => won === 'OK' && run('nightly'),
        (err) => app.log.warn({ err: err.message }, 'nightly data rotation not claimed (Redis unreachable); the next night tries again'),
      );
    }, 60_000);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(timer);
    await job.settled();
  });

  app.get('/api/data_rotation_setup/run', { config: { doc: { summary: 'Whether the data rotation job runs, and its last report', privileges: [readPrivilege('data_rotation_setup')] } } }, async (req) => {
    requirePrivileges(req, readPrivilege('data_rotation_setup'));
    return { running: job.running, lastReport: job.lastReport ?? null };
  });
  app.post('/api/data_rotation_setup/run', { config: { doc: { summary: 'Run the data rotation job now', privileges: [readPrivilege('data_rotation_setup'), editPrivilege('data_rotation_setup')] } } }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('data_rotation_setup'), editPrivilege('data_rotation_setup'));
    if (job.running) return { status: 'running' };
    await writeAudit(app.db, user, { action: 'COMMAND', target: 'data_rotation_setup', remark: 'run now' });
    run(`run now by ${user.username}`);
    return { status: 'success' };
  });
}
