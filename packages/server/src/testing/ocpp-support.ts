import { RPCClient } from 'ocpp-rpc';
import type { RPC_ClientOptions } from 'ocpp-rpc/lib/client';
import WebSocket from 'ws';
import { hashPassword } from '../crypto/passwords.ts';
import type { Sql } from '../db/client.ts';

/** Fixtures and a raw OCPP charger for the OCPP tests (the simulator package stands in later). */

let sites = 0;

export async function addSite(sql: Sql): Promise<number> {
  const [row] = await sql.query(`INSERT INTO cp_locs (address) VALUES ($1) RETURNING loc_id`, [`Site ${++sites} ${Date.now()}`]);
  return row.loc_id;
}

export async function addCharger(
  sql: Sql,
  cpNo: string,
  opts: { locId?: number; password?: string; enable?: 0 | 1; heartbeatInterval?: number; doubleUse?: 0 | 1 } = {},
): Promise<number> {
  const locId = opts.locId ?? (await addSite(sql));
  const [row] = await sql.query(
    `INSERT INTO cps (cp_no, name, loc_id, enable_flag, heartbeat_interval, ocpp_password_hash, double_use_flag)
     VALUES ($1, $1, $2, $3, $4, $5, $6) RETURNING cp_id`,
    [cpNo, locId, opts.enable ?? 1, opts.heartbeatInterval ?? 30, opts.password ? await hashPassword(opts.password) : null, opts.doubleUse ?? 0],
  );
  return row.cp_id;
}

/** An active RFID card valid at every site, holding these idTags: StartTransaction accepts them. */
export async function addCard(sql: Sql, idTags: string[]): Promise<void> {
  await sql.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ($1, $2, 1)`, [`card ${idTags[0]}`, idTags.join(',')]);
}

/** Connects an ocpp-rpc client as charger cpNo (strict: it validates what the server answers). */
export async function connectCharger(
  wsUrl: string,
  cpNo: string,
  opts: { password?: string; handlers?: Record<string, (params: any) => unknown>; protocol?: 'ocpp1.6' | 'ocpp2.0.1' } = {},
): Promise<RPCClient> {
  const client = new RPCClient({
    endpoint: `${wsUrl}/ocpp`,
    identity: cpNo,
    ...(opts.password ? { password: opts.password } : {}),
    protocols: [opts.protocol ?? 'ocpp1.6'],
    strictMode: true,
    reconnect: false,
  } as Partial<RPC_ClientOptions> as RPC_ClientOptions);
  for (const [method, fn] of Object.entries(opts.handlers ?? {})) client.handle(method, async ({ params }) => (await fn(params)) as Record<string, any>);
  await client.connect();
  return client;
}

/** Tries an upgrade and reports the HTTP status of a refusal, or 101 when accepted (then closes). */
export function upgradeStatus(url: string, opts: { protocols?: string[]; auth?: string } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, opts.protocols ?? ['ocpp1.6'], { headers: opts.auth ? { authorization: opts.auth } : {} });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

/** A raw socket speaking OCPP-J frames by hand, for malformed-frame tests. */
export async function rawCharger(wsUrl: string, cpNo: string, localAddress?: string, protocol = 'ocpp1.6'): Promise<{
  ws: WebSocket;
  send(frame: string): void;
  next(): Promise<any[]>;
  closed: Promise<{ code: number }>;
}> {
  const ws = new WebSocket(`${wsUrl}/ocpp/${encodeURIComponent(cpNo)}`, [protocol], { localAddress });
  const inbox: any[][] = [];
  const waiters: ((m: any[]) => void)[] = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    const w = waiters.shift();
    if (w) w(msg);
    else inbox.push(msg);
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    send: (frame) => ws.send(frame),
    next: () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    closed,
  };
}

export const BOOT = { chargePointVendor: 'Acme', chargePointModel: 'AC22' };

/** Polls until fn returns a truthy value (state written after a socket event). */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The conformance tool's log of what the server sent the charger: `record(action, answer)` makes a handler for
 * connectCharger that keeps each call before answering it; `last(action)` is the latest call's payload.
 */
export function callRecorder() {
  const received: { action: string; params: any }[] = [];
  return {
    received,
    last: (action: string) => received.filter((r) => r.action === action).at(-1)?.params,
    record: (action: string, answer: (params: any) => object) => (params: any) => {
      received.push({ action, params });
      return answer(params);
    },
  };
}
