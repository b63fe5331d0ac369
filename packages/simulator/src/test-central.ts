import { RPCServer } from 'ocpp-rpc';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { SimulatedCharger } from './charger.ts';
import type { SimulatedChargerOptions } from './link.ts';

/** A received call, as the central system saw it. */
export interface Received {
  cpNo: string;
  method: string;
  params: any;
  /** Arrival time at the central system (ms). */
  at: number;
  /** The subprotocol of the charger's connection. */
  protocol: Protocol;
}

type Protocol = 'ocpp1.6' | 'ocpp2.0.1';

type Answer = (params: any, cpNo: string) => unknown;

/**
 * A minimal OCPP 1.6 (or 2.0.1) central system for the simulator's tests: strict ocpp-rpc server,
 * default answers, a log of every call, and a restart on the same port.
 */
export class TestCentral {
  readonly received: Received[] = [];
  readonly answers = new Map<string, Answer>();
  private server?: RPCServer;
  private readonly clients = new Map<string, any>();
  private nextTransactionId = 1;
  private readonly waiters = new Set<() => void>();
  port = 0;

  private readonly protocols: Protocol[];

  /** The subprotocols served, 1.6 by default; given both, each charger is answered in its own. */
  constructor(...protocols: Protocol[]) {
    this.protocols = protocols.length ? protocols : ['ocpp1.6'];
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}/ocpp`;
  }

  async start(): Promise<this> {
    const server = new RPCServer({ protocols: this.protocols, strictMode: true });
    server.on('client', (client: any) => {
      this.clients.set(client.identity, client);
      client.on('close', () => { if (this.clients.get(client.identity) === client) this.clients.delete(client.identity); });
      client.handle(async ({ method, params }: { method: string; params: any }) => {
        const protocol = client.protocol as Protocol;
        this.received.push({ cpNo: client.identity, method, params, at: Date.now(), protocol });
        for (const wake of this.waiters) wake();
        const custom = this.answers.get(method);
        return (custom ? custom(params, client.identity) : this.defaultAnswer(method, params, protocol)) as Record<string, unknown>;
      });
    });
    const http = await server.listen(this.port, '127.0.0.1');
    this.port = (http.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Closes every connection abruptly and stops listening (a central system crash). */
  async close(): Promise<void> {
    await this.server?.close({ force: true });
    this.server = undefined;
    this.clients.clear();
  }

  async restart(): Promise<void> {
    await this.close();
    await this.start();
  }

  isConnected(cpNo: string): boolean {
    return this.clients.has(cpNo);
  }

  call(cpNo: string, method: string, params: Record<string, unknown>): Promise<any> {
    const client = this.clients.get(cpNo);
    if (!client) throw new Error(`${cpNo} is not connected`);
    return client.call(method, params);
  }

  messages(method: string, cpNo?: string): Received[] {
    return this.received.filter((r) => r.method === method && (!cpNo || r.cpNo === cpNo));
  }

  /** Resolves with the first received call (old or new) that matches; polls for state conditions too. */
  async waitFor(match: (r: Received) => boolean, timeoutMs = 5000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a message');
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(timer); this.waiters.delete(done); resolve(); };
        const timer = setTimeout(done, Math.min(left, 20));
        this.waiters.add(done);
      });
    }
  }

  private defaultAnswer(method: string, params: any, protocol: Protocol): unknown {
    const now = new Date().toISOString();
    if (protocol === 'ocpp2.0.1') {
      switch (method) {
        case 'BootNotification': return { status: 'Accepted', currentTime: now, interval: 300 };
        case 'Heartbeat': return { currentTime: now };
        case 'Authorize': return { idTokenInfo: { status: 'Accepted' } };
        case 'TransactionEvent': return params.idToken ? { idTokenInfo: { status: 'Accepted' } } : {};
        case 'DataTransfer': return { status: 'Accepted' };
        default: return {};
      }
    }
    switch (method) {
      case 'BootNotification': return { status: 'Accepted', currentTime: now, interval: 300 };
      case 'Heartbeat': return { currentTime: now };
      case 'Authorize': return { idTagInfo: { status: 'Accepted' } };
      case 'StartTransaction': return { transactionId: this.nextTransactionId++, idTagInfo: { status: 'Accepted' } };
      case 'StopTransaction': return { idTagInfo: { status: 'Accepted' } };
      case 'DataTransfer': return { status: 'Accepted' };
      default: return {};
    }
  }
}

/**
 * Gives each test of the file a fresh TestCentral (`t.central`) and a charger factory whose
 * chargers are all stopped after the test, with the file's default options.
 */
export function withTestCentral(defaults: Partial<SimulatedChargerOptions>) {
  const started: SimulatedCharger[] = [];
  const t = {
    central: undefined as unknown as TestCentral,
    charger(options: Partial<SimulatedChargerOptions> = {}): SimulatedCharger {
      const cp = new SimulatedCharger({ url: t.central.url, cpNo: 'CP001', connectors: 1, ...defaults, ...options });
      started.push(cp);
      return cp;
    },
  };
  beforeEach(async () => {
    t.central = await new TestCentral().start();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cp) => cp.stop()));
    await t.central.close();
  });
  return t;
}
