import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { chartStep } from './meter-chart.ts';

/** GET /api/cps/:id/meter_chart: a connector's meter values bucketed on the server for the charger view chart. */
describe('meter chart', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let locId: number;
  const from = 1_750_000_000;

  /** A reading at from + offset seconds. */
  const reading = (connectorId: number, offset: number, wh: number, v: number, a: number) =>
    s.db.query(
      `INSERT INTO cp_meter_values (cp_id, connector_id, ts, energy, voltage, ampere) VALUES ($1, $2, to_timestamp($3), $4, $5, $6)`,
      [cpId, connectorId, from + offset, wh, v, a],
    );


  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'CP-CHART', { locId });
  });
  afterAll(async () => {
    await s?.close();
  });

  const chart = (query: string, token = admin, id = cpId) => s.api('GET', `/api/cps/${id}/meter_chart?${query}`, { token });

  it('groups readings into buckets of step seconds from `from`: highest energy, average voltage and current', async () => {
    // A day: 86400 s / 500 → 173 s, rounded up to 180 s buckets.
    expect(chartStep(from, from + 86_400)).toBe(180);
    await reading(1, 0, 1000, 230, 10);
    await reading(1, 60, 1500, 232, 12);
    await reading(1, 179, 1800, 234, 14);
    await reading(1, 180, 2000, 220, 6);
    await reading(1, 900, 5000, 240, 32);
    // Another connector, and readings outside [from, to): not counted.
    await reading(2, 10, 99_000, 100, 100);
    await reading(1, -1, 99_000, 100, 100);
    await reading(1, 86_400, 99_000, 100, 100);

    const res = await chart(`connector_id=1&from=${from}&to=${from + 86_400}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: {
        step: 180,
        points: [
          { t: from, kwh: 1.8, v: 232, a: 12 },
          { t: from + 180, kwh: 2, v: 220, a: 6 },
          { t: from + 900, kwh: 5, v: 240, a: 32 },
        ],
      },
    });
    // A month (the longest preset of the portal) stays within 500 buckets.
    const month = await chart(`connector_id=1&from=${from - 30 * 86_400}&to=${from + 86_400}`);
    expect(month.body.data.step).toBe(chartStep(from - 30 * 86_400, from + 86_400));
    expect(Math.ceil((31 * 86_400) / month.body.data.step)).toBeLessThanOrEqual(500);
    expect(month.body.data.points.at(-1).kwh).toBe(5);
    expect((await chart(`connector_id=3&from=${from}&to=${from + 86_400}`)).body).toEqual({ status: 'success', data: { step: 180, points: [] } });
  });

  it('answers bad input with 400 naming the field', async () => {
    const bad = async (query: string, field: string) => {
      const res = await chart(query);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.fields), query).toContain(field);
    };
    await bad(`connector_id=1&from=${from + 10}&to=${from}`, 'to');
    await bad(`connector_id=1&from=${from - 401 * 86_400}&to=${from}`, 'to');
    await bad(`connector_id=1&from=${from}.5&to=${from + 10}`, 'from');
    await bad(`connector_id=1&from=${from}&to=soon`, 'to');
    await bad(`connector_id=x&from=${from}&to=${from + 10}`, 'connector_id');
    await bad(`from=${from}&to=${from + 10}`, 'connector_id');
    await bad(`connector_id=1&to=${from + 10}`, 'from');
    expect((await s.api('GET', `/api/cps/abc/meter_chart?connector_id=1&from=${from}&to=${from + 10}`, { token: admin })).status).toBe(400);
  });

  it('needs READ_CPS and READ_CP_CONNECTOR (403), and a charger outside the user’s sites or deleted is not found (10001)', async () => {
    const other = await addSite(s.db);
    const q = `connector_id=1&from=${from}&to=${from + 86_400}`;
    expect((await chart(q, '')).status).toBe(401);
    const noRead = await userWith(s, 'noread', ['READ_CP_LOCS'], [locId]);
    expect((await chart(q, noRead)).status).toBe(403);
    const noConnectors = await userWith(s, 'noconnectors', ['READ_CPS'], [locId]);
    expect((await chart(q, noConnectors)).status).toBe(403);
    const elsewhere = await userWith(s, 'elsewhere', ['READ_CPS', 'READ_CP_CONNECTOR'], [other]);
    expect((await chart(q, elsewhere)).body).toEqual({ status: 'error', errorCode: 10001 });
    const local = await userWith(s, 'local', ['READ_CPS', 'READ_CP_CONNECTOR'], [locId]);
    expect((await chart(q, local)).body.data.points).toHaveLength(3);
    expect((await chart(q, admin, 999_999)).body).toEqual({ status: 'error', errorCode: 10001 });
    const gone = await addCharger(s.db, 'CP-GONE', { locId });
    await s.db.query(`UPDATE cps SET deleted_at = now() WHERE cp_id = $1`, [gone]);
    expect((await chart(q, admin, gone)).body).toEqual({ status: 'error', errorCode: 10001 });
  });
});
