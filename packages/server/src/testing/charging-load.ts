import WebSocket from 'ws';
import type { Sql } from '../db/client.ts';

/**
 * Chargers charging in a loop (StartTransaction, MeterValues, StopTransaction), each keeping a
 * record of every call it made and how it was answered, so that a fault test can check the
 * central system's promise message by message: what was acknowledged is stored, what was not got
 * a CALLERROR, nothing went unanswered. Like real chargers they send one call at a time, retry a
 * refused transaction message, and reconnect when the socket drops.
 */

export type Outcome = 'pending' | 'ack' | 'callerror' | 'timeout' | 'lost';

export interface CallRecord {
  cpNo: string;
  messageId: string;
  action: 'BootNotification' | 'StartTransaction' | 'MeterValues' | 'StopTransaction';
  params: any;
  outcome: Outcome;
  sentAt: number;
  answeredAt?: number;
  errorCode?: string;
  result?: any;
}

export interface ChargingLoadOptions {
  /** ws://host:port of the central system. */
  wsUrl: string;
  cpNos: string[];
  idTag: string;
  meterIntervalMs?: number;
  metersPerSession?: number;
  /** A call unanswered this long counts as 'timeout' (silence). */
  callTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class LoadCharger {
  readonly calls: CallRecord[] = [];
  private ws: WebSocket | null = null;
  private seq = 0;
  private meter = 0;
  private pendingStart?: Record<string, unknown>;
  /** A stop not acknowledged (the socket or the server went away): sent again first after reconnecting. */
  private pendingStop?: Record<string, unknown>;
  private readonly waiting = new Map<string, (frame: any[] | null) => void>();

  constructor(
    readonly cpNo: string,
    private readonly opts: Required<ChargingLoadOptions>,
  ) {}

  get acks(): number {
    return this.calls.reduce((n, c) => n + (c.outcome === 'ack' ? 1 : 0), 0);
  }

  async run(running: () => boolean): Promise<void> {
    while (running()) {
      if (!(await this.connect())) {
        await sleep(200);
        continue;
      }
      if ((await this.call('BootNotification', { chargePointVendor: 'Load', chargePointModel: 'Fault' })).outcome !== 'ack') {
        await sleep(200);
        continue;
      }
      while (running() && this.ws?.readyState === WebSocket.OPEN) await this.session(running);
    }
    this.ws?.close();
  }

  /** One charging session; a transaction message refused with a CALLERROR is sent again, as chargers do. */
  private async session(running: () => boolean): Promise<void> {
    if (this.pendingStop) {
      if ((await this.call('StopTransaction', this.pendingStop)).outcome !== 'ack') return void (await sleep(200));
      this.pendingStop = undefined;
      if (!running()) return;
    }
    // A refused start is sent again as it was (same timestamp), as chargers retry transaction messages.
    this.pendingStart ??= { connectorId: 1, idTag: this.opts.idTag, meterStart: this.meter, timestamp: new Date().toISOString() };
    const start = await this.call('StartTransaction', this.pendingStart);
    if (start.outcome !== 'ack') return void (await sleep(100));
    this.pendingStart = undefined;
    const transactionId = start.result.transactionId;
    for (let i = 0; i < this.opts.metersPerSession && running(); i++) {
      await sleep(this.opts.meterIntervalMs);
      this.meter += 100;
      await this.call('MeterValues', {
        connectorId: 1, transactionId,
        meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: String(this.meter), measurand: 'Energy.Active.Import.Register', unit: 'Wh' }] }],
      });
    }
    const stop = { transactionId, meterStop: this.meter, timestamp: new Date().toISOString(), reason: 'Local' };
    // The stop must get through, even after the test says stop: a session is left open otherwise.
    // Like a charger's queue of transaction messages, it is kept until acknowledged (see pendingStop).
    this.pendingStop = stop;
    for (let tries = 0; tries < 50 && this.ws?.readyState === WebSocket.OPEN; tries++) {
      if ((await this.call('StopTransaction', stop)).outcome === 'ack') return void (this.pendingStop = undefined);
      await sleep(200);
    }
  }

  private connect(): Promise<boolean> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${this.opts.wsUrl}/ocpp/${this.cpNo}`, ['ocpp1.6']);
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame[0] === 2) {
          ws.send(JSON.stringify([4, frame[1], 'NotImplemented', 'load charger', {}])); // no command expected here
          return;
        }
        this.waiting.get(frame[1])?.(frame);
      });
      ws.once('open', () => {
        this.ws = ws;
        resolve(true);
      });
      ws.once('error', () => resolve(false));
      ws.once('close', () => {
        for (const w of [...this.waiting.values()]) w(null);
      });
    });
  }

  private call(action: CallRecord['action'], params: any): Promise<CallRecord> {
    const record: CallRecord = { cpNo: this.cpNo, messageId: `${this.cpNo}-${++this.seq}`, action, params, outcome: 'pending', sentAt: Date.now() };
    this.calls.push(record);
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(undefined), this.opts.callTimeoutMs);
      const answer = (frame: any[] | null | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(record.messageId);
        record.answeredAt = Date.now();
        if (frame === undefined) record.outcome = 'timeout';
        else if (frame === null) record.outcome = 'lost';
        else if (frame[0] === 3) {
          record.outcome = 'ack';
          record.result = frame[2];
        } else {
          record.outcome = 'callerror';
          record.errorCode = frame[2];
        }
        resolve(record);
      };
      if (this.ws?.readyState !== WebSocket.OPEN) return answer(null);
      this.waiting.set(record.messageId, answer);
      this.ws.send(JSON.stringify([2, record.messageId, action, params]));
    });
  }
}

export interface ChargingLoad {
  chargers: LoadCharger[];
  /** Every call of every charger so far. */
  calls(): CallRecord[];
  /** Resolves once every charger has at least `n` more acknowledged calls than now (charging goes on). */
  progressed(n: number, timeoutMs: number): Promise<boolean>;
  /** Ends the loops (open sessions are stopped first) and closes the sockets. */
  stop(): Promise<void>;
}

export function startChargingLoad(options: ChargingLoadOptions): ChargingLoad {
  const opts = { meterIntervalMs: 200, metersPerSession: 5, callTimeoutMs: 15_000, ...options };
  let running = true;
  const chargers = opts.cpNos.map((cpNo) => new LoadCharger(cpNo, opts));
  const loops = chargers.map((c) => c.run(() => running));
  return {
    chargers,
    calls: () => chargers.flatMap((c) => c.calls),
    async progressed(n, timeoutMs) {
      const base = chargers.map((c) => c.acks);
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (chargers.every((c, i) => c.acks >= base[i] + n)) return true;
        await sleep(100);
      }
      return false;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export interface DurabilityReport {
  acknowledged: number;
  refused: number;
  /** Acknowledged messages with no cp_requests row (must be empty). */
  missingRequests: string[];
  /** Acknowledged StartTransactions whose session is not there. */
  missingSessions: number[];
  /** Acknowledged StopTransactions whose session is not closed with their meter reading. */
  unappliedStops: number[];
  /** Calls answered neither with a result nor with a CALLERROR (must be empty). */
  unanswered: CallRecord[];
  /** CALLERROR codes received, with their counts. */
  errorCodes: Record<string, number>;
}

/** Checks every call against the database: the acknowledged ones must be there, to the message. */
export async function checkDurability(sql: Sql, calls: CallRecord[]): Promise<DurabilityReport> {
  const acked = calls.filter((c) => c.outcome === 'ack' && c.action !== 'BootNotification');
  const ids = acked.map((c) => c.messageId);
  const stored = new Set(
    (await sql.query<{ uuid: string }>(`SELECT uuid FROM cp_requests WHERE uuid = ANY($1::text[])`, [ids])).map((r) => r.uuid),
  );
  const starts = acked.filter((c) => c.action === 'StartTransaction').map((c) => c.result.transactionId as number);
  const sessions = new Map(
    (await sql.query<{ tran_id: number; end_meter: number | null }>(
      `SELECT tran_id, end_meter FROM cp_sessions WHERE tran_id = ANY($1::int[])`,
      [starts],
    )).map((r) => [r.tran_id, r]),
  );
  const stops = acked.filter((c) => c.action === 'StopTransaction');
  const errorCodes: Record<string, number> = {};
  for (const c of calls) if (c.outcome === 'callerror') errorCodes[c.errorCode!] = (errorCodes[c.errorCode!] ?? 0) + 1;
  return {
    acknowledged: acked.length,
    refused: calls.filter((c) => c.outcome === 'callerror').length,
    missingRequests: ids.filter((id) => !stored.has(id)),
    missingSessions: starts.filter((t) => !sessions.has(t)),
    unappliedStops: stops
      .filter((c) => sessions.get(c.params.transactionId)?.end_meter !== c.params.meterStop)
      .map((c) => c.params.transactionId),
    unanswered: calls.filter((c) => c.outcome === 'timeout' || c.outcome === 'lost'),
    errorCodes,
  };
}
