/**
 * The limits bench/ocpp-load.ts compares its figures against, measured in the same run on the
 * same machine and database (a busy shared machine makes absolute figures useless across runs):
 *
 * - rpc: an ocpp-rpc server in strict mode (the library's own ocpp1.6 and ocpp2.0.1 validators) that answers
 *   every call and does nothing else, in a child process of its own (this file with --no-work-server),
 *   driven by the same raw chargers and frames as the real server: calls/s, server CPU per call,
 *   and connect+boot per second and CPU.
 * - insert: multi-row INSERTs of the rows a MeterValues writes (one cp_requests and one
 *   cp_meter_values row, the same columns, JSON and indexes) into the bench's database, one
 *   transaction per batch of one row pair per charger, back to back: rows/s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Database } from '../packages/server/src/db/client.ts';
import { meterLoop, pool, RawCharger, type MeterLoopResult } from './ocpp-raw-charger.ts';
import type { Protocol } from './ocpp-frames.ts';
import { message, serverSample, type ServerSample } from './child.ts';

/** Child: the no-work server. */
async function serveNoWork(): Promise<void> {
  const { RPCServer } = await import('ocpp-rpc');
  // Both versions, as the real endpoint offers them: each raw charger offers the one of its run.
  const rpc = new RPCServer({ protocols: ['ocpp2.0.1', 'ocpp1.6'], strictMode: true, callConcurrency: 1 });
  rpc.on('client', (client) => {
    // The same answer is valid in both versions.
    client.handle('BootNotification', () => ({ status: 'Accepted', currentTime: new Date().toISOString(), interval: 30 }));
    client.handle('MeterValues', () => ({}));
    client.handle('TransactionEvent', () => ({}));
  });
  const http = await rpc.listen(0, '127.0.0.1');
  const address = http.address() as { port: number };
  serverSample(); // starts the event-loop delay measure (--loop-delay)
  process.send!({ type: 'ready', port: address.port });
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'cpu') {
      process.send!(serverSample());
    } else if (m.type === 'close') {
      await rpc.close({ force: true });
      process.exit(0);
    }
  });
}

/**
 * The no-work server in a child process of its own, with the real server's Node.js flags, and its
 * own fleet of chargers: kept running beside the real server, so that bench/ocpp-load.ts can
 * measure the two in turns and compare figures taken under the same load of the machine.
 */
export class NoWorkServer {
  private fleet: RawCharger[] = [];

  private constructor(private readonly child: ChildProcess, private readonly port: number, private readonly protocol: Protocol) {}

  /** Its chargers speak `protocol`, as the real server's do in the run. */
  static async start(execArgv: string[], protocol: Protocol = 'ocpp1.6'): Promise<NoWorkServer> {
    const child = fork(fileURLToPath(import.meta.url), ['--no-work-server'], { execArgv: [...execArgv, '--import', 'tsx'] });
    const { port } = await message(child, 'ready');
    return new NoWorkServer(child, port, protocol);
  }

  /** The no-work server's CPU time so far, in ms, and its event loop's delays since the last sample. */
  async sample(): Promise<ServerSample> {
    this.child.send({ type: 'cpu' });
    return message(this.child, 'cpu');
  }

  async cpuMs(): Promise<number> {
    return (await this.sample()).cpuMs;
  }

  /** Connects and boots `n` chargers, 200 at a time as the real bench does; keeps the first `keep`. */
  async boot(n: number, keep: number): Promise<{ perSecond: number; cpuMsEach: number; n: number }> {
    const booting = Array.from({ length: n }, (_, i) => new RawCharger('127.0.0.1', this.port, `N${i + 1}`, this.protocol));
    const c0 = await this.cpuMs();
    const t0 = performance.now();
    await pool(booting, 200, (c) => c.boot());
    const seconds = (performance.now() - t0) / 1000;
    const cpuMsEach = ((await this.cpuMs()) - c0) / n;
    for (const c of booting.slice(keep)) c.terminate();
    this.fleet = booting.slice(0, keep);
    return { perSecond: n / seconds, cpuMsEach, n };
  }

  /** One turn of the MeterValues loop on the kept chargers: closed, or paced at one call per `intervalMs` each. */
  meter(seconds: number, intervalMs = 0): Promise<MeterLoopResult> {
    const txs = this.fleet.map((_, i) => (this.protocol === 'ocpp1.6' ? i + 1 : `nowork-${i + 1}`));
    return meterLoop(this.fleet, txs, seconds, intervalMs);
  }

  async close(): Promise<void> {
    for (const c of this.fleet) c.terminate();
    this.child.send({ type: 'close' });
    await new Promise((r) => this.child.once('exit', r));
  }
}

/**
 * Inserts the rows of `sessions.length` MeterValues per transaction, as fast as one connection
 * can, for `seconds`: the database's own rate for these rows. The parameters are built once, so
 * the figure is the database's, not this process's.
 */
export async function insertBaseline(
  db: Database,
  sessions: { sessionId: number; cpId: number; cpNo: string; locId: number }[],
  seconds: number,
): Promise<{ rowsPerSecond: number; transactions: number; msPerTransaction: number }> {
  const ts = new Date().toISOString();
  const requestData = (s: { sessionId: number }) =>
    JSON.stringify({ connectorId: 1, transactionId: s.sessionId, meterValue: [{ timestamp: ts, sampledValue: [
      { value: '12340', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
      { value: '230.1', measurand: 'Voltage', unit: 'V' },
      { value: '16.0', measurand: 'Current.Import', unit: 'A' }] }] });
  const col = <T>(f: (s: (typeof sessions)[number], i: number) => T) => sessions.map(f);
  const requests = [
    col(() => 11), col((s) => s.cpId), col((s) => s.cpNo), col(() => null), col(() => 1), col(() => null),
    col(requestData), col(() => '{}'), col(() => ts), col((s) => s.sessionId), col((s) => s.sessionId),
    col((_, i) => `baseline-${i}`), col((s) => s.locId), col(() => 12340), col(() => 230.1), col(() => 16),
  ];
  const meters = [
    col((s) => s.sessionId), col((s) => s.cpId), col(() => 1), col(() => ts), col(() => 12340), col(() => 230.1),
    col(() => 16), col(() => null),
  ];
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let transactions = 0;
  while (performance.now() < end) {
    await db.tx(async (sql) => {
      await sql.query(
        `INSERT INTO cp_requests (request_type, cp_id, cp_no, charge_box_serial_number, connector_id, connector_status,
           request_data, response_data, cre_dttm, session_id, tran_id, uuid, loc, energy, voltage, ampere)
         SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::jsonb[],
                              $9::timestamptz[], $10::int[], $11::int[], $12::text[], $13::int[], $14::int8[], $15::float8[], $16::float8[])`,
        requests,
      );
      await sql.query(
        `INSERT INTO cp_meter_values (session_id, cp_id, connector_id, ts, energy, voltage, ampere, soc)
         SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::timestamptz[], $5::int8[], $6::float8[], $7::float8[], $8::float8[])`,
        meters,
      );
    });
    transactions++;
  }
  const secs = (performance.now() - t0) / 1000;
  return { rowsPerSecond: (transactions * sessions.length * 2) / secs, transactions, msPerTransaction: (secs * 1000) / transactions };
}

if (process.argv.includes('--no-work-server')) await serveNoWork();
