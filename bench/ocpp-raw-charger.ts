/**
 * The load driver's charger: a WebSocket client written directly on a TCP socket, so that the
 * driver spends its CPU on the load and not on itself. Frames go out in one write each (header
 * and payload in one buffer; the client mask is the all-zero key RFC 6455 allows, so the payload
 * is copied as is), answers are matched by their message id without parsing the JSON, and the
 * calls the bench repeats are written from templates (no JSON.stringify per message).
 */
import { connect, type Socket } from 'node:net';
import { bootPayload, meterFrame, type Protocol, type TxId } from './ocpp-frames.ts';

const HANDSHAKE_END = Buffer.from('\r\n\r\n');

type Waiter = { resolve: (text: string) => void; reject: (err: Error) => void };

export class RawCharger {
  private sock: Socket | null = null;
  private buf: Buffer = Buffer.alloc(0);
  private seq = 0;
  private waiting = new Map<string, Waiter>();

  constructor(
    readonly host: string,
    readonly port: number,
    readonly cpNo: string,
    readonly protocol: Protocol = 'ocpp1.6',
  ) {}

  /** Opens the socket and upgrades it to its protocol (ocpp1.6 or ocpp2.0.1); rejects on refusal or reset. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const sock = connect({ host: this.host, port: this.port, noDelay: true });
      this.sock = sock;
      this.buf = Buffer.alloc(0);
      let upgraded = false;
      sock.once('connect', () =>
        sock.write(
          `GET /ocpp/${this.cpNo} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: YmVuY2hiZW5jaGJlbmNoYg==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${this.protocol}\r\n\r\n`,
        ),
      );
      sock.on('data', (chunk: Buffer) => {
        this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
        if (!upgraded) {
          const end = this.buf.indexOf(HANDSHAKE_END);
          if (end < 0) return;
          if (!this.buf.subarray(0, 12).toString('latin1').endsWith(' 101')) {
            sock.destroy();
            return reject(new Error(`${this.cpNo}: ${this.buf.subarray(0, end).toString('latin1').split('\r\n')[0]}`));
          }
          upgraded = true;
          this.buf = this.buf.subarray(end + 4);
          resolve();
        }
        this.frames();
      });
      sock.once('error', (err) => reject(err));
      // A socket that dies fails its calls, so a storm retries instead of waiting forever.
      sock.once('close', () => {
        for (const w of this.waiting.values()) w.reject(new Error('closed'));
        this.waiting.clear();
        reject(new Error('closed'));
      });
    });
  }

  terminate(): void {
    this.sock?.destroy();
  }

  /** Sends a CALL whose text `frame(id)` builds, and resolves with the raw text of the answer. */
  callRaw(frame: (id: string) => string): Promise<string> {
    const id = String(++this.seq);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.write(0x1, frame(id));
    });
  }

  /** A CALL with a payload built by JSON (boot, start): not on the measured hot path. */
  async call(action: string, payload: unknown): Promise<any> {
    const msg = JSON.parse(await this.callRaw((id) => JSON.stringify([2, id, action, payload])));
    return msg[0] === 3 ? msg[2] : { callError: msg[2] };
  }

  async boot(): Promise<void> {
    await this.open();
    const res = await this.call('BootNotification', bootPayload(this.protocol));
    if (res.status !== 'Accepted') throw new Error(`${this.cpNo}: boot ${JSON.stringify(res)}`);
  }

  private write(opcode: number, text: string): void {
    const len = text.length; // the bench's frames are ASCII
    const head = len < 126 ? 6 : 8;
    const out = Buffer.allocUnsafe(head + len);
    out[0] = 0x80 | opcode;
    if (len < 126) {
      out[1] = 0x80 | len;
    } else {
      out[1] = 0x80 | 126;
      out.writeUInt16BE(len, 2);
    }
    out.writeUInt32BE(0, head - 4); // the mask key
    out.write(text, head, 'latin1');
    this.sock!.write(out);
  }

  /** Reads complete server frames (unmasked) from the buffer. */
  private frames(): void {
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      let len = b[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        off = 10;
      }
      if (b.length < off + len) return;
      const opcode = b[0] & 0x0f;
      const payload = b.subarray(off, off + len);
      this.buf = b.subarray(off + len);
      if (opcode === 0x1) this.answer(payload.toString('latin1'));
      else if (opcode === 0x9) this.write(0xa, payload.toString('latin1')); // ping → pong
      else if (opcode === 0x8) this.sock?.end();
    }
  }

  /** `[3,"id",…]` or `[4,"id",…]`: the id is between the first two quotes. */
  private answer(text: string): void {
    const id = text.slice(4, text.indexOf('"', 4));
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    w.resolve(text);
  }
}

