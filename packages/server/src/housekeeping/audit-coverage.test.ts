import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { addUnsettledRsr, startStubGateway } from '../payments/test-support.ts';
import { autoPay } from '../payments/collect.ts';

/**
 * portal_action_log covers every write route: the routes the server registers are read from
 * Fastify itself, and every POST / PUT / PATCH / DELETE under /api/ must be in WRITE_ROUTES below,
 * either with an example call (made here, which must succeed and add a portal_action_log row) or
 * in the commented allow-list. A new write route without an entry fails the first test; a route
 * whose handler forgets writeAudit fails the second.
 */

/** Write routes that write no audit row, and why. */
const NOT_AUDITED: Record<string, string> = {
  'POST /api/login': 'signing in is logged in user_log',
  'POST /api/logout': 'signing out is logged in user_log',
  'POST /api/me': 'reads the signed-in user (POST by the spec)',
  'POST /api/test/cp_request': 'the message tester: what it injects is stored in cp_requests as the charger\'s message',
  'POST /api/lms/cp_simulator': 'the LMS charger simulator: the same, stored in cp_requests',
  'POST /api/cp_opening_hour/test': 'reads which chargers are open now (POST by the spec)',
};

interface Ctx {
  s: TestServer;
  token: string;
  locId: number;
  cpId: number;
  cpNo: string;
  /** A fresh record made through the engine (answers its id). */
  create(key: string, body: object): Promise<number>;
}
type Call = (c: Ctx) => Promise<{ status: number; body: any }>;

