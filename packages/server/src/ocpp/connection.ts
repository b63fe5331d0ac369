import type { OcppProtocol } from '@ev/core';
import type RpcServerClient from 'ocpp-rpc/lib/server-client';

/** The charger a connection signed in as (read from cps at the upgrade). */
export interface Charger {
  cpId: number;
  cpNo: string;
  locId: number;
  serial: string | null;
  /** cps.heartbeat_interval as read at sign-in (kept current by recheck); absent: read it when needed. */
  heartbeatInterval?: number;
  /** The OCPP version of the connection (absent: 1.6, as for a message the tester injects). */
  protocol?: OcppProtocol;
}

/** A transaction this connection has seen start, so MeterValues need no lookup. */
export interface KnownTransaction {
  sessionId: number;
  connectorId: number;
}

/** cps.last_message_dttm is written at most this often per charger. */
const TOUCH_INTERVAL_MS = 5000;
/** Transactions remembered per connection; older ones are looked up in cp_sessions. */
const MAX_KNOWN_TRANSACTIONS = 64;

/** Malformed or schema-invalid messages a connection may send per window before it is closed. */
export const MALFORMED_LIMIT = 20;
/** Malformed messages per window read at full speed; after them each one pauses the connection's reading. */
export const MALFORMED_READ_FREELY = 5;
const MALFORMED_WINDOW_MS = 60_000;
/** How long a connection is not read after each malformed message past MALFORMED_READ_FREELY (OCPP_GARBAGE_READ_PAUSE_MS). */
export const DEFAULT_GARBAGE_READ_PAUSE_MS = 500;

/** The server's WebSocket ping to each charger, every this many ms (OCPP_PING_INTERVAL_MS); 0: never. */
export const DEFAULT_PING_INTERVAL_MS = 30_000;

/**
 * The parts of ws's socket used here: pause() and resume() stop and restart reading the TCP socket;
 * ping() and terminate() keep the connection alive or cut it.
 */
type LibrarySocket = { pause(): void; resume(): void; removeAllListeners(event: string): void; ping(): void; terminate(): void };

/** One charger's live socket and what the central system keeps about it in memory. */
export class ChargerConnection {
  /** The charger connected to another node: this socket is being dropped and its close changes no state. */
  movedAway = false;
  private inbox: Promise<unknown> = Promise.resolve();
  private commandTail: Promise<void> = Promise.resolve();
  private lastTouch = 0;
  private malformedCount = 0;
  private malformedWindowStart = 0;
  private readingHeld = false;
  /** When reading the socket may start again (holdReading). */
  private heldUntil = 0;
  private readonly transactions = new Map<number, KnownTransaction>();
  /** When the next ping is due (ms since epoch), and whether the last one is still unanswered. */
  private pingDueAt: number;
  private awaitingPong = false;

  constructor(
    readonly charger: Charger,
    readonly client: RpcServerClient,
    /** The cps.ocpp_password_hash the charger signed in under (null: no password asked). */
    readonly passwordHash: string | null = null,
    private readonly pingIntervalMs = DEFAULT_PING_INTERVAL_MS,
  ) {
    this.pingDueAt = Date.now() + pingIntervalMs;
    // ocpp-rpc reports each pong as its 'ping' event (with the round trip time).
    client.on('ping', () => (this.awaitingPong = false));
  }

  /**
   * The keep-alive's turn for this connection (CentralSystem's ping sweep): once its ping is due, a
   * connection whose previous ping went unanswered is cut ('dead': a charger that lost power or a NAT
   * that forgot the flow leaves a socket no TCP error ever closes), otherwise pinged again.
   */
  keepAlive(now: number): 'alive' | 'dead' {
    if (now < this.pingDueAt) return 'alive';
    const ws = this.socket;
    if (!ws) return 'alive';
    if (this.awaitingPong) {
      this.pingDueAt = Infinity; // cut once, whenever its close comes
      this.cut();
      return 'dead';
    }
    this.awaitingPong = true;
    this.pingDueAt = now + this.pingIntervalMs;
    ws.ping();
    return 'alive';
  }

  /**
   * Runs the charger's messages one after the other, in arrival order: a StopTransaction must not
   * overtake the MeterValues sent before it, even if a charger does not wait for answers.
   */
  inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.inbox.then(fn, fn);
    this.inbox = run.catch(() => undefined);
    return run;
  }

  /**
   * Waits until the previous command to this charger has finished, at most until deadline (ms
   * since epoch). Resolves with a release function, or null when the deadline passed first.
   */
  async commandTurn(deadline: number): Promise<(() => void) | null> {
    const previous = this.commandTail;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.commandTail = previous.then(() => mine);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()))));
    const outcome = await Promise.race([previous.then(() => 'turn' as const), expired]);
    clearTimeout(timer);
    if (outcome === 'expired') {
      release();
      return null;
    }
    return release;
  }

  /** True at most once per TOUCH_INTERVAL_MS: the caller then writes last_message_dttm. */
  touchDue(now = Date.now()): boolean {
    if (now - this.lastTouch < TOUCH_INTERVAL_MS) return false;
    this.lastTouch = now;
    return true;
  }

  /** Counts one malformed message: how many the connection has sent in the current window, this one included. */
  countMalformed(now = Date.now()): number {
    if (now - this.malformedWindowStart >= MALFORMED_WINDOW_MS) {
      this.malformedWindowStart = now;
      this.malformedCount = 0;
    }
    return ++this.malformedCount;
  }

  /**
   * Stops reading the charger's socket for ms more. What it sends meanwhile waits in the socket buffers,
   * and TCP makes the sender wait in turn: a connection sending garbage gets a bounded share of this node,
   * whatever rate it sends at. Frames already read from the socket when it stops are still handled, each
   * adding its own ms: several frames arriving in one read cost the sender as much as one by one.
   */
  holdReading(ms: number): void {
    const ws = this.socket;
    if (!ws || ms <= 0) return;
    this.heldUntil = Math.max(this.heldUntil, Date.now()) + ms;
    if (this.readingHeld) return;
    this.readingHeld = true;
    ws.pause();
    const resumeWhenDue = () => {
      const left = this.heldUntil - Date.now();
      if (left > 0) return void setTimeout(resumeWhenDue, left).unref();
      this.readingHeld = false;
      ws.resume();
    };
    setTimeout(resumeWhenDue, ms).unref();
  }

  /** Ends the socket at once, without a close handshake (ocpp-rpc ignores a second close() while one is under way). */
  cut(): void {
    this.socket?.terminate();
  }

  /** Reads nothing more from the charger: for a connection being closed for the garbage it sent. */
  stopReading(): void {
    this.socket?.removeAllListeners('message');
  }

  /** ocpp-rpc's ws socket (private to the library, pinned in package.json); without it, reading is not held. */
  private get socket(): LibrarySocket | undefined {
    return (this.client as unknown as { _ws?: LibrarySocket })._ws;
  }

  rememberTransaction(tranId: number, tx: KnownTransaction): void {
    if (this.transactions.size >= MAX_KNOWN_TRANSACTIONS) {
      this.transactions.delete(this.transactions.keys().next().value!);
    }
    this.transactions.set(tranId, tx);
  }

  knownTransaction(tranId: number): KnownTransaction | undefined {
    return this.transactions.get(tranId);
  }

  forgetTransaction(tranId: number): void {
    this.transactions.delete(tranId);
  }
}
