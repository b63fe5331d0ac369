import type { FastifyBaseLogger } from 'fastify';

interface Held {
  lastLogged: number;
  suppressed: number;
  fields: Record<string, unknown>;
  timer?: NodeJS.Timeout;
}

/**
 * A warning that can come thousands of times a second (a charger sending garbage, every message
 * failing while the database is away) is logged once per key and interval: the first at once,
 * the rest as one line that says how many there were. Logging each would cost more than the
 * event and bury everything else in the log.
 */
export class SummarisedLog {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly level: 'warn' | 'error',
    private readonly msg: string,
    private readonly intervalMs = 10_000,
  ) {}

  note(key: string, fields: Record<string, unknown>, now = Date.now()): void {
    const entry = this.held.get(key);
    if (!entry || now - entry.lastLogged >= this.intervalMs) {
      if (entry?.timer) clearTimeout(entry.timer);
      this.log[this.level]({ ...fields, ...(entry?.suppressed ? { alsoBefore: entry.suppressed } : {}) }, this.msg);
      this.held.set(key, { lastLogged: now, suppressed: 0, fields });
      return;
    }
    entry.suppressed++;
    entry.fields = fields;
    entry.timer ??= setTimeout(() => this.flush(key), entry.lastLogged + this.intervalMs - now).unref();
  }

  private flush(key: string): void {
    const entry = this.held.get(key);
    if (!entry) return;
    entry.timer = undefined;
    if (entry.suppressed) {
      this.log[this.level]({ ...entry.fields, count: entry.suppressed, intervalMs: this.intervalMs }, `${this.msg} (repeated)`);
    }
    // A key quiet for a whole interval is forgotten, so the map does not keep every charger ever seen.
    this.held.delete(key);
  }

  /** Stops the pending summary timers (at shutdown). */
  close(): void {
    for (const entry of this.held.values()) if (entry.timer) clearTimeout(entry.timer);
    this.held.clear();
  }
}