const api = (c: Ctx, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  c.s.api(method, path, { token: headers ? undefined : c.token, body, headers });
const zone = (c: Ctx) => c.create('cp_zones', { loc_id: c.locId, name_chi: `Z${Math.random()}`, max_physical_current_limit: 100 });

/** An example call per audited write route (the key is the route as Fastify registers it). */
const EXAMPLES: Record<string, Call> = {
  'POST /api/:key': (c) => api(c, 'POST', '/api/cp_zones', { loc_id: c.locId, name_chi: 'Created', max_physical_current_limit: 100 }),
  'PUT /api/:key/:id': async (c) => api(c, 'PUT', `/api/cp_zones/${await zone(c)}`, { name_chi: 'Renamed' }),
  'DELETE /api/:key/:id': async (c) => api(c, 'DELETE', `/api/cp_zones/${await zone(c)}`),
  'PUT /api/app/settings': (c) => api(c, 'PUT', '/api/app/settings', { home_screen: 'CpList' }),
  'PUT /api/user_profile': (c) => api(c, 'PUT', '/api/user_profile', { name: 'Administrator' }),
  'PUT /api/rnp/:roleId': async (c) => {
    const [role] = await c.s.db.query(`INSERT INTO roles (role, name_chi, level) VALUES ('audit-role', 'audit', 1) RETURNING id`);
    return api(c, 'PUT', `/api/rnp/${role.id}`, { privileges: ['READ_CPS'] });
  },
  'PUT /api/cps/assign_zone/:zone_id': async (c) => api(c, 'PUT', `/api/cps/assign_zone/${await zone(c)}`, [{ cp_id: c.cpId, action: 'add' }]),
  'PUT /api/cps/:id/cpConfig': (c) => api(c, 'PUT', `/api/cps/${c.cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', description: 'audit' }),
  'DELETE /api/cps/:id/cpConfig': async (c) => {
    const made = await api(c, 'PUT', `/api/cps/${c.cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', description: 'to delete', current: 0 });
    return api(c, 'DELETE', `/api/cps/${made.body.data.cp_config_id}/cpConfig`);
  },
  'POST /api/cp_locs/cp_mass_update': async (c) => {
    await api(c, 'PUT', `/api/cps/${c.cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', description: 'current', current: 1 });
    return api(c, 'POST', '/api/cp_locs/cp_mass_update', { cpIds: [c.cpId], commonConfigJson: { Window: 'Shrink' } });
  },
  'PUT /api/zone_lms_profiles': async (c) => {
    const profile = await c.create('lms_profiles', { name: 'audit', cp_loc: c.locId, mode: 'DISTRIBUTION' });
    return api(c, 'PUT', '/api/zone_lms_profiles', { lms_profile_id: profile, zones: [] });
  },
  'PUT /api/price_scheme_detail/:id': async (c) => {
    const scheme = await c.create('price_scheme', { name: 'audit', fee: 6, locId: c.locId, maxChargingUnit: 2 });
    return api(c, 'PUT', `/api/price_scheme_detail/${scheme}`, [{ session: 1, cash: 6, point: 1 }]);
  },
  'POST /api/charging_rate_detail_cp_group': async (c) => {
    const rate = await c.create('charging_rate', { name: 'audit', loc_id: c.locId });
    return api(c, 'POST', '/api/charging_rate_detail_cp_group', { chargingRateId: rate, cpIds: [c.cpId] });
  },
  'POST /api/cp_opening_hour': async (c) => {
    const hour = await c.create('opening_hour', { name: 'audit', start_time: '08:00', end_time: '20:00' });
    return api(c, 'POST', '/api/cp_opening_hour', { openingHourId: hour, cpIds: [c.cpId] });
  },
  'PUT /api/opening_hour_days/:id': async (c) => {
    const hour = await c.create('opening_hour', { name: 'audit days', start_time: '08:00', end_time: '20:00' });
    return api(c, 'PUT', `/api/opening_hour_days/${hour}`, { weekday: [1], date_list: [] });
  },
  'POST /api/voucher/import': async (c) => {
    const campaign = await c.create('campaign', { name: 'audit vouchers', fee: 0, locIds: [c.locId], isVoucher: 1 });
    const template = await fetch(`${c.s.baseUrl}/api/voucher/import/template`, { headers: { authorization: `Bearer ${c.token}` } });
    const form = new FormData();
    form.append('campaignId', String(campaign));
    form.append('file', new Blob([await template.arrayBuffer()]), 'Voucher.xlsx');
    const res = await fetch(`${c.s.baseUrl}/api/voucher/import`, { method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body: form });
    return { status: res.status, body: await res.json() };
  },
  'POST /api/third_party_conf': (c) => api(c, 'POST', '/api/third_party_conf', { key_name: 'audit', app_id: 'audit-app', privilege_key: 'EXT_CHARGING' }),
  'POST /api/third_party_conf/:id/removeSecret': async (c) =>
    api(c, 'POST', `/api/third_party_conf/${await c.create('third_party_conf', { key_name: 'rm', app_id: 'audit-rm', privilege_key: 'EXT_CHARGING' })}/removeSecret`),
  'POST /api/third_party_conf/:id/newSecret': async (c) =>
    api(c, 'POST', `/api/third_party_conf/${await c.create('third_party_conf', { key_name: 'new', app_id: 'audit-new', privilege_key: 'EXT_CHARGING' })}/newSecret`),
  'POST /api/external/v1/chargers/:cpNo/start': (c) => external(c, 'start', 'ext-start'),
  'POST /api/external/v1/chargers/:cpNo/stop': (c) => external(c, 'stop', 'ext-stop'),
  'POST /api/external/v1/parking/events': async (c) => {
    const made = await api(c, 'POST', '/api/third_party_conf', { key_name: 'lprs', app_id: 'audit-lprs', privilege_key: 'EXT_LICENCE_PLATE' });
    await c.create('bay', { bayId: 'AUDIT-BAY', bayName: 'audit', cpId: c.cpId, connectorId: 1 });
    const body = { event: 'in', bayId: 'AUDIT-BAY', sessionId: 'audit', licensePlate: 'AU1', time: new Date().toISOString() };
    return api(c, 'POST', '/api/external/v1/parking/events', body, { 'x-app-id': 'audit-lprs', 'x-api-key': made.body.data?.api_key ?? '' });
  },
  'POST /api/:key/rsrStartCharger/:id': (c) => api(c, 'POST', `/api/cps/rsrStartCharger/${c.cpId}`, { connectorId: 1, time: 30 }),
  'POST /api/:key/rsrStopCharger/:id': async (c) => {
    await runningSession(c);
    return api(c, 'POST', `/api/cps/rsrStopCharger/${c.cpId}`, { connectorId: 1 });
  },
  'POST /api/:key/unlockCharger/:id': (c) => api(c, 'POST', `/api/cps/unlockCharger/${c.cpId}`, { connectorId: 1 }),
  'POST /api/cps/:id/getConfiguration': (c) => api(c, 'POST', `/api/cps/${c.cpId}/getConfiguration`, { keys: ['HeartbeatInterval'] }),
  'POST /api/cp_locs/:id/configDrift/read': (c) => api(c, 'POST', `/api/cp_locs/${c.locId}/configDrift/read`),
  'POST /api/cps/:id/password': (c) => api(c, 'POST', `/api/cps/${c.cpId}/password`, { generate: true }),
  'POST /api/cps/:id/changeConfiguration': (c) => api(c, 'POST', `/api/cps/${c.cpId}/changeConfiguration`, { key: 'HeartbeatInterval', value: '60' }),
  // Sent to a charger that is not connected: the attempt (10030) is audited as any command.
  'POST /api/cps/:id/deviceModel/read': (c) => api(c, 'POST', `/api/cps/${c.cpId}/deviceModel/read`, {}),
  'POST /api/cps/:id/deviceModel/set': (c) => api(c, 'POST', `/api/cps/${c.cpId}/deviceModel/set`, { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '60' }),
  'POST /api/cps/:id/chargingProfiles': (c) => api(c, 'POST', `/api/cps/${c.cpId}/chargingProfiles`, {
    connectorId: 1, purpose: 'TxDefaultProfile', profile: { chargingProfileId: 5, stackLevel: 2, kind: 'Absolute', unit: 'A', periods: [{ startPeriod: 0, limit: 16 }] },
  }),
  'POST /api/cps/:id/chargingProfiles/clear': (c) => api(c, 'POST', `/api/cps/${c.cpId}/chargingProfiles/clear`, { stackLevel: 2 }),
  'POST /api/cps/:id/compositeSchedule': (c) => api(c, 'POST', `/api/cps/${c.cpId}/compositeSchedule`, { connectorId: 1, duration: 60 }),
  'POST /api/cps/:id/localList/send': (c) => api(c, 'POST', `/api/cps/${c.cpId}/localList/send`, { updateType: 'Full' }),
  'POST /api/cps/:id/localList/version': (c) => api(c, 'POST', `/api/cps/${c.cpId}/localList/version`),
  'POST /api/cp_locs/:id/localList/send': (c) => api(c, 'POST', `/api/cp_locs/${c.locId}/localList/send`, { updateType: 'Differential' }),
  'POST /api/reservations': (c) => reservation(c),
  'POST /api/reservations/:id/cancel': async (c) => {
    const [r] = await c.s.db.query(
      `INSERT INTO reservations (cp_id, id_tag, expiry_dttm, status) VALUES ($1, 'AUDIT', now() + interval '1 hour', 'Accepted') RETURNING reservation_id`,
      [c.cpId],
    );
    return api(c, 'POST', `/api/reservations/${r.reservation_id}/cancel`);
  },
  'POST /api/firmware_jobs/start': async (c) => {
    const firmwareId = await c.create('firmware', { version: 'audit-1', url: 'https://fw.example.com/audit-1.bin' });
    return api(c, 'POST', '/api/firmware_jobs/start', { firmwareId, targetKind: 'chargers', targetIds: [c.cpId], retrieveDate: new Date(Date.now() + 3_600_000).toISOString() });
  },
  'POST /api/firmware_jobs/:id/stop': async (c) => {
    // A running job whose one charger is updating (Sent): the runner leaves it running.
    const firmwareId = await c.create('firmware', { version: 'audit-2', url: 'https://fw.example.com/audit-2.bin' });
    const [{ firmware_job_id: id }] = await c.s.db.query(
      `INSERT INTO firmware_jobs (firmware_id, target_kind, target_ids, retrieve_date, total) VALUES ($1, 'chargers', $2, now(), 1) RETURNING firmware_job_id`,
      [firmwareId, [c.cpId]],
    );
    await c.s.db.query(`INSERT INTO firmware_job_chargers (firmware_job_id, cp_id, cp_no, state, sent_at) VALUES ($1, $2, $3, 'Sent', now())`, [id, c.cpId, c.cpNo]);
    return api(c, 'POST', `/api/firmware_jobs/${id}/stop`);
  },
  'POST /api/data_rotation_setup/run': (c) => api(c, 'POST', '/api/data_rotation_setup/run'),
  'POST /api/cp_rsr/setup_settled': async (c) => api(c, 'POST', '/api/cp_rsr/setup_settled/', { rsr_id: (await addUnsettledRsr(c.s.db, c.cpId)).rsrId }),
  'GET /api/:key/retry/:id': (c) => retriedPayment(c),
  'POST /api/cp_sessions/:id/close': async (c) => api(c, 'POST', `/api/cp_sessions/${await lostSession(c)}/close`, { reason: 'audit' }),
  'POST /api/cp_sessions_all/:id/close': async (c) => api(c, 'POST', `/api/cp_sessions_all/${await lostSession(c)}/close`, { reason: 'audit' }),
  'GET /api/:key/cancel/:rsr_id': async (c) => {
    const [r] = await c.s.db.query(
      `INSERT INTO cp_rsr (cp_id, connector_id, status, max_charging_unit, duration, unit_in_minutes) VALUES ($1, 1, 'RemoteStarted', 1, 15, 15) RETURNING rsr_id`,
      [c.cpId],
    );
    return api(c, 'GET', `/api/cp_rsr/cancel/${r.rsr_id}`);
  },
};

async function runningSession(c: Ctx) {
  await c.s.db.query(
    `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, connector_id, id_tag, session_start_time, start_meter)
     VALUES (99, $1, $2, 1, 'AUDIT', now(), 0) ON CONFLICT DO NOTHING`,
    [c.cpId, c.cpNo],
  );
}

/** A running session whose StopTransaction never came (ocpp/unconfirmed.ts), to be closed by hand. */
async function lostSession(c: Ctx): Promise<number> {
  const [row] = await c.s.db.query(
    `INSERT INTO cp_sessions (tran_id, cp_id, cp_no, loc_id, connector_id, id_tag, session_start_time, start_meter)
     VALUES (98, $1, $2, $3, 2, 'LOST', clock_timestamp(), 0) RETURNING session_id`,
    [c.cpId, c.cpNo, c.locId],
  );
  return row.session_id;
}

/** A reservation on a charger marked online (as when connected to another node): stored, ReserveNow sent (10030 here) and audited. */
async function reservation(c: Ctx) {
  await c.s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('audit', 'AUDIT-RESV', 1)`);
  await c.s.db.query(`UPDATE cps SET online_flag = 1 WHERE cp_id = $1`, [c.cpId]);
  try {
    return await api(c, 'POST', '/api/reservations', { cp_id: c.cpId, id_tag: 'AUDIT-RESV', expiry_dttm: new Date(Date.now() + 3_600_000).toISOString() });
  } finally {
    await c.s.db.query(`UPDATE cps SET online_flag = 0 WHERE cp_id = $1`, [c.cpId]);
  }
}

/** A call of the external API (an app's key, not a user's token): its commands are audited too. */
async function external(c: Ctx, action: 'start' | 'stop', appId: string) {
  const made = await api(c, 'POST', '/api/third_party_conf', { key_name: appId, app_id: appId, privilege_key: 'EXT_CHARGING' });
  if (action === 'stop') await runningSession(c);
  return api(c, 'POST', `/api/external/v1/chargers/${c.cpNo}/${action}`, { connectorId: 1 }, { 'x-app-id': appId, 'x-api-key': made.body.data?.api_key ?? '' });
}

/** A failed automatic payment retried through a stub gateway the server is pointed at for the call. */
async function retriedPayment(c: Ctx) {
  const stub = await startStubGateway();
  c.s.app.config.paymentGateway = { url: stub.url, key: stub.key, timeoutMs: 2000 };
  try {
    const { rsrId, resultId } = await addUnsettledRsr(c.s.db, c.cpId);
    stub.answers.push('decline', 'approve');
    await autoPay(c.s.app, rsrId);
    const [d] = await c.s.db.query(`SELECT id FROM payment_result_detail WHERE "resultId" = $1`, [resultId]);
    return await api(c, 'GET', `/api/payment_result_detail/retry/${d.id}`);
  } finally {
    c.s.app.config.paymentGateway = undefined;
    await stub.close();
  }
}

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** GET routes that change data (the spec makes them GETs): audited like the writes. */
const WRITING_GETS = [/^\/api\/:key\/retry\/:id$/, /^\/api\/:key\/cancel\/:rsr_id$/];

/**
 * 'METHOD /path' of every write route under /api/, read from Fastify's route tree (printed with
 * full paths; a child line continues its parent's path). Parameters sharing a place
 * (`:key|:resource`) are named by the first.
 */
export function writeRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const found = new Set<string>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round((at - 1) / 4);
    const m = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 3));
    if (!m) continue;
    stack.length = depth;
    stack[depth] = m[1].replace(/\|:\w+/g, '');
    const path = stack.join('');
    for (const method of (m[2] ?? '').split(',').map((x) => x.trim())) {
      const writes = WRITE_METHODS.includes(method) || (method === 'GET' && WRITING_GETS.some((r) => r.test(path)));
      if (writes && path.startsWith('/api/')) found.add(`${method} ${path}`);
    }
  }
  return [...found].sort();
}

