import Fastify, { type FastifyInstance } from 'fastify';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PRIVILEGES, readPrivilege, RESOURCES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { concretePath, operations } from '../testing/api-doc.ts';
import { openApi } from './openapi.ts';
import { LMS_SOCKET_PATH } from '../lms/socket.ts';

/**
 * The OpenAPI document at /api/docs/openapi.json: every /api route Fastify registered is in it
 * (and the probes, the metrics and the WebSocket endpoints) with the privileges the server checks,
 * and those privileges are proven against the running server (none of them: 403; exactly them:
 * past the check).
 */

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** The /api routes registered without a description. */
const undocumented = (app: FastifyInstance) =>
  app.routeTable.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.doc?.summary).map((r) => `${r.method} ${r.url}`);

it('catches a new route registered without a description', async () => {
  const app = Fastify();
  openApi(app);
  app.get('/api/described', { config: { doc: { summary: 'described', privileges: [] } } }, async () => 'ok');
  app.post('/api/forgotten/:id', async () => 'ok');
  await app.ready();
  expect(undocumented(app)).toEqual(['POST /api/forgotten/:id']);
  await app.close();
});

describe('OpenAPI document', () => {
  let s: TestServer;
  let doc: any;
  beforeAll(async () => {
    s = await startTestServer();
    const res = await s.api('GET', '/api/docs/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => s.close());

  it('describes every /api route Fastify registered, with its privileges or as public', () => {
    const routes = s.app.routeTable.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(40);
    expect(undocumented(s.app), 'routes without config.doc (add { config: { doc: { summary, privileges } } } to the route options)').toEqual([]);

    const missing: string[] = [];
    for (const r of routes) {
      if (r.doc!.engine) {
        // Expanded per definition: at least one resource offers each engine operation.
        const expanded = operations(doc).filter((o) => o.op.tags?.[0] in RESOURCES && o.method === r.method.toLowerCase());
        if (expanded.length === 0) missing.push(`${r.method} ${r.url}`);
        continue;
      }
      const templated = r.url.replace(/:(\w+)/g, '{$1}');
      const keys = templated.match(/\{(?:key|resource)\}/);
      const candidates = operations(doc).filter((o) => o.method === r.method.toLowerCase()
        && (keys ? new RegExp(`^${templated.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(?:key|resource)\}/, '[^/]+')}$`).test(o.path) || o.path === templated : o.path === templated));
      if (candidates.length === 0) missing.push(`${r.method} ${r.url}`);
    }
    expect(missing, 'routes the document lacks').toEqual([]);

    for (const { method, path, op } of operations(doc)) {
      const described = op['x-public'] === true || Array.isArray(op['x-app-privileges']) || Array.isArray(op['x-privileges']) || Array.isArray(op['x-any-privilege']);
      expect(described, `${method} ${path} names its privileges or says it is public`).toBe(true);
    }
  });

  it('expands the generic engine per resource definition: fields, required, enums, privileges', () => {
    const zones = doc.paths['/api/cp_zones'];
    expect(zones.get['x-privileges']).toEqual(['READ_CP_ZONES']);
    expect(zones.post['x-privileges']).toEqual(['CREATE_CP_ZONES']);
    const body = zones.post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['loc_id', 'name_chi', 'max_physical_current_limit']));
    expect(body.properties.max_physical_current_limit).toMatchObject({ type: 'integer', minimum: 0, maximum: 100000 });
    expect(body.additionalProperties).toBe(false);
    expect(doc.paths['/api/cp_zones/{id}'].delete['x-privileges']).toEqual(['READ_DELETE', 'EDIT_CP_ZONES']);
    // A log offers no writes: only what it has.
    expect(Object.keys(doc.paths['/api/user_log'])).toEqual(['get']);
    // A static route of the same path is the one served (third_party_conf's create answers the key).
    expect(doc.paths['/api/third_party_conf'].post.summary).toMatch(/API key/);
    // An enum from a fixed option list.
    const withEnum = operations(doc).some((o) => Object.values(o.op.requestBody?.content?.['application/json']?.schema?.properties ?? {}).some((p: any) => Array.isArray(p.enum)));
    expect(withEnum).toBe(true);
    for (const def of Object.values(RESOURCES)) expect(doc.paths[`/api/${def.key}`]?.get ?? doc.paths[`/api/${def.key}/{id}`]?.get, def.key).toBeDefined();
  });

  it('is a well-formed OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, op } of operations(doc, { webSockets: true })) {
      expect(path.startsWith('/api/') || op.tags[0] === 'operations' || op['x-websocket'], path).toBe(true);
      expect(METHODS, `${method} ${path}`).toContain(method);
      expect(op.responses?.[op['x-websocket'] ? '101' : '200'], `${method} ${path} responses`).toBeDefined();
      expect(Array.isArray(op.security), `${method} ${path} security`).toBe(true);
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        expect(op.parameters?.some((p: any) => p.in === 'path' && p.name === name && p.required), `${method} ${path} declares {${name}}`).toBe(true);
      }
      for (const scheme of op.security.flatMap((x: object) => Object.keys(x))) expect(doc.components.securitySchemes[scheme]).toBeDefined();
    }
  });

  it('serves a readable page without scripts, under the strict CSP', async () => {
    const res = await fetch(`${s.baseUrl}/api/docs`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script/i);
    for (const { op } of operations(doc, { webSockets: true })) expect(html).toContain(`id="${op.operationId}"`);
    expect(html).toContain('READ_CP_ZONES');
    expect(html).toContain('<span class="m ws">WS</span> <code>/ocpp/{chargeBoxId}</code>');
  });

  it('describes the probes, the metrics and the WebSocket endpoints, each with who may use it', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(doc.paths[path]?.get?.['x-public'], path).toBe(true);
      expect((await fetch(`${s.baseUrl}${path}`)).status, path).toBe(200);
    }
    expect(doc.paths['/metrics'].get['x-privilege-note']).toContain('METRICS_TOKEN');
    const sockets = operations(doc, { webSockets: true }).filter((o) => o.op['x-websocket']);
    expect(sockets.map((o) => o.path).sort()).toEqual([LMS_SOCKET_PATH, '/ocpp/{chargeBoxId}'].sort());
    const lms = doc.paths[LMS_SOCKET_PATH].get;
    expect(lms['x-any-privilege']).toEqual([readPrivilege('lms/dashboard'), readPrivilege('realtime/log')]);
    expect(lms.parameters).toEqual([expect.objectContaining({ name: 'token', in: 'query' })]);
    const ocpp = doc.paths['/ocpp/{chargeBoxId}'].get;
    expect(ocpp['x-public']).toBe(true);
    expect(ocpp.parameters).toEqual([expect.objectContaining({ name: 'chargeBoxId', in: 'path', required: true })]);
    // What the document says about refusals is what the endpoints answer.
    const refusal = (path: string) => new Promise<number>((resolve, reject) => {
      const req = http.get(`${s.baseUrl}${path}`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'ocpp1.6' } });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('upgrade', () => reject(new Error(`${path} upgraded`)));
      req.on('error', reject);
    });
    expect(await refusal('/ocpp/NO-SUCH-CHARGER')).toBe(404);
    expect(ocpp.description).toContain('404 for an unknown');
    expect(await refusal(`${LMS_SOCKET_PATH}?token=wrong`)).toBe(401);
    expect(lms.description).toContain('401 without a valid token');
  });

  it('names the privileges the server checks: without them 403, with exactly them past the check', async () => {
    // One probe user whose role's privileges are set before each call (read afresh on every request).
    const token = await userWith(s, 'probe', []);
    const [{ role_id: roleId }] = await s.db.query(`SELECT role_id FROM users WHERE username = 'probe'`);
    const grant = async (names: readonly string[]) => {
      await s.db.query(`DELETE FROM role_privileges WHERE role_id = $1`, [roleId]);
      await s.db.query(`INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, id FROM privileges WHERE name = ANY($2::text[])`, [roleId, names]);
    };
    const wrong: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const needed: string[] | undefined = op['x-any-privilege'] ?? op['x-privileges'];
      if (!needed || needed.length === 0 || op['x-roles']) continue;
      const call = () => s.api(method.toUpperCase(), concretePath(path, op), { token, ...(method === 'get' ? {} : { body: {} }) });
      await grant([]);
      const without = await call();
      if (without.status !== 403) wrong.push(`${method} ${path} without privileges: ${without.status}`);
      await grant(op['x-any-privilege'] ? [needed[0]] : needed);
      const withThem = await call();
      // A privilege the request decides (x-privilege-note: create or edit) may still be asked for, if the note names it.
      const noted = withThem.status === 403 && typeof op['x-privilege-note'] === 'string' && op['x-privilege-note'].includes(withThem.body?.privilege ?? '\0');
      if ((withThem.status === 403 && !noted) || withThem.status === 401 || withThem.status >= 500) wrong.push(`${method} ${path} with ${needed.join(', ')}: ${withThem.status} ${JSON.stringify(withThem.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('signed-in routes refuse the unsigned, public routes do not, external routes want an app key of their privilege', async () => {
    const admin = await s.login();
    const apps: Record<string, { id: string; key: string }> = {};
    for (const p of EXTERNAL_PRIVILEGES) {
      const made = await s.api('POST', '/api/third_party_conf', { token: admin, body: { key_name: p, app_id: `doc-${p}`, privilege_key: p } });
      apps[p] = { id: `doc-${p}`, key: made.body.data.api_key };
    }
    const wrong: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const url = concretePath(path, op);
      const body = method === 'get' ? undefined : {};
      if (op['x-app-privileges']) {
        for (const p of EXTERNAL_PRIVILEGES) {
          const res = await s.api(method.toUpperCase(), url, { body, headers: { 'x-app-id': apps[p].id, 'x-api-key': apps[p].key } });
          const allowed = op['x-app-privileges'].includes(p);
          if (allowed ? res.status === 401 || res.status === 403 : res.status !== 403) wrong.push(`${method} ${path} as ${p}: ${res.status}`);
        }
        const res = await s.api(method.toUpperCase(), url, { body });
        if (res.status !== 401) wrong.push(`${method} ${path} without a key: ${res.status}`);
        continue;
      }
      const res = await s.api(method.toUpperCase(), url, { body });
      if (op['x-public'] ? res.status === 401 : res.status !== 401) wrong.push(`${method} ${path} unsigned: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
