import { FIRMWARE_FAILED_STATES } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../db/client.ts';
import { sendCommand, type ChargerRow } from '../ocpp/routes.ts';

/** How often each node looks at the running jobs (besides right after a charger's firmware message). */
export const FIRMWARE_TICK_MS = 5_000;
/**
 * A charger silent this long after its retrieve date (or its last status) no longer holds a place in
 * its wave: a charger that never reports does not stall the job for ever.
 */
export const FIRMWARE_STALL_MS = 30 * 60_000;

/** Rows holding a place in the wave: claimed for sending, or sent and not yet at an end. */
const BUSY = `((state = 'Queued' AND claimed_at IS NOT NULL)
   OR (state IN ('Sent', 'Downloading', 'Downloaded', 'Installing', 'Installed') AND greatest(state_at, $3::timestamptz) > now() - $4 * interval '1 millisecond'))`;

interface JobRow {
  firmware_job_id: number;
  retrieve_date: Date;
  retries: number | null;
  retry_interval: number | null;
  max_failure_pct: number;
  wave_size: number;
  total: number;
  created_by: number | null;
  created_by_name: string | null;
  url: string;
}

/** Moves job rows to a state and notes it in their history. */
export const moveRows = (sql: Sql, where: string, params: unknown[], state: string) =>
  sql.query(
    `UPDATE firmware_job_chargers SET state = '${state}', state_at = now(),
            history = history || jsonb_build_array(jsonb_build_object('state', '${state}', 'at', now()))
      WHERE ${where}`,
    params,
  );

/** Ends a running job: Stopped (by a user or its failure share) or Finished; its chargers not yet sent to are Stopped. */
export async function endJob(sql: Sql, jobId: number, status: 'Stopped' | 'Finished', reason: 'user' | 'failures' | null): Promise<boolean> {
  const ended = await sql.query(
    `UPDATE firmware_jobs SET status = $2, stop_reason = $3, finished_at = now(), lupd_dttm = now()
      WHERE firmware_job_id = $1 AND status = 'Running' RETURNING firmware_job_id`,
    [jobId, status, reason],
  );
  if (ended.length && status === 'Stopped') await moveRows(sql, `firmware_job_id = $1 AND state = 'Queued' AND claimed_at IS NULL`, [jobId], 'Stopped');
  return ended.length > 0;
}

/**
 * Runs the firmware update jobs (issue 29): each running job sends UpdateFirmware to its queued chargers,
 * at most wave_size updating at once, and stops once the failed share reaches max_failure_pct. A job's
 * row is locked while its next chargers are claimed (SKIP LOCKED): with several nodes each charger is
 * sent to once. Each send goes through sendCommand (cp_requests and the portal action log, in the
 * name of the job's creator).
 */
export class FirmwareRunner {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly app: FastifyInstance, private readonly opts = { tickMs: FIRMWARE_TICK_MS, stallMs: FIRMWARE_STALL_MS }) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.tickMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }

  /** Looks at the running jobs now (a pass already running goes round once more). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.current = (async () => {
      try {
        do {
          this.again = false;
          const jobs = await this.app.db.query<{ firmware_job_id: number }>(`SELECT firmware_job_id FROM firmware_jobs WHERE status = 'Running' ORDER BY firmware_job_id`);
          for (const { firmware_job_id } of jobs) await this.advance(firmware_job_id);
        } while (this.again && this.timer);
      } catch (err) {
        this.app.log.error({ err }, 'Firmware jobs not advanced');
      } finally {
        this.running = false;
      }
    })();
  }

  /** One job: stop or finish it, or claim and send to its next chargers. */
  private async advance(jobId: number): Promise<void> {
    const claimed = await this.app.db.tx(async (sql) => {
      const [job] = await sql.query<JobRow>(
        `SELECT j.*, f.url FROM firmware_jobs j JOIN firmware f USING (firmware_id)
          WHERE j.firmware_job_id = $1 AND j.status = 'Running' FOR UPDATE OF j SKIP LOCKED`,
        [jobId],
      );
      if (!job) return null;
      const [c] = await sql.query<{ failed: number; waiting: number; busy: number }>(
        `SELECT count(*) FILTER (WHERE state = ANY($2::text[]))::int AS failed,
                count(*) FILTER (WHERE state = 'Queued' AND claimed_at IS NULL)::int AS waiting,
                count(*) FILTER (WHERE ${BUSY})::int AS busy
           FROM firmware_job_chargers WHERE firmware_job_id = $1`,
        [jobId, FIRMWARE_FAILED_STATES, job.retrieve_date, this.opts.stallMs],
      );
      if (job.max_failure_pct < 100 && c.failed > 0 && c.failed * 100 >= job.max_failure_pct * job.total) {
        await endJob(sql, jobId, 'Stopped', 'failures');
        this.app.log.warn({ jobId, failed: c.failed, total: job.total }, 'Firmware job stopped: too many chargers failed');
        return null;
      }
      if (!c.waiting && !c.busy) {
        await endJob(sql, jobId, 'Finished', null);
        return null;
      }
      const free = Math.min(job.wave_size - c.busy, c.waiting);
      if (free <= 0) return null;
      const rows = await sql.query<{ id: number; cp_id: number }>(
        `UPDATE firmware_job_chargers SET claimed_at = now(), sent_at = now(), reported_version = NULL
          WHERE id IN (SELECT id FROM firmware_job_chargers WHERE firmware_job_id = $1 AND state = 'Queued' AND claimed_at IS NULL ORDER BY cp_no, id LIMIT $2)
          RETURNING id, cp_id`,
        [jobId, free],
      );
      return { job, rows };
    });
    if (!claimed) return;
    await Promise.all(claimed.rows.map((r) => this.send(claimed.job, r)));
    // Chargers that could not be sent to left their places free at once.
    this.again = true;
  }

  private async send(job: JobRow, row: { id: number; cp_id: number }): Promise<void> {
    const { app } = this;
    let sent = false;
    try {
      const [cp] = await app.db.query<ChargerRow>(`SELECT cp_id, cp_no, loc_id, enable_flag, double_use_flag FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`, [row.cp_id]);
      if (cp) {
        // A retrieve date already past: the charger downloads now.
        const retrieveDate = new Date(Math.max(Date.now(), new Date(job.retrieve_date).getTime())).toISOString();
        const params = {
          location: job.url,
          retrieveDate,
          ...(job.retries != null ? { retries: job.retries } : {}),
          ...(job.retry_interval != null ? { retryInterval: job.retry_interval } : {}),
        };
        const actor = { id: job.created_by, username: job.created_by_name ?? 'firmware job' };
        const result = await sendCommand(app, app.log, actor, cp, 'UpdateFirmware', params, `firmware job ${job.firmware_job_id}`);
        sent = result.status === 'success';
      }
    } catch (err) {
      app.log.error({ err, jobId: job.firmware_job_id, cpId: row.cp_id }, 'UpdateFirmware not sent');
    }
    // The charger may already have reported Downloading: only a row still Queued moves.
    await moveRows(app.db, `id = $1 AND state = 'Queued'`, [row.id], sent ? 'Sent' : 'NotSent');
  }
}
