/**
 * Collects ids for a short window and hands them over together: a burst of events (a reconnect
 * storm of thousands of chargers) becomes one statement rather than one per charger.
 */
export class IdBatch {
  private readonly ids = new Set<number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly flush: (ids: number[]) => void,
  ) {}

  add(id: number): void {
    this.ids.add(id);
    this.timer ??= setTimeout(() => this.run(), this.windowMs);
  }

  /** Takes an id back out before its window closes (the charger went away again). */
  delete(id: number): void {
    this.ids.delete(id);
  }

  /** Drops what is collected and not yet handed over. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ids.clear();
  }

  private run(): void {
    this.timer = null;
    const ids = [...this.ids];
    this.ids.clear();
    if (ids.length) this.flush(ids);
  }
}
