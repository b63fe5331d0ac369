import WebSocket from 'ws';

/**
 * Connections sending malformed OCPP-J frames of every kind, for the bad-input test
 * (ocpp/malformed-load.test.ts) and bench (bench/ocpp-malformed.ts). The server closes a
 * connection that keeps at it (1002 after 10 unparsable frames in a row, 1008 past MALFORMED_LIMIT
 * with a cool-down that refuses the chargeBoxId with 429, 1009 for a frame over 256 KiB): a
 * flood connection then comes back as the next chargeBoxId of its list, counting refusals.
 */

/** Largest frame the server reads (central-system.ts MAX_FRAME_BYTES). */
const FRAME_LIMIT = 256 * 1024;

export interface MalformedFrame {
  kind: string;
  data: string | Buffer;
  /** The server answers it with a CALLERROR (results and errors for unknown ids get no answer). */
  answered: boolean;
}

const call = (id: string, action: string, payload: unknown) => JSON.stringify([2, id, action, payload]);
/** A BootNotification whose vendor string fills the frame to `bytes` (schema: 20 characters at most). */
const hugeBoot = (id: string, bytes: number) => {
  const frame = call(id, 'BootNotification', { chargePointVendor: '', chargePointModel: 'M' });
  return call(id, 'BootNotification', { chargePointVendor: 'A'.repeat(bytes - frame.length), chargePointModel: 'M' });
};

/** The i-th frame of a flood: the kinds in turn, a huge one every 50th, one over the limit every 1,000th. */
export function malformedFrame(i: number): MalformedFrame {
  const id = `m${i}`;
  if (i % 1000 === 999) return { kind: 'over 256 KiB', data: hugeBoot(id, FRAME_LIMIT + 1024), answered: false };
  if (i % 50 === 49) {
    const bytes = [16 * 1024, 128 * 1024, FRAME_LIMIT - 64][Math.floor(i / 50) % 3];
    return { kind: 'huge string', data: hugeBoot(id, bytes), answered: true };
  }
  switch (i % 12) {
    case 0: return { kind: 'bad JSON', data: `[2,"${id}","Heartbeat",{`, answered: true };
    case 1: return { kind: 'not an array', data: `{"messageTypeId":2,"id":"${id}"}`, answered: true };
    case 2: return { kind: 'unknown message type', data: `[7,"${id}","Heartbeat",{}]`, answered: true };
    case 3: return { kind: 'wrong types', data: call(id, 'StatusNotification', { connectorId: 'one', errorCode: 'NoError', status: 'Available' }), answered: true };
    case 4: return { kind: 'wrong types', data: call(id, 'MeterValues', { connectorId: 1, transactionId: 'x', meterValue: [{ timestamp: 'yesterday', sampledValue: [{ value: 5 }] }] }), answered: true };
    case 5: return { kind: 'unknown action', data: call(id, `FlyToTheMoon${i}`, {}), answered: true };
    case 6: return { kind: 'binary', data: Buffer.from(Array.from({ length: 64 }, (_, k) => (i * 31 + k * 7) % 256)), answered: true };
    case 7: return { kind: 'result for unknown id', data: JSON.stringify([3, `nobody${i}`, { status: 'Accepted' }]), answered: false };
    case 8: return { kind: 'error for unknown id', data: JSON.stringify([4, `nobody${i}`, 'GenericError', 'no', {}]), answered: false };
    case 9: return { kind: 'message id not a string', data: `[2,${i},"Heartbeat",{}]`, answered: true };
    case 10: return { kind: 'deep nesting', data: '['.repeat(5000) + ']'.repeat(5000), answered: true };
    default: return { kind: 'values out of range', data: call(id, 'StartTransaction', { connectorId: -1, idTag: 'X'.repeat(21), meterStart: 'lots', timestamp: 5 }), answered: true };
  }
}

