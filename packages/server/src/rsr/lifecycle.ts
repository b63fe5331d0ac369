import type { FastifyInstance } from 'fastify';
import type { ChargerMessage, PlannedStopSent } from '../bus/index.ts';
import { finishRsr } from './finish.ts';
import { logExchange } from './start.ts';
import { giveBackVouchers } from './vouchers.ts';

/** How often RSRs are checked for the grace period passing and starts that never came. */
export const SWEEP_INTERVAL_MS = 30_000;
/** A remote start whose transaction has not begun this long after the request has failed. */
export const START_TIMEOUT_MS = 5 * 60_000;

/**
 * The RSR states that follow the charger (spec part 2 §4): RemoteStarted → Charging on the
 * connector's StartTransaction → Unsettled / Settled on its StopTransaction, UnderPenalty while it
 * charges past the grace period, Failed when the start never came. Every state is in cp_rsr, so a
 * restarted server carries on where it stopped.
 */
export class RsrLifecycle {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly app: FastifyInstance) {}

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.timer = setInterval(() => void this.sweep(), intervalMs);
    this.timer.unref();
    void this.sweep();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([this.running, this.queue]);
  }

  /** Starts and stops, one at a time in the order they came (a stop never overtakes its start). */
  private queue: Promise<void> = Promise.resolve();

  /**
   * A charger's message: its starts and stops move RSRs. Its other messages do nothing here: a
   * check per MeterValues cost three statements per message on the OCPP hot path (0.45 → 0.14 of
   * the no-work rate in bench/ocpp-load.ts); the sweep finds RSRs past their grace period instead.
   */
  onMessage(m: ChargerMessage): Promise<void> {
    if (m.action === 'StartTransaction' || m.action === 'StopTransaction') {
      this.queue = this.queue.then(() => (m.action === 'StartTransaction' ? this.started(m) : this.stopped(m)))
        .catch((err) => this.app.log.error({ err, cpId: m.cpId, action: m.action }, 'RSR not updated from the charger message'));
      return this.queue;
    }
    return Promise.resolve();
  }

  /** The stop at the RSR's booked end (ocpp/planned-stops.ts) is one of its exchanges with the charger. */
  async onPlannedStop(stop: PlannedStopSent): Promise<void> {
    try {
      const [rsr] = await this.app.db.query<{ rsr_id: number }>(`SELECT rsr_id FROM cp_rsr WHERE cp_id = $1 AND tran_id = $2`, [stop.cpId, stop.tranId]);
      if (rsr) await logExchange(this.app.db, rsr.rsr_id, null, { action: 'RemoteStopTransaction', transactionId: stop.tranId, reason: 'planned end' }, stop.outcome);
    } catch (err) {
      this.app.log.error({ err, cpId: stop.cpId }, 'RSR planned stop not recorded');
    }
  }

  private async started(m: ChargerMessage): Promise<void> {
    const tranId = m.response?.transactionId;
    if ((m.response?.idTagInfo as { status?: string } | undefined)?.status !== 'Accepted' || typeof tranId !== 'number') return;
    const moved = await this.app.db.query(
      `UPDATE cp_rsr r SET status = 'Charging', session_id = s.session_id, tran_id = s.tran_id, start_time = s.session_start_time,
              end_time = s.session_start_time + make_interval(mins => r.duration),
              gracing_period_end_dttm = s.session_start_time + make_interval(mins => r.duration + coalesce(cr.gracing_period, 0)),
              lupd_dttm = now()
         FROM cp_sessions s, charging_rate cr
        WHERE s.tran_id = $1 AND s.cp_id = $2 AND cr.id = r.charging_rate_id
          AND r.rsr_id = (SELECT rsr_id FROM cp_rsr WHERE cp_id = $2 AND connector_id = $3 AND status = 'RemoteStarted' ORDER BY rsr_id DESC LIMIT 1)
          -- The idTag the start was sent with (ocpp/routes.ts): a card swiped on the connector meanwhile is not the RSR's.
          AND upper(left(coalesce(r.external_account_id, r.start_code, 'PORTAL'), 20)) = upper($4)
        RETURNING r.rsr_id`,
      [tranId, m.cpId, m.params.connectorId, String(m.params.idTag ?? '')],
    );
    if (!moved.length) return;
    await logExchange(this.app.db, moved[0].rsr_id, null, { action: 'StartTransaction', ...m.params }, m.response);
    // The session may already be past its grace period (a start replayed from the charger's queue).
    await this.check(new Date(), m.cpId);
  }

  private async stopped(m: ChargerMessage): Promise<void> {
    const [r] = await this.app.db.query<{ rsr_id: number; stop_note: string | null }>(
      `SELECT r.rsr_id, s.stop_note FROM cp_rsr r LEFT JOIN cp_sessions s ON s.session_id = r.session_id
        WHERE r.cp_id = $1 AND r.tran_id = $2 AND r.status IN ('Charging', 'UnderPenalty') ORDER BY r.rsr_id DESC LIMIT 1`,
      [m.cpId, m.params.transactionId],
    );
    if (!r) return;
    await logExchange(this.app.db, r.rsr_id, null, { action: 'StopTransaction', ...m.params }, m.response);
    const at = new Date(m.params.timestamp);
    await finishRsr(this.app, { rsrId: r.rsr_id, at: Number.isNaN(at.getTime()) ? new Date() : at, reason: m.params.reason ?? 'Local', note: r.stop_note });
  }

  /** One sweep as of `now`; one already running is joined rather than doubled. */
  sweep(now = new Date()): Promise<void> {
    this.running ??= this.check(now)
      .catch((err) => this.app.log.error({ err }, 'RSR sweep failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Every RSR, or one charger's. */
  private async check(now: Date, cpId: number | null = null): Promise<void> {
    await this.app.db.query(
      `UPDATE cp_rsr SET status = 'UnderPenalty', lupd_dttm = now()
        WHERE status = 'Charging' AND gracing_period_end_dttm < $1 AND ($2::int IS NULL OR cp_id = $2)`,
      [now.toISOString(), cpId],
    );
    await this.app.db.tx(async (sql) => {
      const failed = await sql.query<{ rsr_id: number }>(
        `UPDATE cp_rsr SET status = 'Failed', stop_reason = 'The charger did not start charging in time', lupd_dttm = now()
          WHERE status = 'RemoteStarted' AND cre_dttm < $1 AND ($2::int IS NULL OR cp_id = $2) RETURNING rsr_id`,
        [new Date(now.getTime() - START_TIMEOUT_MS).toISOString(), cpId],
      );
      for (const f of failed) await giveBackVouchers(sql, f.rsr_id);
    });
  }
}
