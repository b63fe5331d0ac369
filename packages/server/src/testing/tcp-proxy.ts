import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay between the server and its database, for fault tests: `outage(ms)` cuts every
 * open connection and refuses new ones for that long, as a database restart or a network
 * partition does, without touching the database server other tests share.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private refusingUntil = 0;
  private server!: Server;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async listen(): Promise<this> {
    this.server = createServer((client) => {
      if (Date.now() < this.refusingUntil) {
        client.destroy();
        return;
      }
      const upstream = connect({ host: this.targetHost, port: this.targetPort });
      for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** url with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Resets every relayed connection now and refuses new ones for ms. */
  outage(ms: number): void {
    this.refusingUntil = Date.now() + ms;
    for (const s of this.sockets) s.resetAndDestroy();
  }

  /** Ends an outage early: new connections are relayed again. */
  restore(): void {
    this.refusingUntil = 0;
  }

  get openConnections(): number {
    return this.sockets.size / 2;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
