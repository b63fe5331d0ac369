import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger } from '@ev/simulator';
import { ERROR_CODES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, eventually } from '../testing/ocpp-support.ts';

/**
 * The scheduler against simulated chargers over a real WebSocket, with an injected clock:
 * 08:00–20:00 in Hong Kong (UTC+8) on 2026-11-23.
 */
describe('opening hours scheduler', () => {
  let s: TestServer;
  let admin: string;
  let clock = new Date('2026-11-23T03:00:00Z'); // 11:00 in Hong Kong: open
  const sims: SimulatedCharger[] = [];
  const sent = new Map<string, string[]>();
  let ids: number[];
  let hourId: number;

  const simulate = async (cpNo: string) => {
    const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, password: 'pw', connectors: 1, reconnect: false });
    sim.on('command', (method: string, params: any) => {
      if (method === 'ChangeAvailability') sent.set(cpNo, [...(sent.get(cpNo) ?? []), params.type]);
    });
    await sim.start();
    sims.push(sim);
    return sim;
  };
  const applied = async (cpId: number) => (await s.db.query(`SELECT applied_state FROM cp_opening_hour WHERE cp_id = $1`, [cpId]))[0]?.applied_state;

  beforeAll(async () => {
    s = await startTestServer({ timeZone: 'Asia/Hong_Kong' });
    s.app.openingHours.now = () => clock;
    admin = await s.login();
    const loc = await addSite(s.db);
    ids = [await addCharger(s.db, 'OH-1', { locId: loc, password: 'pw' }), await addCharger(s.db, 'OH-2', { locId: loc, password: 'pw' })];
    await simulate('OH-1');
    await simulate('OH-2');
    const created = await s.api('POST', '/api/opening_hour', { token: admin, body: { name: 'Office', start_time: '08:00', end_time: '20:00' } });
    expect(created.status).toBe(200);
    hourId = created.body.data.opening_hour_id;
  });
  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    await s.close();
  });

  it('assigning chargers applies the state of now at once (Operative while open)', async () => {
    const res = await s.api('POST', '/api/cp_opening_hour', { token: admin, body: { openingHourId: hourId, cpIds: ids } });
    expect(res.body).toBe('Success');
    await eventually(async () => (await applied(ids[0])) === 'open' && (await applied(ids[1])) === 'open');
    await eventually(async () => sent.get('OH-1')?.length === 1 && sent.get('OH-2')?.length === 1);
    expect(sent.get('OH-1')).toEqual(['Operative']);
  });

  it('closing sends Inoperative once; the simulated charger becomes Unavailable', async () => {
    clock = new Date('2026-11-23T12:00:00Z'); // 20:00
    await s.app.openingHours.tick();
    expect([await applied(ids[0]), await applied(ids[1])]).toEqual(['closed', 'closed']);
    expect(sent.get('OH-1')).toEqual(['Operative', 'Inoperative']);
    await eventually(async () => sims[0].connectorStatus(1) === 'Unavailable');
    await s.app.openingHours.tick();
    expect(sent.get('OH-2')).toEqual(['Operative', 'Inoperative']);
  });

  it('a remote start outside the opening hours is refused with its code', async () => {
    const res = await s.api('POST', `/api/cps/rsrStartCharger/${ids[0]}`, { token: admin, body: { connectorId: 1, time: '30' } });
    expect(res.body).toMatchObject({ status: 'error', errorCode: ERROR_CODES.OUTSIDE_OPENING_HOURS });
    const test = await s.api('POST', '/api/cp_opening_hour/test', { token: admin, body: { cpIds: [ids[0]] } });
    expect(test.body.dataset.content[0]).toMatchObject({ cp_id: ids[0], open: 0, next_change: '2026-11-24 08:00:00', applied_state: 'closed' });
  });

  it('a restart sends nothing already applied', async () => {
    const restarted = new (s.app.openingHours.constructor as any)(s.db, s.app.ocpp.central, s.app.ocpp.commands, s.app.log, 'Asia/Hong_Kong', () => clock);
    await restarted.tick();
    await s.app.openingHours.tick();
    expect(sent.get('OH-1')).toEqual(['Operative', 'Inoperative']);
  });

  it('a charger offline at opening gets Operative when it reconnects', async () => {
    sims[1].disconnect();
    await eventually(async () => !s.app.ocpp.central.connectedIds().includes(ids[1]));
    clock = new Date('2026-11-24T00:01:00Z'); // 08:01 the next day
    await s.app.openingHours.tick();
    expect(sent.get('OH-1')).toEqual(['Operative', 'Inoperative', 'Operative']);
    expect(await applied(ids[1])).toBe('closed');
    await sims[1].reconnect();
    await eventually(async () => (await applied(ids[1])) === 'open' && sent.get('OH-2')!.length === 3);
    expect(sent.get('OH-2')).toEqual(['Operative', 'Inoperative', 'Operative']);
    await s.app.openingHours.tick();
    expect(sent.get('OH-2')!.length).toBe(3);
  });

  it('a closed charger whose hours go to the trash is opened and released', async () => {
    await s.api('PUT', `/api/opening_hour_days/${hourId}`, { token: admin, body: { weekday: [], date_list: ['2020-01-01'] } });
    await eventually(async () => (await applied(ids[0])) === 'closed');
    expect((await s.api('DELETE', `/api/opening_hour/${hourId}`, { token: admin })).status).toBe(200);
    await eventually(async () => (await applied(ids[0])) === undefined && (await applied(ids[1])) === undefined);
    expect(sent.get('OH-1')!.at(-1)).toBe('Operative');
  });
});
