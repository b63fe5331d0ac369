import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, connectCharger } from '../testing/ocpp-support.ts';

/** A remote start's duration: the session gets a planned end and is stopped remotely once it passes. */
describe('OCPP planned stops', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let cpId: number;
  const stops: number[] = [];
  let answer = 'Accepted';

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'CP-PS1');
    await addCard(s.db, ['M-1', 'OWN', 'X']);
    cp = await connectCharger(s.wsUrl, 'CP-PS1', {
      handlers: {
        RemoteStartTransaction: () => ({ status: 'Accepted' }),
        RemoteStopTransaction: (p) => {
          stops.push(p.transactionId);
          return { status: answer };
        },
      },
    });
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  const start = (body: object) => s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body });
  const session = async (tranId: number) => (await s.db.query(`SELECT * FROM cp_sessions WHERE tran_id = $1`, [tranId]))[0];
  const stopLogs = async (tranId: number) =>
    s.db.query(`SELECT response_data FROM cp_requests WHERE request_type = 14 AND tran_id = $1 AND cp_id = $2 ORDER BY req_id`, [tranId, cpId]);

  it('stores the planned end of the session a timed remote start leads to, and stops it once, after that end', async () => {
    expect((await start({ connectorId: 1, time: '90', memberId: 'M-1' })).body.status).toBe('success');
    const at = new Date();
    const tx: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'M-1', meterStart: 0, timestamp: at.toISOString() });
    expect(new Date((await session(tx.transactionId)).planned_end_dttm).getTime()).toBe(at.getTime() + 90 * 60_000);

    await s.app.ocpp.plannedStops.tick(new Date(at.getTime() + 89 * 60_000));
    expect(stops).toEqual([]);
    await s.app.ocpp.plannedStops.tick(new Date(at.getTime() + 91 * 60_000));
    expect(stops).toEqual([tx.transactionId]);
    expect((await session(tx.transactionId)).planned_stop_sent_dttm).not.toBeNull();
    expect(await stopLogs(tx.transactionId)).toEqual([{ response_data: { status: 'Accepted' } }]);
    // Checks that follow (the charger has not sent its StopTransaction yet) do not send it again.
    await Promise.all([s.app.ocpp.plannedStops.tick(new Date(at.getTime() + 92 * 60_000)), s.app.ocpp.plannedStops.tick()]);
    await s.app.ocpp.plannedStops.tick(new Date(at.getTime() + 93 * 60_000));
    expect(stops).toEqual([tx.transactionId]);
    await cp.call('StopTransaction', { transactionId: tx.transactionId, meterStop: 100, timestamp: new Date().toISOString(), reason: 'Remote' });
  });

  it('a session due while its charger is offline is stopped once it is back, even after a restart of the check', async () => {
    const tx: any = await cp.call('StartTransaction', { connectorId: 2, idTag: 'OWN', meterStart: 0, timestamp: new Date().toISOString() });
    expect((await session(tx.transactionId)).planned_end_dttm).toBeNull(); // no timed remote start for OWN
    // The end as a restarted server finds it in the database, already past.
    await s.db.query(`UPDATE cp_sessions SET planned_end_dttm = now() - interval '1 minute' WHERE tran_id = $1`, [tx.transactionId]);
    answer = 'Rejected';
    await s.app.ocpp.plannedStops.tick();
    expect(stops.at(-1)).toBe(tx.transactionId);
    // A refusal is the charger's answer: logged, not retried every check.
    expect((await stopLogs(tx.transactionId))[0].response_data).toMatchObject({ status: 'Rejected' });
    const sent = stops.length;
    await s.app.ocpp.plannedStops.tick();
    expect(stops.length).toBe(sent);
  });

  it('gives the claim back when the charger cannot be reached, and refuses absurd durations', async () => {
    const other = await addCharger(s.db, 'CP-PS2');
    const c2 = await connectCharger(s.wsUrl, 'CP-PS2', { handlers: { RemoteStopTransaction: () => new Promise((r) => setTimeout(() => r({ status: 'Accepted' }), 1000)) } });
    const tx: any = await c2.call('StartTransaction', { connectorId: 1, idTag: 'X', meterStart: 0, timestamp: new Date().toISOString() });
    await s.db.query(`UPDATE cp_sessions SET planned_end_dttm = now() WHERE tran_id = $1`, [tx.transactionId]);
    s.app.ocpp.commands.timeoutMs = 200;
    try {
      await s.app.ocpp.plannedStops.tick(new Date(Date.now() + 1000));
    } finally {
      s.app.ocpp.commands.timeoutMs = 30_000;
    }
    expect((await session(tx.transactionId)).planned_stop_sent_dttm).toBeNull();
    const [log] = await s.db.query(`SELECT response_data FROM cp_requests WHERE request_type = 14 AND cp_id = $1`, [other]);
    expect(log.response_data.error).toMatch(/in time/);
    await c2.close();
    expect((await start({ connectorId: 1, time: 60 * 24 * 400 })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.INVALID_DURATION });
  });
});
