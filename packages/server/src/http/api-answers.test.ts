import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/server.ts';
import { addCard, addCharger, addSite, BOOT, connectCharger } from '../testing/ocpp-support.ts';
import { answerSchema, queryString } from '../testing/api-doc.ts';

/**
 * Real answers of the main routes validate against the document's 200 answer schemas (answers are
 * not validated at run time, so this is where a schema that lies is caught). A server with a
 * charger over a real WebSocket holding a charging session, so that the lists, views and
 * dashboards have rows with their null columns.
 */

/** A main route: the operation of the document (method and templated path) and the concrete request. */
interface Call {
  method: string;
  /** As the document writes it. */
  path: string;
  url: string;
  body?: unknown;
  public?: boolean;
}

describe('answers match the document', () => {
  let s: TestServer;
  let doc: any;
  let admin: string;
  let cp: RPCClient;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    s = await startTestServer();
    doc = (await s.api('GET', '/api/docs/openapi.json')).body;
    admin = await s.login();
    ids.cp_locs = await addSite(s.db);
    ids.cps = await addCharger(s.db, 'ANS-1', { locId: ids.cp_locs });
    await addCard(s.db, ['ANS-TAG']);
    cp = await connectCharger(s.wsUrl, 'ANS-1', { handlers: { RemoteStartTransaction: () => ({ status: 'Accepted' }) } });
    await cp.call('BootNotification', BOOT);
    for (const connectorId of [1, 2]) await cp.call('StatusNotification', { connectorId, status: 'Available', errorCode: 'NoError' });
    const tx: any = await cp.call('StartTransaction', { connectorId: 1, idTag: 'ANS-TAG', meterStart: 0, timestamp: new Date().toISOString() });
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' });
    const [session] = await s.db.query(`SELECT session_id FROM cp_sessions WHERE tran_id = $1`, [tx.transactionId]);
    ids.cp_sessions = session?.session_id;
    const account = await s.api('POST', '/api/accounts', { token: admin, body: { mobile_no: '91234567' } });
    ids.accounts = account.body?.data?.acc_id;
  }, 120_000);
  afterAll(async () => {
    await cp?.close();
    await s.close();
  });

  const calls = (): Call[] => [
    { method: 'post', path: '/api/login', url: '/api/login', body: { username: 'admin', password: TEST_ADMIN_PASSWORD }, public: true },
    { method: 'post', path: '/api/me', url: '/api/me' },
    { method: 'get', path: '/api/options', url: `/api/options${queryString({ opts: ['cp_locs', 'cps'] })}` },
    ...['cps', 'cp_locs', 'cp_sessions', 'accounts'].flatMap((key) => [
      { method: 'get', path: `/api/${key}`, url: `/api/${key}` },
      { method: 'get', path: `/api/${key}/{id}`, url: `/api/${key}/${ids[key]}` },
    ]),
    { method: 'get', path: '/api/v2/quickInfo', url: '/api/v2/quickInfo' },
    { method: 'get', path: '/api/quick_info', url: '/api/quick_info' },
    { method: 'get', path: '/api/lms_info', url: '/api/lms_info' },
    { method: 'post', path: '/api/{resource}/rsrStartCharger/{id}', url: `/api/cps/rsrStartCharger/${ids.cps}`, body: { connectorId: 2, time: '30' } },
  ];

  it('has fixtures for every main route', () => {
    expect(ids).toMatchObject({ cps: expect.any(Number), cp_locs: expect.any(Number), cp_sessions: expect.any(Number), accounts: expect.any(Number) });
  });

  it('the main routes answer what their 200 schema says', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // The check itself can fail: a list's schema refuses what is not a page of rows.
    const listSchema = answerSchema(doc.paths['/api/cps'].get);
    expect(ajv.compile({ ...listSchema, components: doc.components })({ dataset: { content: 'rows' } })).toBe(false);
    const noSchema: string[] = [];
    const mismatches: string[] = [];
    for (const c of calls()) {
      const label = `${c.method.toUpperCase()} ${c.path}`;
      const op = doc.paths[c.path]?.[c.method];
      const schema = op && answerSchema(op);
      if (!schema) {
        noSchema.push(label);
        continue;
      }
      const res = await s.api(c.method.toUpperCase(), c.url, { token: c.public ? undefined : admin, body: c.body });
      if (res.status !== 200) {
        mismatches.push(`${label} (${c.url}): ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        continue;
      }
      // The components travel with the schema, for the $refs the generator may write.
      const validate = ajv.compile({ ...schema, components: doc.components });
      if (!validate(res.body)) {
        const errors = validate.errors!.slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
        mismatches.push(`${label}: ${errors.join('; ')}${validate.errors!.length > 8 ? ` (+${validate.errors!.length - 8})` : ''}`);
      }
    }
    expect({ noSchema, mismatches }).toEqual({ noSchema: [], mismatches: [] });
  });
});
