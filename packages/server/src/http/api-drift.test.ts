import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PRIVILEGES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { concretePath, jsonBodySchema, missingRoutes, operations, queryString, requiredQuery, validValue, type DocOperation } from '../testing/api-doc.ts';

/**
 * The document and the server agree (issue 28): every route the server registers is in the
 * document (the external API and the OCPP endpoint included, with their own security schemes), and
 * for every operation of the document, each documented parameter and body field is accepted while
 * an undocumented one is refused with the project's 400 naming it.
 */

const UNDOCUMENTED = 'zz_undocumented';
/** What the server answers for a query parameter it does not know: zod's, and the engine's list parameters. */
const UNKNOWN_QUERY = ['unknown_field', 'unknown_parameter'];

type Op = { method: string; path: string; op: DocOperation };

describe('the OpenAPI document and the server agree', () => {
  let s: TestServer;
  let doc: any;
  let admin: string;
  const apps: Record<string, Record<string, string>> = {};
  /** Records to edit: the engine reads the record before the body, so an id that names nothing is answered 404 first. */
  const records: Record<string, number> = {};

  beforeAll(async () => {
    s = await startTestServer();
    doc = (await s.api('GET', '/api/docs/openapi.json')).body;
    admin = await s.login();
    for (const p of EXTERNAL_PRIVILEGES) {
      const made = await s.api('POST', '/api/third_party_conf', { token: admin, body: { key_name: p, app_id: `drift-${p}`, privilege_key: p } });
      apps[p] = { 'x-app-id': `drift-${p}`, 'x-api-key': made.body.data.api_key };
    }
    records.cp_locs = await addSite(s.db);
    records.cps = await addCharger(s.db, 'DRIFT-1', { locId: records.cp_locs });
    records.accounts = (await s.api('POST', '/api/accounts', { token: admin, body: { mobile_no: '98765432' } })).body.data.acc_id;
   }, 120_000);
  afterAll(() => s.close());

  /** Calls an operation as the one it is for: unsigned if public, an app of its privilege if external, else the admin. */
  async function call({ method, path, op }: Op, query: Record<string, unknown>, body?: unknown, id?: number) {
    const url = concretePath(path, op, id === undefined ? undefined : String(id)) + queryString(query);
    const as = async () => {
      if (op['x-public']) return {};
      if (op['x-app-privileges']) return { headers: apps[op['x-app-privileges'][0] ?? EXTERNAL_PRIVILEGES[0]] };
      // A sign-out ends the token it is sent with: never the admin's.
      return { token: path.endsWith('/logout') ? await s.login() : admin };
    };
    let res = await s.api(method.toUpperCase(), url, { ...(await as()), body });
    if (res.status === 401 && !op['x-public'] && !op['x-app-privileges']) {
      // A handler that did not refuse the extra input may have ended the admin's sessions: sign in again.
      admin = await s.login();
      res = await s.api(method.toUpperCase(), url, { ...(await as()), body });
    }
    return res;
  }

  const answer = (res: { status: number; body: any }) => `${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
  /** A body that passes the body schema, so that the query is validated too (Fastify stops at the first part refused). */
  const fittingBody = (op: DocOperation) => (jsonBodySchema(op) ? validValue(jsonBodySchema(op)) : undefined);

  it('has every route the server registers (engine routes through their expansion)', () => {
    expect(missingRoutes(s.app.routeTable, doc), 'registered routes the document lacks').toEqual([]);
  });

  it('has the OCPP endpoint and the external API, with their own security schemes', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.appId).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-App-Id' });
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    const external = operations(doc).filter((o) => o.path.startsWith('/api/external/'));
    const registered = s.app.routeTable.filter((r) => r.externalApp && r.method !== 'HEAD');
    expect(registered.length).toBeGreaterThan(0);
    expect(external.length).toBe(registered.length);
    for (const o of external) expect(o.op.security, `${o.method} ${o.path}`).toEqual([{ appId: [], apiKey: [] }]);

    const ocpp = doc.paths['/ocpp/{chargeBoxId}']?.get;
    expect(ocpp?.['x-websocket']).toBe(true);
    // A charger signs in with HTTP Basic (user: its chargeBoxId) when it has a password: a scheme of its own.
    const basic = (ocpp.security as Record<string, string[]>[]).flatMap((r) => Object.keys(r)).filter((k) => schemes[k]?.type === 'http' && schemes[k]?.scheme === 'basic');
    expect(basic, 'the OCPP endpoint names an HTTP Basic security scheme').not.toEqual([]);
  });

  it('refuses an undocumented query parameter and accepts every documented one', async () => {
    const wrong: string[] = [];
    for (const o of operations(doc)) {
      const label = `${o.method.toUpperCase()} ${o.path}`;
      const body = fittingBody(o.op);
      const base = requiredQuery(o.op);
      const res = await call(o, { ...base, [UNDOCUMENTED]: 1 }, body);
      if (res.status !== 400 || !UNKNOWN_QUERY.includes(res.body?.fields?.[UNDOCUMENTED])) wrong.push(`${label} ?${UNDOCUMENTED}=1: ${answer(res)}`);
      // The documented one first (a server naming only the first unknown names it), then the undocumented one
      // so that a server checking its input refuses the request before acting on it. An operation's parameters at once.
      await Promise.all((o.op.parameters ?? []).filter((x: any) => x.in === 'query').map(async (p: any) => {
        const one = await call(o, { [p.name]: validValue(p.schema), ...base, [UNDOCUMENTED]: 1 }, body);
        if (one.status === 400 && UNKNOWN_QUERY.includes(one.body?.fields?.[p.name])) wrong.push(`${label} ?${p.name}: refused as ${one.body.fields[p.name]}`);
      }));
    }
    expect(wrong, 'query parameters where the document and the server disagree').toEqual([]);
  }, 120_000);

  it('refuses an undocumented body field and accepts every documented one', async () => {
    const wrong: string[] = [];
    const unchecked: string[] = [];
    for (const o of operations(doc)) {
      const schema = jsonBodySchema(o.op);
      if (!schema) continue;
      const label = `${o.method.toUpperCase()} ${o.path}`;
      // Every documented field with a fitting value, and one more: the answer must name that one, and only it, as unknown.
      // A body that is a list: its items are the objects.
      const list = schema.type === 'array';
      const documented = validValue(list ? schema.items : schema, true) as Record<string, unknown>;
      const sent = { ...documented, [UNDOCUMENTED]: 1 };
      const key = o.op.tags?.[0];
      const record = o.path === `/api/${key}/{id}` ? records[key] : undefined;
      const res = await call(o, requiredQuery(o.op), list ? [sent] : sent, record);
      // An edit of a record that does not exist is answered 404 before its body is read: proven on the records made above.
      if (res.status === 404 && record === undefined && /does not exist/.test(res.body?.message)) {
        unchecked.push(label);
        continue;
      }
      if (res.status !== 400 || res.body?.fields?.[UNDOCUMENTED] !== 'unknown_field') wrong.push(`${label} body ${UNDOCUMENTED}: ${answer(res)}`);
      for (const name of Object.keys(documented)) if (res.body?.fields?.[name] === 'unknown_field') wrong.push(`${label} body ${name}: refused as unknown_field`);
    }
    expect(wrong, 'body fields where the document and the server disagree').toEqual([]);
    for (const key of Object.keys(records)) expect(unchecked, 'an edit with a record is checked').not.toContain(`PUT /api/${key}/{id}`);
  }, 60_000);
});
