import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editPrivilege, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith as userOf } from '../testing/users.ts';

describe('price schemes: the resource and its sessions', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const scheme = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/price_scheme', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  const sessions = async (id: number) => (await api('GET', `/api/price_scheme_detail/${id}?size=99999&page=0&trash=0&enable_flag=1`)).body;
  const cashAndPoints = async (id: number) => (await sessions(id)).map((r: any) => [r.session, r.cash, r.point]);

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = (await api('POST', '/api/cp_locs', { address: 'Scheme Site A' })).body.data.loc_id;
    siteB = (await api('POST', '/api/cp_locs', { address: 'Scheme Site B' })).body.data.loc_id;
  });
  afterAll(() => s.close());

  it('stores the fee in cents, shows dollars, and computes a Fixed scheme\'s sessions as multiples of the fee', async () => {
    const id = await scheme({ name: 'Day', fee: '6.00', locId: siteA, maxChargingUnit: 3 });
    expect((await api('GET', `/api/price_scheme/${id}`)).body).toMatchObject({ name: 'Day', fee: 6, type: 'Fixed', version: 1 });
    expect((await s.db.query(`SELECT fee FROM price_scheme WHERE id = $1`, [id]))[0].fee).toBe(600);
    expect(await cashAndPoints(id)).toEqual([[1, 6, 0], [2, 12, 0], [3, 18, 0]]);

    // Session 1's points are typed in; the others follow. A computed value sent changed is refused.
    expect((await api('PUT', `/api/price_scheme_detail/${id}`, [{ session: 1, cash: 6, point: 2 }])).status).toBe(200);
    expect(await cashAndPoints(id)).toEqual([[1, 6, 2], [2, 12, 4], [3, 18, 6]]);
    const changed = await api('PUT', `/api/price_scheme_detail/${id}`, [{ session: 2, cash: 11, point: 4 }]);
    expect([changed.status, changed.body.fields]).toEqual([400, { '0.cash': 'not_editable' }]);
    // Sending the whole table back as read is fine.
    expect((await api('PUT', `/api/price_scheme_detail/${id}`, await sessions(id))).status).toBe(200);

    // A new fee and a lower maximum: sessions recomputed, the ones past the maximum no longer offered.
    const upd = await api('PUT', `/api/price_scheme/${id}`, { fee: 7.5, maxChargingUnit: 2 });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(await cashAndPoints(id)).toEqual([[1, 7.5, 2], [2, 15, 4]]);
    expect((await s.db.query(`SELECT session, enable_flag FROM price_scheme_detail WHERE "priceSchemeId" = $1 ORDER BY session`, [id])))
      .toEqual([{ session: 1, enable_flag: 1 }, { session: 2, enable_flag: 1 }, { session: 3, enable_flag: 0 }]);
    expect((await api('GET', `/api/price_scheme/${id}`)).body.version).toBeGreaterThan(1);
  });

  it('keeps a Custom scheme\'s typed-in sessions, starting new ones at n × fee', async () => {
    const id = await scheme({ name: 'Tiered', fee: 5, locId: siteA, maxChargingUnit: 2, type: 'Custom' });
    expect(await cashAndPoints(id)).toEqual([[1, 5, 0], [2, 10, 0]]);
    const res = await api('PUT', `/api/price_scheme_detail/${id}`, [{ session: 1, cash: '4.50', point: 1 }, { session: 2, cash: 8.1, point: 3 }]);
    expect(res.body).toEqual([{ id: expect.any(Number), session: 1, cash: 4.5, point: 1 }, { id: expect.any(Number), session: 2, cash: 8.1, point: 3 }]);
    expect((await s.db.query(`SELECT cash FROM price_scheme_detail WHERE "priceSchemeId" = $1 ORDER BY session`, [id])).map((r: any) => Number(r.cash))).toEqual([450, 810]);
    // Raising the maximum adds a session at the default; the typed-in ones stay.
    await api('PUT', `/api/price_scheme/${id}`, { maxChargingUnit: 3 });
    expect(await cashAndPoints(id)).toEqual([[1, 4.5, 1], [2, 8.1, 3], [3, 15, 0]]);
    // The type is fixed after creation.
    expect((await api('PUT', `/api/price_scheme/${id}`, { type: 'Fixed' })).body.fields).toEqual({ type: 'not_editable' });
  });

  it('refuses bad input with a field error and changes nothing', async () => {
    const id = await scheme({ name: 'Strict', fee: 2, locId: siteA, maxChargingUnit: 2, type: 'Custom' });
    const before = await cashAndPoints(id);
    for (const [body, fields] of [
      [[{ session: 3, cash: 1, point: 0 }], { '0.session': 'invalid' }],
      [[{ session: 1, cash: '1.005', point: 0 }], { '0.cash': 'invalid' }],
      [[{ session: 1, cash: -1, point: 0 }], { '0.cash': 'invalid' }],
      [[{ session: 1, cash: 1, point: 0 }, { session: 1, cash: 2, point: 0 }], { '1.session': 'invalid' }],
    ] as const) {
      const res = await api('PUT', `/api/price_scheme_detail/${id}`, body);
      expect([res.status, res.body.fields]).toEqual([400, fields]);
    }
    for (const body of [{ session: 1 }, [{ session: 1, cash: 1, point: -1 }], [{ session: 1, cash: 1, point: 0, extra: 1 }], 'x']) {
      expect((await api('PUT', `/api/price_scheme_detail/${id}`, body)).status).toBe(400);
    }
    expect(await cashAndPoints(id)).toEqual(before);
    expect((await api('GET', `/api/price_scheme_detail/${id}?sort=x`)).status).toBe(400);
    expect((await api('GET', '/api/price_scheme_detail/999999')).status).toBe(404);
    expect((await api('POST', '/api/price_scheme', { name: 'x', fee: 1, locId: siteA, type: 'Tiered' })).body.fields).toEqual({ type: 'invalid' });
    expect((await api('POST', '/api/price_scheme', { name: 'x', fee: 1.001, locId: siteA })).body.fields).toEqual({ fee: 'invalid' });
  });

  it('keeps to privileges and sites on the server', async () => {
    const a = await scheme({ name: 'A only', fee: 1, locId: siteA, maxChargingUnit: 1 });
    const b = await scheme({ name: 'B only', fee: 1, locId: siteB, maxChargingUnit: 1 });
    const reader = await userOf(s, 'scheme-reader', [readPrivilege('price_scheme')], [siteA]);
    const editorA = await userOf(s, 'scheme-editor', [readPrivilege('price_scheme'), editPrivilege('price_scheme')], [siteA]);
    expect((await api('GET', `/api/price_scheme_detail/${a}`, undefined, reader)).status).toBe(200);
    expect((await api('GET', `/api/price_scheme_detail/${b}`, undefined, reader)).status).toBe(403);
    expect((await api('PUT', `/api/price_scheme_detail/${a}`, [{ session: 1, cash: 1, point: 9 }], reader)).status).toBe(403);
    expect((await api('PUT', `/api/price_scheme_detail/${b}`, [{ session: 1, cash: 1, point: 9 }], editorA)).status).toBe(403);
    expect(await cashAndPoints(a)).toEqual([[1, 1, 0]]);
    expect(await cashAndPoints(b)).toEqual([[1, 1, 0]]);
    expect((await api('PUT', `/api/price_scheme_detail/${a}`, [{ session: 1, cash: 1, point: 9 }], editorA)).status).toBe(200);
    expect(await cashAndPoints(a)).toEqual([[1, 1, 9]]);
    const list = await api('GET', '/api/price_scheme', undefined, reader);
    expect(list.body.dataset.content.map((r: any) => r.id)).toContain(a);
    expect(list.body.dataset.content.map((r: any) => r.id)).not.toContain(b);
  });
});
