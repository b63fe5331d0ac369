import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Database } from '../db/client.ts';
import { alertMail, type AlertMailData } from './mail.ts';
import type { RaisedAlert } from './monitor.ts';

export interface NotifierOptions {
  /** Attempts per e-mail before its failure is recorded. */
  attempts: number;
  /** Wait before the next attempt, times the attempt number. */
  retryDelayMs: number;
}

const DEFAULTS: NotifierOptions = { attempts: 3, retryDelayMs: 5_000 };

/**
 * Mails contact groups about alerts: a group is due when an alert of its sites (none: all) and
 * error codes (none: all) reaches its level. alert_notification keeps each (alert, group, level)
 * once, so nothing is mailed twice; e-mails go out from a queue, one at a time, retried on SMTP
 * failure, and the outcome (sent_dttm or error) is written on the row.
 */
export class AlertNotifier {
  private readonly queue: number[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly opts: NotifierOptions;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly timeZone: string,
    opts: Partial<NotifierOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /** Takes up what a previous run left unsent (its process stopped before the e-mail went out). */
  async start(): Promise<void> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM alert_notification WHERE sent_dttm IS NULL AND error IS NULL AND cre_dttm > now() - interval '1 day' ORDER BY id`,
    );
    for (const r of rows) this.push(Number(r.id));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Records the groups now due for this alert and queues their e-mails. */
  async onRaised({ alertId, level }: RaisedAlert): Promise<void> {
    // A group whose level was passed without a record (created later, or a failed write) is mailed now, once.
    const rows = await this.db.query<{ id: number }>(
      `INSERT INTO alert_notification (alert_id, contact_group_id, level)
       SELECT a.alert_id, g.contact_group_id, g.level FROM alert a
       JOIN contact_group g ON g.status = 1 AND g.deleted_at IS NULL AND g.level <= $2
        AND (cardinality(g.loc_ids) = 0 OR a.loc_id = ANY(g.loc_ids))
        AND (cardinality(g.error_ids) = 0 OR a.error_id = ANY(g.error_ids))
       WHERE a.alert_id = $1
       ON CONFLICT (alert_id, contact_group_id, level) DO NOTHING
       RETURNING id`,
      [alertId, level],
    );
    for (const r of rows) this.push(Number(r.id));
  }

  private push(id: number): void {
    if (this.stopped) return;
    this.queue.push(id);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined && !this.stopped; id = this.queue.shift()) {
      try {
        await this.deliver(id);
      } catch (err) {
        this.log.error({ err, notificationId: id }, 'alert e-mail could not be recorded');
      }
    }
  }

  private async deliver(id: number): Promise<void> {
    const [row] = await this.db.query<AlertMailData & { recipients: string[] }>(
      `SELECT a.alert_id, a.cp_no, a.location, a.error_id, a.message, a.level, g.name AS group_name,
              to_char(a.last_date AT TIME ZONE $2, 'YYYY-MM-DD HH24:MI:SS') AS last_date,
              coalesce((SELECT array_agg(c.email ORDER BY c.contact_id) FROM contact c
                        WHERE c.contact_id = ANY(g.contact_ids) AND c.status = 1 AND c.deleted_at IS NULL), '{}') AS recipients
       FROM alert_notification n JOIN alert a ON a.alert_id = n.alert_id JOIN contact_group g ON g.contact_group_id = n.contact_group_id
       WHERE n.id = $1`,
      [id, this.timeZone],
    );
    if (!row) return;
    if (!row.recipients.length) {
      await this.record(id, 'no active contact in the group');
      return;
    }
    const { subject, text } = alertMail(row);
    let lastError = '';
    for (let attempt = 1; attempt <= this.opts.attempts && !this.stopped; attempt++) {
      try {
        await this.transport.sendMail({ from: this.from, to: row.recipients, subject, text });
        await this.record(id);
        this.log.info({ alertId: row.alert_id, cpNo: row.cp_no, to: row.recipients.length }, 'alert e-mail sent');
        return;
      } catch (err: any) {
        lastError = String(err?.message ?? err);
        this.log.warn({ alertId: row.alert_id, attempt, err: lastError }, 'alert e-mail failed');
        if (attempt < this.opts.attempts) await new Promise((r) => setTimeout(r, this.opts.retryDelayMs * attempt));
      }
    }
    await this.record(id, lastError || 'stopped before sending');
  }

  private async record(id: number, error?: string): Promise<void> {
    if (error === undefined) await this.db.query(`UPDATE alert_notification SET sent_dttm = now(), error = NULL WHERE id = $1`, [id]);
    else await this.db.query(`UPDATE alert_notification SET error = $2 WHERE id = $1`, [id, error.slice(0, 1000)]);
  }
}
