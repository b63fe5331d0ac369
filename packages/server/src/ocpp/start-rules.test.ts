import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';
import { ratedCharger } from '../rsr/test-fixtures.ts';
import { parseEntryTime } from './start-rules.ts';

/** One check of the remote start's form, the same on a charger without a charging rate and on one with it. */
describe('remote start rules (spec codes 10003, 10004, 10014, 10017, 21004, 30001, 30003, 40006)', () => {
  let s: TestServer;
  let admin: string;
  const chargers: Record<string, { cpId: number; link: RPCClient; sent: number[] }> = {};
  let accountId: number;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    const locId = await addSite(s.db);
    const rated = await ratedCharger(s.db, 'SR-RATED', { locId });
    const plain = await addCharger(s.db, 'SR-PLAIN', { locId });
    for (const [name, cpId] of [['plain', plain], ['rated', rated.cpId]] as const) {
      const sent: number[] = [];
      const link = await connectCharger(s.wsUrl, name === 'plain' ? 'SR-PLAIN' : 'SR-RATED', {
        handlers: { RemoteStartTransaction: (p) => (sent.push(p.connectorId), { status: 'Accepted' }) },
      });
      for (let c = 1; c <= 6; c++) await link.call('StatusNotification', { connectorId: c, status: 'Preparing', errorCode: 'NoError' });
      await s.db.query(`INSERT INTO cp_config (cp_id, current, config_json) VALUES ($1, 1, $2)`, [
        cpId, JSON.stringify({ LPRS: { Type: 'Selection', Authority: 'Admin', Value: 'No', Option: ['Yes', 'No'] }, Type: { Type: 'Selection', Authority: 'Admin', Value: 'Socket', Option: ['Socket', 'Cable'] } }),
      ]);
      await s.db.query(`INSERT INTO bay ("bayId", "bayName", "cpId", "connectorId") VALUES ($1, 'Bay', $2, 1)`, [`BAY-${name}`, cpId]);
      chargers[name] = { cpId, link, sent };
    }
    [{ acc_id: accountId }] = await s.db.query(`INSERT INTO accounts (mobile_no, acc_status) VALUES ('+852 9123-4567', 1) RETURNING acc_id`);
  });
  afterAll(async () => {
    for (const c of Object.values(chargers)) await c.link.close();
    await s.close();
  });

  const start = (name: string, body: object) => s.api('POST', `/api/cps/rsrStartCharger/${chargers[name].cpId}`, { token: admin, body });
  const code = async (name: string, body: object) => (await start(name, body)).body.errorCode;

  for (const name of ['plain', 'rated']) {
    it(`refuses the same input with the same codes on the ${name} charger, sending nothing`, async () => {
      const { sent } = chargers[name];
      expect(await code(name, { connectorId: 2, time: 0 })).toBe(ERROR_CODES.INVALID_DURATION);
      expect(await code(name, { connectorId: 2, time: '' })).toBe(ERROR_CODES.INVALID_DURATION);
      expect(await code(name, { connectorId: 2 })).toBe(ERROR_CODES.INVALID_DURATION);
      for (const entryTime of ['yesterday-ish', '2026-02-30 10:00:00', '2026-01-01 25:00:00', '2999-01-01 00:00:00']) {
        expect(await code(name, { connectorId: 2, time: 30, entryTime }), entryTime).toBe(ERROR_CODES.ENTRY_TIME);
      }
      expect(await code(name, { connectorId: 2, time: 30, bayId: 'NOT-THIS-BAY' })).toBe(ERROR_CODES.BAY_OCCUPIED);
      expect(await code(name, { connectorId: 2, time: 30, memberId: '999999' })).toBe(ERROR_CODES.MEMBER_INVALID);
      expect(await code(name, { connectorId: 2, time: 30, memberId: accountId })).toBe(ERROR_CODES.MOBILE_LAST4);
      expect(await code(name, { connectorId: 2, time: 30, memberId: accountId, startCode: '1234' })).toBe(ERROR_CODES.MOBILE_LAST4);
      expect(sent).toEqual([]);
      const ok = await start(name, { connectorId: 2, time: 30, memberId: accountId, startCode: '4567', entryTime: '2026-01-02 11:04:05', lp: 'AB123' });
      expect(ok.body.status).toBe('success');
      expect(sent).toEqual([2]);
    });

    it(`asks for the plate where the charger reads plates, and a cable in a socket charger (${name})`, async () => {
      const { cpId, link, sent } = chargers[name];
      sent.length = 0;
      await s.db.query(`UPDATE cp_config SET config_json = jsonb_set(config_json, '{LPRS,Value}', '"Yes"') WHERE cp_id = $1`, [cpId]);
      expect(await code(name, { connectorId: 3, time: 30 })).toBe(ERROR_CODES.LICENSE_PLATE);
      expect(await code(name, { connectorId: 3, time: 30, lp: '  ' })).toBe(ERROR_CODES.LICENSE_PLATE);
      await link.call('StatusNotification', { connectorId: 4, status: 'Available', errorCode: 'NoError' });
      expect(await code(name, { connectorId: 4, time: 30, lp: 'AB123' })).toBe(ERROR_CODES.CABLE_NOT_CONNECTED);
      expect(sent).toEqual([]);
      // A tethered cable is the charger's own: an Available connector starts and waits for the plug.
      await s.db.query(`UPDATE cp_config SET config_json = jsonb_set(config_json, '{Type,Value}', '"Cable"') WHERE cp_id = $1`, [cpId]);
      expect((await start(name, { connectorId: 4, time: 30, lp: 'AB123' })).body.status).toBe('success');
      expect((await start(name, { connectorId: 3, time: 30, lp: 'AB123' })).body.status).toBe('success');
      expect(sent).toEqual([4, 3]);
    });
  }

  it('asks a rate that counts point redemptions for the member who redeems (21004)', async () => {
    const r = await ratedCharger(s.db, 'SR-REDEEM', { point: 5, max_redeem_count: 2, redeem_period: 60 });
    const sent: number[] = [];
    const link = await connectCharger(s.wsUrl, 'SR-REDEEM', { handlers: { RemoteStartTransaction: (p) => (sent.push(p.connectorId), { status: 'Accepted' }) } });
    try {
      const go = (body: object) => s.api('POST', `/api/cps/rsrStartCharger/${r.cpId}`, { token: admin, body });
      expect((await go({ connectorId: 1, time: 15 })).body).toEqual({ status: 'error', errorCode: ERROR_CODES.MEMBER_ID });
      expect(sent).toEqual([]);
      expect((await go({ connectorId: 1, time: 15, memberId: 'APP-7' })).body.status).toBe('success');
    } finally {
      await link.close();
    }
  });

  it('stores the entry time read in the sites\' time zone on the RSR', async () => {
    const [rsr] = await s.db.query(`SELECT in_time FROM cp_rsr WHERE cp_id = $1 AND connector_id = 2`, [chargers.rated.cpId]);
    expect(new Date(rsr.in_time).getTime()).toBe(parseEntryTime('2026-01-02 11:04:05', s.app.config.timeZone)!.getTime());
  });

  it('reads an entry time as a wall-clock time in the zone, or with its own offset', () => {
    expect(parseEntryTime('2026-01-02 11:04:05', 'Asia/Hong_Kong')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parseEntryTime('2026-07-01 12:00', 'Europe/London')?.toISOString()).toBe('2026-07-01T11:00:00.000Z');
    expect(parseEntryTime('2026-01-02T03:04:05.000Z', 'Asia/Hong_Kong')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parseEntryTime('2026-01-02T11:04:05+08:00', 'Europe/London')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parseEntryTime('2026-02-29 00:00:00', 'Asia/Hong_Kong')).toBeNull();
  });
});
