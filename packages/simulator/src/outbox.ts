import { isRemoteError } from './connection.ts';

interface Item {
  method: string;
  /** Builds the payload when it is sent: a queued StopTransaction learns its transactionId late. */
  build: () => Record<string, unknown>;
  queueable: boolean;
  resolve: (value: any) => void;
  reject: (err: unknown) => void;
}

/**
 * The charger's outgoing calls, in order, one at a time (OCPP-J allows one outstanding call).
 * Transaction-related messages and status changes are queueable: kept while offline, and kept
 * when the link dies under them, then replayed on reconnect. Anything else fails while offline.
 */
export class Outbox {
  private items: Item[] = [];
  private pumping?: Promise<void>;
  private closed?: string;

  constructor(
    private readonly send: (method: string, params: Record<string, unknown>) => Promise<any>,
    private readonly canSend: () => boolean,
  ) {}

  get length(): number {
    return this.items.length;
  }

  push(method: string, build: () => Record<string, unknown>, queueable: boolean): Promise<any> {
    if (this.closed) return Promise.reject(new Error(this.closed));
    if (!queueable && !this.canSend()) return Promise.reject(new Error(`offline, cannot send ${method}`));
    const delivered = new Promise((resolve, reject) => {
      this.items.push({ method, build, queueable, resolve, reject });
      void this.pump();
    });
    // Status changes are often fired and forgotten; their failure is counted by the sender.
    delivered.catch(() => undefined);
    return delivered;
  }

  /** Sends what is queued while the link allows; resolves when it stops (drained or offline). */
  pump(): Promise<void> {
    this.pumping ??= this.drain().finally(() => {
      this.pumping = undefined;
      // A push made by whoever the last answer woke found this drain ending: send it now.
      if (this.items.length > 0 && this.canSend()) return this.pump();
    });
    return this.pumping;
  }

  /** The link went down: what may not wait for it fails now. */
  dropUnqueueable(): void {
    const dropped = this.items.filter((i) => !i.queueable);
    this.items = this.items.filter((i) => i.queueable);
    for (const item of dropped) item.reject(new Error(`offline, cannot send ${item.method}`));
  }

  /** The charger stopped: what waits fails, and nothing more is accepted. */
  close(reason: string): void {
    this.closed = reason;
    const items = this.items;
    this.items = [];
    for (const item of items) item.reject(new Error(reason));
  }

  private async drain(): Promise<void> {
    while (this.items.length > 0 && this.canSend()) {
      const item = this.items[0];
      let params: Record<string, unknown>;
      try {
        params = item.build();
      } catch (err) {
        this.remove(item);
        item.reject(err);
        continue;
      }
      try {
        const result = await this.send(item.method, params);
        this.remove(item);
        item.resolve(result);
      } catch (err) {
        // Lost with the link: a queueable message stays first in line for the replay.
        if (item.queueable && !isRemoteError(err) && !this.canSend()) break;
        this.remove(item);
        item.reject(err);
      }
    }
  }

  private remove(item: Item): void {
    const at = this.items.indexOf(item);
    if (at >= 0) this.items.splice(at, 1);
  }
}