describe('portal_action_log covers every write route', () => {
  it('reads the write routes from Fastify, nested and parametric ones too', async () => {
    const app = Fastify();
    const ok = async () => 'ok';
    app.post('/api/things', ok);
    app.put('/api/things/:id', ok);
    app.post('/api/:key/act/:id', ok);
    app.delete('/api/:resource/:id', ok);
    app.get('/api/things/list', ok);
    app.post('/outside', ok);
    await app.ready();
    expect(writeRoutes(app)).toEqual(['DELETE /api/:key/:id', 'POST /api/:key/act/:id', 'POST /api/things', 'PUT /api/things/:id']);
    await app.close();
  });

  let c: Ctx;
  let routes: string[];
  beforeAll(async () => {
    const s = await startTestServer();
    const token = await s.login();
    const locId = await addSite(s.db);
    const cpNo = 'AUDIT-1';
    const cpId = await addCharger(s.db, cpNo, { locId });
    c = {
      s, token, locId, cpId, cpNo,
      async create(key, body) {
        const res = await s.api('POST', `/api/${key}`, { token, body });
        if (res.status !== 200 || res.body.status !== 'success') throw new Error(`creating ${key}: ${res.status} ${JSON.stringify(res.body)}`);
        return Number(res.body.data[getResource(key)!.idField]);
      },
    };
    routes = writeRoutes(s.app);
  });
  afterAll(() => c.s.close());

  it('knows every write route (an example call or a reason in the allow-list)', () => {
    expect(routes.length).toBeGreaterThan(10);
    const unknown = routes.filter((r) => !Object.hasOwn(EXAMPLES, r) && !Object.hasOwn(NOT_AUDITED, r));
    expect(unknown, 'write routes without an audit example: add one to EXAMPLES (or a reason to NOT_AUDITED)').toEqual([]);
    const stale = [...Object.keys(EXAMPLES), ...Object.keys(NOT_AUDITED)].filter((r) => !routes.includes(r));
    expect(stale, 'entries naming no route').toEqual([]);
  });

  it('writes a portal_action_log row on every audited write route', async () => {
    const missing: string[] = [];
    for (const route of routes.filter((r) => Object.hasOwn(EXAMPLES, r))) {
      const [{ last }] = await c.s.db.query(`SELECT coalesce(max(id), 0) AS last FROM portal_action_log`);
      const res = await EXAMPLES[route](c);
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      const [{ n }] = await c.s.db.query(`SELECT count(*)::int AS n FROM portal_action_log WHERE id > $1`, [last]);
      if (n === 0) missing.push(route);
    }
    expect(missing, 'write routes that wrote no portal_action_log row (call writeAudit)').toEqual([]);
  });
});
