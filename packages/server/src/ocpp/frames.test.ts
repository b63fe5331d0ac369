import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, connectCharger, rawCharger } from '../testing/ocpp-support.ts';
import { payloadText } from './inbound.ts';

/** Malformed and unexpected frames get the CALLERROR codes of OCPP-J 1.6 §4.2.3 and leave other chargers alone. */
describe('OCPP-J framing', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    for (const no of ['CP-F1', 'CP-F2', 'CP-F3']) await addCharger(s.db, no);
  });
  afterAll(() => s.close());

  const call = (id: string, action: string, payload: unknown) => JSON.stringify([2, id, action, payload]);

  it('answers each malformed frame with the right 1.6 code and keeps the connection', async () => {
    const raw = await rawCharger(s.wsUrl, 'CP-F1');
    const cases: [string, string, string][] = [
      ['{not json', '-1', 'FormationViolation'],
      [JSON.stringify({ a: 1 }), '-1', 'FormationViolation'],
      [JSON.stringify([9, 'x9', 'Heartbeat', {}]), '-1', 'ProtocolError'],
      [call('u1', 'FlyToTheMoon', {}), 'u1', 'NotImplemented'],
      [call('u2', 'Reset', { type: 'Hard' }), 'u2', 'NotSupported'],
      [call('r1', 'BootNotification', { chargePointVendor: 'A' }), 'r1', 'OccurenceConstraintViolation'],
      [call('t1', 'StatusNotification', { connectorId: 'one', errorCode: 'NoError', status: 'Available' }), 't1', 'TypeConstraintViolation'],
      [call('p1', 'StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Sleeping' }), 'p1', 'PropertyConstraintViolation'],
      [call('p2', 'BootNotification', { chargePointVendor: 'A'.repeat(21), chargePointModel: 'M' }), 'p2', 'PropertyConstraintViolation'],
      [call('f1', 'Heartbeat', { extra: true }), 'f1', 'FormationViolation'],
      [call('p3', 'StatusNotification', { connectorId: 3_000_000_000, errorCode: 'NoError', status: 'Available' }), 'p3', 'PropertyConstraintViolation'],
      // Refused before they are parsed: no message type first, and a call larger than any valid one of its action.
      ['['.repeat(5000) + ']'.repeat(5000), '-1', 'FormationViolation'],
      [' [ "2", "s1", "Heartbeat", {}]', '-1', 'FormationViolation'],
      [call('h1', 'BootNotification', { chargePointVendor: 'A', chargePointModel: 'M', iccid: 'x'.repeat(20_000) }), 'h1', 'FormationViolation'],
      // Through the checks above: whitespace around the type, a large call of an action whose frames may be large.
      [` [ 2 , "d1", "DataTransfer", ${JSON.stringify({ vendorId: 'x'.repeat(300), data: 'x'.repeat(100_000) })}]`, 'd1', 'PropertyConstraintViolation'],
    ];
    for (const [frame, id, code] of cases) {
      raw.send(frame);
      const answer = await raw.next();
      expect(answer.slice(0, 3), frame).toEqual([4, id, code]);
    }
    raw.send(call('ok', 'Heartbeat', {}));
    const ok = await raw.next();
    expect(ok[0]).toBe(3);
    expect(ok[1]).toBe('ok');
    raw.send(` [2, "big", "DataTransfer", ${JSON.stringify({ vendorId: 'V', data: 'y'.repeat(100_000) })}]`);
    expect((await raw.next()).slice(0, 2)).toEqual([3, 'big']);
    raw.ws.close();
  });

  it('answers a frame holding no readable call with RpcFrameworkError on a 2.0.1 connection, FormationViolation on 1.6', async () => {
    const unreadable = ['{not json', JSON.stringify({ a: 1 }), '["2", "x", "Heartbeat", {}]', '[2, 17, "Heartbeat", {}]', '[2, "m1", 5, {}]', '[[['];
    const raw201 = await rawCharger(s.wsUrl, 'CP-F1', undefined, 'ocpp2.0.1');
    const raw16 = await rawCharger(s.wsUrl, 'CP-F3');
    for (const frame of unreadable) {
      raw201.send(frame);
      expect((await raw201.next())[2], frame).toBe('RpcFrameworkError');
      raw16.send(frame);
      expect((await raw16.next())[2], frame).toBe('FormationViolation');
    }
    // A readable call still gets its 2.0.1 codes: a payload against its schema, an unknown message type.
    raw201.send(call('f2', 'Heartbeat', { extra: true }));
    expect((await raw201.next()).slice(0, 3)).toEqual([4, 'f2', 'FormatViolation']);
    raw201.send(JSON.stringify([9, 'x9', 'Heartbeat', {}]));
    expect((await raw201.next())[2]).toBe('MessageTypeNotSupported');
    raw201.send(call('ok', 'Heartbeat', {}));
    expect((await raw201.next()).slice(0, 2)).toEqual([3, 'ok']);
    raw201.ws.close();
    raw16.ws.close();
  });

  it('closes a socket that sends a huge frame, without affecting another charger', async () => {
    const other = await connectCharger(s.wsUrl, 'CP-F3');
    const raw = await rawCharger(s.wsUrl, 'CP-F2');
    raw.send(call('big', 'DataTransfer', { vendorId: 'x', data: 'x'.repeat(1024 * 1024) }));
    expect((await raw.closed).code).toBe(1009);
    expect(await other.call('Heartbeat', {})).toHaveProperty('currentTime');
    await other.close();
  });

  it('closes a socket after too many consecutive unparsable frames', async () => {
    const raw = await rawCharger(s.wsUrl, 'CP-F2');
    for (let i = 0; i < 11; i++) raw.send('garbage');
    expect((await raw.closed).code).toBe(1002);
  });

  it('logs the payload as the charger wrote it: commas, quotes and brackets in the id and strings', async () => {
    const raw = await rawCharger(s.wsUrl, 'CP-F3');
    const payload = { vendorId: 'V', messageId: 'a, "b" ]', data: '[1, 2] \\ "x"' };
    const id = 'id, "quoted" \\ ]';
    raw.send(`[ 2 ,\n ${JSON.stringify(id)} , "DataTransfer",\t${JSON.stringify(payload, null, 2)}\n]  `);
    expect((await raw.next()).slice(0, 2)).toEqual([3, id]);
    const [row] = await s.db.query(
      `SELECT request_data FROM cp_requests WHERE cp_no = 'CP-F3' AND request_type = 7 ORDER BY req_id DESC LIMIT 1`,
    );
    expect(row.request_data).toEqual(payload);
    raw.ws.close();
  });
});

describe('payloadText', () => {
  it('is the fourth element of a CALL as written', () => {
    expect(payloadText('[2,"a","Heartbeat",{}]')).toBe('{}');
    expect(payloadText(' [ 2 , "a,\\"b" , "X" ,  {"k": [1, "]"]} ] ')).toBe('{"k": [1, "]"]}');
    expect(payloadText('[2,"a\\\\","X",{"v":1}]')).toBe('{"v":1}');
  });
});

