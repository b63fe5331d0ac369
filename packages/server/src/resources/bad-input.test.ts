import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** Values that have crashed back-offices before: NUL bytes, lone surrogates, huge or odd numbers, nested junk. */
const NASTY: unknown[] = ['a\u0000b', '\ud800', 'x'.repeat(100_000), 1e308, -1e308, 2 ** 53 + 1, NaN, '1e5', ' 7 ', [], {}, [[1]], { $gt: 1 }, true];

describe('bad input never answers 500 and changes nothing', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
    const loc = await s.api('POST', '/api/cp_locs', { token, body: { address: 'Robust Site' } });
    await s.api('POST', '/api/cps', { token, body: { cp_no: 'R-1', name: 'r', loc_id: loc.body.data.loc_id } });
  });
  afterAll(() => s.close());

  it('in every writable field of every resource', async () => {
    for (const def of Object.values(RESOURCES)) {
      const [row] = await s.db.query(`SELECT "${def.idField}" AS id FROM "${def.table}" ORDER BY 1 LIMIT 1`);
      const snapshot = async () => JSON.stringify(await s.db.query(`SELECT * FROM "${def.table}" ORDER BY 1`));
      for (const f of def.fields) {
        for (const value of NASTY) {
          for (const [method, path] of [['POST', `/api/${def.key}`], ['PUT', `/api/${def.key}/${row?.id ?? 1}`]]) {
            const before = await snapshot();
            const res = await s.api(method, path, { token, body: { [f.field]: value } });
            const what = `${method} ${path} ${f.field}=${JSON.stringify(value)?.slice(0, 20)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
            expect(res.status, what).toBeLessThan(500);
            // A refused write leaves the table as it was (some values are fine: '1e5' is a number).
            if (res.status >= 400) expect(await snapshot(), what).toBe(before);
          }
        }
      }
    }
  }, 300_000); // some 4,000 requests: on a busy 2-core machine far more than the default 30 s

  it('in the bodies, ids and queries of the charger commands', async () => {
    const [cp] = await s.db.query(`SELECT cp_id FROM cps LIMIT 1`);
    for (const path of ['rsrStartCharger', 'rsrStopCharger', 'unlockCharger']) {
      for (const id of [cp.cp_id, 0, 'x', '99999999999']) {
        for (const body of [...NASTY.map((v) => ({ connectorId: v, time: v, remark: v })), NASTY[0], [1, 2], 'text']) {
          const res = await s.api('POST', `/api/cps/${path}/${id}`, { token, body });
          expect(res.status, `${path}/${id} ${JSON.stringify(body)?.slice(0, 40)} → ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    for (const query of ['rsrResetCharger/1?type=%00', 'rsrResetCharger/1?type=Warm', 'change_availability/1/x?availabilityType=Maybe',
      'change_availability/1/99999999999?availabilityType=Inoperative', 'getDiagnostics/1?location=%00', 'triggerMessage/1?requestedMessage=Nope&connectorId=-1']) {
      const res = await s.api('GET', `/api/cps/${query}`, { token });
      expect(res.status, `${query} → ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('in every filter of every list, and in ids', async () => {
    for (const def of Object.values(RESOURCES)) {
      for (const c of def.columns.filter((c) => c.filter)) {
        for (const value of ['%00', '%C3%28', encodeURIComponent('\u0000'), '99999999999999999999', '-', '%', '_', "'", '1,2,x', 'NaN']) {
          const path = `/api/${def.key === 'user_profile' ? 'users' : def.key}?${c.field}=${value}&${c.field}=${value}`;
          const res = await s.api('GET', path, { token });
          expect(res.status, `${path} → ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(500);
        }
      }
      for (const id of ['0', '-1', '1.5', '99999999999', '%00', 'null']) {
        expect((await s.api('GET', `/api/${def.key}/${id}`, { token })).status, `${def.key}/${id}`).toBeLessThan(500);
      }
    }
  }, 120_000); // some 2,000 requests
});
