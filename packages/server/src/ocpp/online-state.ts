import type { BatchWriter } from './batch-writer.ts';
import type { SummarisedLog } from './summarised-log.ts';

/** How soon an online/offline flag the database refused is written again. */
const STATE_RETRY_MS = 2000;

/** Chargers' online/offline flags as their connections open and close (cps.online_flag and its times). */
export class OnlineStates {
  /** Shutting down: a failed write is not tried again. */
  closing = false;
  /** Per charger, the pending online/offline write: they must reach the database in event order. */
  private readonly stateWrites = new Map<number, Promise<void>>();
  /** Per charger, a count of state changes: a failed write is retried only while it is the latest. */
  private readonly stateSeq = new Map<number, number>();

  constructor(private readonly writer: Pick<BatchWriter, 'write'>, private readonly failureLog: SummarisedLog) {}

  /**
   * Records a charger going online or offline, in event order: a charger's next flag is queued
   * only once its previous one committed, whatever the writer's concurrency. A write the database
   * refused is tried again until it lands, unless a newer state for the charger came meanwhile: after an
   * outage the flags are right again without anyone reconnecting.
   */
  write(cpId: number, online: boolean, protocol?: string): Promise<void> {
    const previous = this.stateWrites.get(cpId) ?? Promise.resolve();
    const seq = (this.stateSeq.get(cpId) ?? 0) + 1;
    this.stateSeq.set(cpId, seq);
    let failed = false;
    const next = previous
      // Through the group commit: one UPDATE for all the chargers coming and going meanwhile.
      .then(() => this.writer.write({ states: [{ cpId, online, protocol }] }))
      .then(
        () => undefined,
        (err) => {
          failed = true;
          this.failureLog.note('state', { err: err.message, cpId });
        },
      );
    this.stateWrites.set(cpId, next);
    void next.then(() => {
      if (this.stateWrites.get(cpId) === next) this.stateWrites.delete(cpId);
      if (!failed) return;
      setTimeout(() => {
        // Superseded by a newer state (written or queued), or shutting down: nothing to repair.
        if (this.stateSeq.get(cpId) === seq && !this.closing) void this.write(cpId, online, protocol);
      }, STATE_RETRY_MS).unref();
    });
    return next;
  }

  /** The writes under way have ended (landed or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.stateWrites.values()]);
  }
}
