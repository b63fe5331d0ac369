/**
 * Test support, not production code (only tests import it): a real HTTP payment gateway in the
 * test process (node:http) whose next answers the test chooses, and Unsettled RSRs made in SQL.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from '../db/client.ts';

/**
 * An RSR that ended owing `amount` cents, as the RSR lifecycle leaves it: cp_rsr Unsettled with
 * its payment_result Unsettled. Answers the rsr_id and the payment_result id.
 */
export async function addUnsettledRsr(
  sql: Sql,
  cpId: number,
  opts: { amount?: number; member?: string; status?: string; paymentStatus?: string | null } = {},
): Promise<{ rsrId: number; resultId: number }> {
  const [rsr] = await sql.query(
    `INSERT INTO cp_rsr (external_account_id, cp_id, connector_id, status, payment_status, current_unit_session, max_charging_unit,
       charging_fee, penalty_fee, point, redeem_voucher_sessions, duration, unit_in_minutes, start_time, end_time,
       gracing_period_end_dttm, actual_end_time, actual_finished_time)
     VALUES ($1, $2, 1, $3, $4, 2, 4, 1200, 300, 5, 1, 30, 15, '2026-11-20 10:00+08', '2026-11-20 10:30+08',
       '2026-11-20 10:45+08', '2026-11-20 10:30+08', '2026-11-20 11:02:30+08')
     RETURNING rsr_id`,
    [opts.member ?? 'MEMBER-1', cpId, opts.status ?? 'Unsettled', opts.paymentStatus === undefined ? 'Unsettled' : opts.paymentStatus],
  );
  const [pr] = await sql.query(`INSERT INTO payment_result (rsr_id, status, amount) VALUES ($1, 'Unsettled', $2) RETURNING id`, [rsr.rsr_id, opts.amount ?? 1500]);
  return { rsrId: rsr.rsr_id, resultId: pr.id };
}

export type StubAnswer =
  | 'approve'
  | 'decline'
  /** HTTP 500. */
  | 'error'
  /** 200 with a body that is not JSON. */
  | 'garbage'
  /** 200 with JSON that says neither approved nor declined. */
  | 'malformed'
  /** Never answers (the caller's timeout ends it). */
  | 'hang';

export interface StubCall {
  headers: IncomingHttpHeaders;
  body: any;
}

export interface StubGateway {
  url: string;
  key: string;
  /** Every request received, in order. */
  calls: StubCall[];
  /** Answers for the next calls, in order; 'approve' once they run out. */
  answers: StubAnswer[];
  /** Holds every answer until this resolves (to catch two calls at once). */
  gate?: Promise<void>;
  close(): Promise<void>;
}

export async function startStubGateway(key = 'stub-secret-key'): Promise<StubGateway> {
  let seq = 0;
  const hanging = new Set<() => void>();
  const stub: StubGateway = {
    url: '',
    key,
    calls: [],
    answers: [],
    close: () =>
      new Promise<void>((ok) => {
        for (const end of hanging) end();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* recorded as null */
      }
      stub.calls.push({ headers: req.headers, body });
      const answer = stub.answers.shift() ?? 'approve';
      if (stub.gate) await stub.gate;
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.headers.authorization !== `Bearer ${key}`) return json(401, { status: 'Declined', message: 'bad key' });
      switch (answer) {
        case 'approve':
          return json(200, { status: 'Approved', transactionReference: `TXN-${++seq}`, message: 'Approved' });
        case 'decline':
          return json(200, { status: 'Declined', message: 'Insufficient funds' });
        case 'error':
          return json(500, { message: 'gateway down' });
        case 'garbage':
          return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
        case 'malformed':
          return json(200, { ok: true });
        case 'hang':
          hanging.add(() => res.destroy());
          return;
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/charge`;
  return stub;
}
