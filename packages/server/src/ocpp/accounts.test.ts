import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';

/** Authorize, StartTransaction and the remote start honour accounts (their cards and their vehicles'). */
describe('OCPP authorization by account', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let here: number;
  let elsewhere: number;
  let cpId: number;
  let connector = 0;
  const remoteStarts: any[] = [];

  const account = async (sql: string, params: unknown[]) => (await s.db.query(sql, params))[0].acc_id as number;
  const authorize = async (idTag: string) => ((await cp.call('Authorize', { idTag })) as any).idTagInfo.status;
  const start = async (idTag: string) => {
    const res: any = await cp.call('StartTransaction', { connectorId: ++connector, idTag, meterStart: 0, timestamp: new Date().toISOString() });
    const [session] = await s.db.query(`SELECT account_id, id_tag_status FROM cp_sessions WHERE tran_id = $1`, [res.transactionId]);
    return { status: res.idTagInfo.status, ...session };
  };

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    here = await addSite(s.db);
    elsewhere = await addSite(s.db);
    cpId = await addCharger(s.db, 'CP-ACC1', { locId: here });
    cp = await connectCharger(s.wsUrl, 'CP-ACC1', { handlers: { RemoteStartTransaction: (p) => (remoteStarts.push(p), { status: 'Accepted' }) } });
    const insert = `INSERT INTO accounts (mobile_no, rfid_cards, acc_status, loc_ids) VALUES ($1, $2, $3, $4::int[]) RETURNING acc_id`;
    await account(insert, ['1', 'ACTIVE-1,active-2', 1, []]);
    await account(insert, ['2', 'HERE-1', 1, [here]]);
    await account(insert, ['3', 'AWAY-1', 1, [elsewhere]]);
    await account(insert, ['4', 'OFF-1', 0, []]);
    const withCar = await account(insert, ['5', '', 1, []]);
    await s.db.query(`INSERT INTO account_vehicles (acc_id, car_reg_no, rfid_cards, acc_status) VALUES ($1, 'CAR1', 'CAR-1', 1), ($1, 'CAR2', 'CAR-OFF', 0)`, [withCar]);
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('on', 'CARD-ON', 1), ('off', 'CARD-OFF', 0)`);
    await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active, loc) VALUES ('away', 'CARD-AWAY', 1, $1)`, [elsewhere]);
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  it('answers Authorize by the account: Accepted when active and valid here, Blocked when inactive, Invalid when unknown', async () => {
    const expected: Record<string, string> = {
      'ACTIVE-1': 'Accepted', 'Active-2': 'Accepted', 'HERE-1': 'Accepted', 'CAR-1': 'Accepted', 'CARD-ON': 'Accepted',
      'OFF-1': 'Blocked', 'CAR-OFF': 'Blocked', 'CARD-OFF': 'Blocked',
      'AWAY-1': 'Invalid', 'CARD-AWAY': 'Invalid', 'NOBODY': 'Invalid',
    };
    const got: Record<string, string> = {};
    for (const tag of Object.keys(expected)) got[tag] = await authorize(tag);
    expect(got).toEqual(expected);
  });

  it('links the session to its account at StartTransaction, and refuses as Authorize does', async () => {
    const ids = Object.fromEntries((await s.db.query(`SELECT mobile_no, acc_id FROM accounts`)).map((r) => [r.mobile_no, r.acc_id]));
    expect(await start('active-1')).toEqual({ status: 'Accepted', account_id: ids['1'], id_tag_status: 'Accepted' });
    expect(await start('CAR-1')).toEqual({ status: 'Accepted', account_id: ids['5'], id_tag_status: 'Accepted' });
    expect(await start('OFF-1')).toEqual({ status: 'Blocked', account_id: ids['4'], id_tag_status: 'Blocked' });
    expect(await start('AWAY-1')).toEqual({ status: 'Invalid', account_id: ids['3'], id_tag_status: 'Invalid' });
    expect(await start('CARD-ON')).toEqual({ status: 'Accepted', account_id: null, id_tag_status: 'Accepted' });
    expect(await start('NOBODY')).toEqual({ status: 'Invalid', account_id: null, id_tag_status: 'Invalid' });
    // A deleted account holds no cards.
    await s.db.query(`UPDATE accounts SET deleted_at = now() WHERE acc_id = $1`, [ids['2']]);
    expect(await authorize('HERE-1')).toBe('Invalid');
  });

  it('remote-starts for an account named by its member ID (acc_id): refused with 10014 when inactive, else linked', async () => {
    const [off] = await s.db.query(`SELECT acc_id FROM accounts WHERE mobile_no = '4'`);
    const [away] = await s.db.query(`SELECT acc_id FROM accounts WHERE mobile_no = '3'`);
    const [on] = await s.db.query(`SELECT acc_id FROM accounts WHERE mobile_no = '1'`);
    // The start code of an account is the last four digits of its mobile number ('1' here).
    const call = (memberId: unknown, connectorId = 9) =>
      s.api('POST', `/api/cps/rsrStartCharger/${cpId}`, { token: admin, body: { connectorId, time: 30, memberId, startCode: '1' } });
    expect((await call(off.acc_id)).body).toEqual({ status: 'error', errorCode: ERROR_CODES.MEMBER_INVALID });
    expect((await call(String(away.acc_id))).body).toEqual({ status: 'error', errorCode: ERROR_CODES.MEMBER_INVALID });
    expect(remoteStarts).toHaveLength(0);
    const ok = await call(on.acc_id);
    expect(ok.body.status).toBe('success');
    expect(remoteStarts).toEqual([{ connectorId: 9, idTag: String(on.acc_id) }]);
    const res: any = await cp.call('StartTransaction', { connectorId: 9, idTag: String(on.acc_id), meterStart: 0, timestamp: new Date().toISOString() });
    expect(res.idTagInfo.status).toBe('Accepted');
    const [session] = await s.db.query(`SELECT account_id FROM cp_sessions WHERE tran_id = $1`, [res.transactionId]);
    expect(session.account_id).toBe(on.acc_id);
    // A member ID that names no account starts as before (an outside member), unlinked.
    expect((await call('M-123', 8)).body.status).toBe('success');
  });
});