export interface FloodResult {
  /** Frames written, by kind, and in all. */
  sent: number;
  byKind: Record<string, number>;
  /** Answers (CALLERRORs) the flood connections got. */
  answered: number;
  connections: number;
  /** Close codes of the connections the server closed. */
  closedByServer: Record<number, number>;
  /** Connection attempts refused, by reason (HTTP 429: the chargeBoxId cooling down; HTTP 429 for the address: refused). */
  refused: Record<string, number>;
  ms: number;
}

/**
 * Sends `frames` malformed frames over `connections` connections at once, each keeping at most
 * `window` answered frames unanswered (so what is counted as sent is what the server reads), at
 * most `perSecond` frames a second in all when given. chargeBoxIds are taken in turn from `ids`.
 */
export async function floodMalformed(opts: {
  wsUrl: string;
  ids: string[];
  connections: number;
  frames: number;
  window?: number;
  perSecond?: number;
  /** The address the flood connects from (another 127.x.x.x than the well-behaved chargers'). */
  localAddress?: string;
  /** Gives up what is left of the budget after this long (a refused flood would otherwise retry for ever). */
  deadlineMs?: number;
}): Promise<FloodResult> {
  const window = opts.window ?? 4;
  const r: FloodResult = { sent: 0, byKind: {}, answered: 0, connections: 0, closedByServer: {}, refused: {}, ms: 0 };
  const started = Date.now();
  let nextId = 0;
  let nextFrame = 0;
  const connect = (cpNo: string) => new Promise<WebSocket | string>((resolve) => {
    const ws = new WebSocket(`${opts.wsUrl}/ocpp/${encodeURIComponent(cpNo)}`, ['ocpp1.6'], { localAddress: opts.localAddress });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (req, res) => {
      // A 429 with Retry-After refuses the address; one without, the chargeBoxId (cooling down).
      resolve(`HTTP ${res.statusCode}${res.headers['retry-after'] ? ' for the address' : ''}`);
      req.destroy();
    });
    ws.on('error', (err) => resolve(err.message));
  });
  await Promise.all(Array.from({ length: opts.connections }, async () => {
    const deadline = started + (opts.deadlineMs ?? Infinity);
    while (nextFrame < opts.frames && Date.now() < deadline) {
      const ws = await connect(opts.ids[nextId++ % opts.ids.length]);
      if (typeof ws === 'string') {
        r.refused[ws] = (r.refused[ws] ?? 0) + 1;
        // Refused for the address: each flood connection tries again every second.
        await sleep(ws.endsWith('for the address') ? 1000 : 20);
        continue;
      }
      r.connections++;
      let outstanding = 0;
      let wake = () => {};
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => (wake(), resolve(code))));
      let lastAnswer = Date.now();
      ws.on('message', () => {
        lastAnswer = Date.now();
        r.answered++;
        outstanding--;
        wake();
      });
      const wait = () => new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
      while (ws.readyState === WebSocket.OPEN && nextFrame < opts.frames) {
        if (outstanding >= window) {
          // Unanswered for 10 s: the server has stopped reading this socket without closing it.
          if (Date.now() - lastAnswer > 10_000) break;
          await wait();
          continue;
        }
        if (opts.perSecond && nextFrame >= ((Date.now() - started) / 1000) * opts.perSecond) {
          await sleep(5);
          continue;
        }
        const f = malformedFrame(nextFrame++);
        ws.send(f.data, { binary: Buffer.isBuffer(f.data) });
        r.sent++;
        r.byKind[f.kind] = (r.byKind[f.kind] ?? 0) + 1;
        if (f.answered) outstanding++;
        else await new Promise((resolve) => setImmediate(resolve));
      }
      // The budget is spent: the last answers, then our close; or the server closed it.
      for (const until = Date.now() + 10_000; ws.readyState === WebSocket.OPEN && outstanding > 0 && Date.now() < until;) await wait();
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else {
        const code = await closed;
        r.closedByServer[code] = (r.closedByServer[code] ?? 0) + 1;
      }
      await closed;
    }
  }));
  r.ms = Date.now() - started;
  return r;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
