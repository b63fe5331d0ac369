import { EventEmitter } from 'node:events';
import { RPCClient } from 'ocpp-rpc';

export interface BackoffOptions {
  /** First retry delay (ms); doubles per failed attempt. */
  initialMs?: number;
  /** Cap of the delay (ms). */
  maxMs?: number;
}

export interface ConnectionOptions {
  url: string;
  cpNo: string;
  password?: string;
  callTimeoutMs: number;
  reconnect: boolean;
  backoff: Required<BackoffOptions>;
  /** Validate both directions against the protocol's schemas, as the central system does. */
  strict: boolean;
  /** The OCPP-J subprotocol offered (default ocpp1.6). */
  protocol?: 'ocpp1.6' | 'ocpp2.0.1';
  /** wss:// (security profile 2): the CA that signed the central system's certificate, or no check at all. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
}

/** The delay before reconnect attempt `attempt` (0-based): doubling, capped, jittered. */
export function backoffDelay(attempt: number, { initialMs, maxMs }: Required<BackoffOptions>): number {
  const capped = Math.min(maxMs, initialMs * 2 ** attempt);
  // Jitter spreads a fleet's reconnects after a central system restart.
  return Math.round(capped * (0.5 + Math.random() * 0.5));
}

export type CommandHandler = (method: string, params: any) => Promise<Record<string, unknown>>;

/** A CALLERROR the other side answered: the message arrived, so it is not worth resending. */
export function isRemoteError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'rpcErrorCode' in err;
}

/**
 * One charger's WebSocket to the central system. A fresh RPCClient per connection (the
 * library's own reconnect is off) so that every connect runs our opening sequence — boot,
 * replay — and so that a simulated network loss can be told from a server going away: the
 * first waits for reconnect(), the second retries by itself with capped, jittered back-off.
 *
 * Events: 'open', 'close', 'reconnecting' ({attempt, delayMs}), 'reconnectFailed' (Error).
 */
export class Connection extends EventEmitter {
  private client?: RPCClient;
  /** False after drop() and close(): nobody wants the link up, so losing it is not retried. */
  private wanted = false;
  private connecting = false;
  private attempt = 0;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly handler: CommandHandler,
    /** The opening sequence after every successful connect (boot, status, replay). */
    private readonly onOpened: () => Promise<void>,
  ) {
    super();
  }

  get isOpen(): boolean {
    return this.client?.state === RPCClient.OPEN;
  }

  /** One attempt: connect and run the opening sequence. Throws when either fails. */
  async connect(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.wanted = true;
    this.connecting = true;
    // A connect over a live or half-open socket replaces it rather than leaking it.
    const previous = this.client;
    this.client = undefined;
    previous?.close({ force: true }).catch(() => undefined);
    const client = new RPCClient({
      identity: this.options.cpNo,
      endpoint: this.options.url,
      password: this.options.password ?? null,
      protocols: [this.options.protocol ?? 'ocpp1.6'],
      strictMode: this.options.strict,
      reconnect: false,
      callTimeoutMs: this.options.callTimeoutMs,
      ...(this.options.tls ? { wsOpts: this.options.tls } : {}),
    } as any);
    client.handle(({ method, params }) => this.handler(method!, params));
    client.on('close', () => this.onClientClosed(client));
    this.client = client;
    try {
      await client.connect();
      this.emit('open');
      await this.onOpened();
      this.attempt = 0;
    } catch (err) {
      if (this.client === client) this.client = undefined;
      await client.close({ force: true }).catch(() => undefined);
      throw err;
    } finally {
      this.connecting = false;
    }
  }

  /** A new HTTP Basic password (ChangeConfiguration AuthorizationKey): the socket up now keeps its sign-in, the next connect uses it. */
  usePassword(password: string): void {
    this.options.password = password;
  }

  async call(method: string, params: unknown): Promise<any> {
    if (!this.client || !this.isOpen) throw new Error(`${this.options.cpNo}: offline, cannot send ${method}`);
    return this.client.call(method, params);
  }

  /** Simulates a network loss: the socket dies without a close handshake and stays down. */
  drop(): void {
    this.wanted = false;
    this.stopRetrying();
    this.client?.close({ force: true }).catch(() => undefined);
  }

  /** Closes for good (a clean close handshake), stops retrying. */
  async close(): Promise<void> {
    this.wanted = false;
    this.stopRetrying();
    const client = this.client;
    this.client = undefined;
    await client?.close({ code: 1000, reason: 'charger stopped' }).catch(() => undefined);
  }

  private stopRetrying(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
  }

  private onClientClosed(client: RPCClient): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.emit('close');
    // A failed attempt inside connect() is retried by whoever called connect().
    if (this.wanted && this.options.reconnect && !this.connecting) this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const delayMs = backoffDelay(this.attempt, this.options.backoff);
    this.attempt++;
    this.emit('reconnecting', { attempt: this.attempt, delayMs });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect().catch((err) => {
        this.emit('reconnectFailed', err);
        if (this.wanted) this.scheduleRetry();
      });
    }, delayMs);
  }
}