export interface MeterLoopResult {
  answered: number;
  perSecond: number;
  /** How long it ran. */
  seconds: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Each charger sends MeterValues (energy, voltage, current; in 2.0.1 a TransactionEvent Updated with them,
 * ocpp-frames.ts) for transaction `txs[i]` for `seconds`, one
 * call outstanding: in a closed loop (as fast as answered), or with `intervalMs` one call per interval
 * each (phases spread over the interval; a late answer sends the next at once); with `alsoUntil`, for
 * as long as that is still pending too. The frame is a template
 * around the values that change (message id, timestamp, energy). Used against the real server
 * and the no-work baseline.
 */
export async function meterLoop(
  fleet: RawCharger[], txs: TxId[], seconds: number, intervalMs = 0, alsoUntil?: Promise<unknown>,
): Promise<MeterLoopResult> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  let end = start + seconds * 1000;
  let settled = !alsoUntil;
  const stop = () => {
    settled = true;
    end = Math.max(end, performance.now());
  };
  alsoUntil?.then(stop, stop);
  const running = () => !settled || performance.now() < end;
  await Promise.all(fleet.map(async (c, i) => {
    let next = start + (intervalMs * i) / fleet.length;
    const frame = meterFrame(c.protocol, txs[i]);
    for (let wh = 0; running(); wh += 10) {
      if (intervalMs) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        next += intervalMs;
        if (!running()) break;
      }
      const t = performance.now();
      const ts = new Date().toISOString();
      const answer = await c.callRaw((id) => frame(id, ts, wh));
      if (answer.charCodeAt(1) !== 51) errors++; // not [3,…: a CALLERROR
      latencies.push(performance.now() - t);
    }
  }));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const elapsed = (performance.now() - start) / 1000;
  return { answered: latencies.length, perSecond: latencies.length / elapsed, seconds: elapsed, errors, p50: pct(50), p99: pct(99), max: pct(100) };
}

/** Runs fn over items, `width` at a time. */
export async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/**
 * Holds the fleet for `seconds`, every charger sending one Heartbeat in that time, spread evenly
 * (as a fleet with that heartbeat interval does) by one timer sending a slice every 100 ms.
 */
export async function heartbeats(fleet: RawCharger[], seconds: number): Promise<{ sent: number; failed: number; p50: number; p99: number; latencies: number[] }> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const pending: Promise<void>[] = [];
  const ticks = Math.max(1, seconds * 10);
  const frame = (id: string) => '[2,"' + id + '","Heartbeat",{}]';
  await new Promise<void>((resolve) => {
    let tick = 0;
    const timer = setInterval(() => {
      const upTo = Math.round((++tick / ticks) * fleet.length);
      for (; next < upTo; next++) {
        const t = performance.now();
        pending.push(fleet[next].callRaw(frame).then(
          (answer) => void (answer.charCodeAt(1) === 51 ? latencies.push(performance.now() - t) : failed++),
          () => void failed++,
        ));
      }
      if (tick >= ticks) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
  });
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { sent: latencies.length, failed, p50: pct(50), p99: pct(99), latencies };
}
