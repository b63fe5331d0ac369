import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { operations } from '../testing/api-doc.ts';

/**
 * Every operation of the OpenAPI document (/api/docs/openapi.json) gets generated bad input, as the
 * admin (who holds every privilege, so the input reaches the handler) and unsigned: wrong types,
 * missing and extra fields, huge and odd strings, bad ids, bad query parameters, bad JSON, wrong
 * content types. Never a 5xx, and a refused request (4xx) leaves the database as it was.
 *
 * FUZZ_RUNS: bad requests per operation and identity (default 4); FUZZ_SEED: fast-check's seed.
 * resources/bad-input.test.ts goes deeper into the engine's fields and filters.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? 13);

/**
 * Tables a refused request may legitimately write, left out of the fingerprint:
 * - login_tokens: every signed-in request slides its token's expiry (at most once a minute);
 * - user_log: failed sign-ins are logged there by design (the login fuzz is refused sign-ins);
 * - third_party_error_log: the external API logs every refusal there by design.
 */
const LOGGING_REFUSALS = new Set(['login_tokens', 'user_log', 'third_party_error_log']);

interface BadRequest {
  what: string;
  path: string;
  query: string;
  body?: string;
  contentType?: string;
}

type Operation = { method: string; path: string; op: Record<string, any> };

/** The per-table count and md5 of every row: equal fingerprints, equal data. */
async function fingerprint(s: TestServer, tables: string[]): Promise<Map<string, string>> {
  const sql = tables.map((t) => `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS h FROM "${t}" x`).join(' UNION ALL ');
  const rows = await s.db.query<{ t: string; h: string }>(sql);
  return new Map(rows.map((r) => [r.t, r.h]));
}

const changedTables = (a: Map<string, string>, b: Map<string, string>) => [...a.keys()].filter((t) => a.get(t) !== b.get(t));

const BAD_SEGMENTS = ['-1', '0', 'NaN', '1e309', '99999999999999999999', '1.5', '%00', '%zz', '%EF%BC%91', '%20', 'abc', '9'.repeat(250), '%27%3B--', 'null', '%5B%5D'];
const BAD_JSON = ['{', '{"a":', '[1,', '"', 'nul', '{"a":1}}', '\u0000', '{"__proto__":{"x":1}}', '{"a":1e999999}', '[]x'];
const huge = (n: number) => fc.constant('x'.repeat(n));

/** A value of another type than the schema asks for, or an odd one of the same type. */
function wrongValue(schema: Record<string, any> | undefined): fc.Arbitrary<unknown> {
  const odd = fc.oneof(
    fc.constantFrom<unknown>(null, true, false, -1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'NaN', '\u0000', '\ud800', '%00', [], {}, [[]], { $gt: 1 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    huge(100_000),
    fc.integer(),
    fc.double(),
    fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string()), { maxKeys: 3 }),
  );
  if (!schema) return odd;
  const type = schema.type ?? (schema.anyOf ? 'mixed' : undefined);
  if (type === 'integer' || type === 'number') return fc.oneof(odd, fc.string({ maxLength: 10 }), fc.constantFrom<unknown>(-2_147_483_649, 2_147_483_648, Number.MAX_SAFE_INTEGER));
  if (type === 'string') return fc.oneof(odd, fc.integer(), fc.constantFrom<unknown>('x'.repeat((schema.maxLength ?? 10_000) + 1)));
  if (type === 'array') return fc.oneof(odd, fc.array(fc.anything(), { maxLength: 5 }), fc.constant(Array.from({ length: 30_000 }, (_, i) => i)));
  return odd;
}

/** A value that fits the schema (ids: 1, or one that names nothing), so that one wrong field among fitting ones reaches the handler. */
function fittingValue(schema: Record<string, any> | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant('fuzz');
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf)) return fittingValue(schema.anyOf[0]);
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = Math.min(schema.maximum ?? 2_147_483_647, 2_147_483_647);
      return fc.constantFrom(...[1, min, max, 999_999].filter((n) => n >= min && n <= max && (schema.type === 'number' || Number.isInteger(n))));
    }
    case 'string':
      return fc.constantFrom('fuzz', '2026-01-01 00:00:00', '08:00').filter((v) => v.length >= (schema.minLength ?? 0) && v.length <= (schema.maxLength ?? 100));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fittingValue(schema.items), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, 2) });
    case 'object':
      return fc.record(Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, p]) => [k, fittingValue(p as Record<string, any>)])));
    default:
      return fc.constant(1);
  }
}

const jsonBody = (op: Record<string, any>) => op.requestBody?.content?.['application/json']?.schema as Record<string, any> | undefined;

/** Bad bodies for an operation that takes one: from its schema where it has one. */
function badBody(op: Record<string, any>): fc.Arbitrary<Pick<BadRequest, 'what' | 'body' | 'contentType'>> {
  const schema = jsonBody(op);
  // A list body (price scheme sessions, zone assignments) is fuzzed through its items.
  const listed = schema?.type === 'array';
  const item: Record<string, any> | undefined = listed ? schema?.items : schema;
  const props: Record<string, any> = item?.properties ?? {};
  const json = (what: string, value: unknown) => ({ what, body: JSON.stringify(listed ? [value] : value), contentType: 'application/json' });
  const fieldsArb = Object.keys(props).length
    ? fc.record(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, wrongValue(p)])), { requiredKeys: [] }).map((v) => json('wrong-typed fields', v))
    : fc.dictionary(fc.string({ maxLength: 12 }), fc.anything(), { minKeys: 1, maxKeys: 4 }).map((v) => json('unknown fields', v));
  // Every field fitting but one: the handler's own checks (and the database's) get their turn.
  const oneWrong = Object.keys(props).length
    ? fc.tuple(fittingValue({ ...item, type: 'object' }), fc.constantFrom(...Object.keys(props)))
      .chain(([body, field]) => wrongValue(props[field]).map((bad) => json(`one wrong field (${field})`, { ...(body as object), [field]: bad })))
    : fieldsArb;
  const fitting = Object.keys(props).length ? fittingValue({ ...item, type: 'object' }).map((v) => json('fitting fields', v)) : fieldsArb;
  return fc.oneof(
    fieldsArb,
    oneWrong,
    oneWrong,
    fitting,
    fc.constantFrom<unknown>(null, [], 'text', 0, true, [{}]).map((v) => json('wrong top-level type', v)),
    fc.constant(json('no fields', {})),
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), wrongValue(undefined)).map(([k, v]) => json('an extra field', { [`x_${k}`]: v })),
    fc.integer({ min: 50, max: 400 }).map((depth) => ({ what: 'deep nesting', body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), contentType: 'application/json' })),
    fc.constantFrom(...BAD_JSON).map((raw) => ({ what: 'bad JSON', body: raw, contentType: 'application/json' })),
    fc.constantFrom(
      { what: 'text/plain body', body: '{"a":1}', contentType: 'text/plain' },
      { what: 'form body', body: 'a=1&b=%00', contentType: 'application/x-www-form-urlencoded' },
      { what: 'broken multipart', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1', contentType: 'multipart/form-data; boundary=x' },
      { what: 'xml body', body: '<a>1</a>', contentType: 'application/xml' },
      { what: 'empty JSON body', body: '', contentType: 'application/json' },
      { what: 'JSON without a content type', body: '{"a":1}', contentType: undefined },
      { what: 'body too large', body: JSON.stringify({ a: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
    ),
  );
}

/** Bad query strings: the declared parameters with odd values, unknown ones, repeated ones, broken escapes. */
function badQuery(op: Record<string, any>): fc.Arbitrary<{ what: string; query: string }> {
  const declared: string[] = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
  const value = fc.oneof(fc.constantFrom('%00', '%zz', '%', '-1', 'NaN', '1e309', '99999999999999999999', '[]', '{}', "'", '1,2,x', 'x'.repeat(5000)), fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent));
  const name = declared.length ? fc.oneof(fc.constantFrom(...declared), fc.constant('no_such_param')) : fc.constantFrom('no_such_param', 'page', 'id', '__proto__', 'constructor');
  return fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 4 }).map((pairs) => ({
    what: 'bad query', query: `?${pairs.map(([n, v]) => `${encodeURIComponent(n)}=${v}`).join('&')}`,
  }));
}

/** Bad path parameters (ids, connector ids, charger numbers); keys of a resource stay valid. */
function badPath(path: string, op: Record<string, any>, good: (name: string) => string): fc.Arbitrary<{ what: string; path: string }> | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => n !== 'key' && n !== 'resource');
  if (!names.length) return undefined;
  return fc.tuple(fc.constantFrom(...names), fc.oneof(fc.constantFrom(...BAD_SEGMENTS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent))).map(([name, bad]) => ({
    what: `bad {${name}}`,
    path: path.replace(/\{(\w+)\}/g, (_m, n: string) => (n === name ? bad : good(n))),
  }));
}

function badRequests(o: Operation, good: (name: string) => string, runs: number, seed: number): BadRequest[] {
  const validPath = o.path.replace(/\{(\w+)\}/g, (_m, n: string) => good(n));
  const takesBody = o.method !== 'get' && o.method !== 'delete';
  const arbs: fc.Arbitrary<BadRequest>[] = [badQuery(o.op).map((q) => ({ ...q, path: validPath, ...(takesBody ? { body: '{}', contentType: 'application/json' } : {}) }))];
  const pathArb = badPath(o.path, o.op, good);
  if (pathArb) arbs.push(pathArb.map((p) => ({ ...p, query: '', ...(takesBody ? { body: '{}', contentType: 'application/json' } : {}) })));
  if (takesBody) arbs.push(badBody(o.op).map((b) => ({ ...b, path: validPath, query: '' })), badBody(o.op).map((b) => ({ ...b, path: validPath, query: '' })));
  return fc.sample(fc.oneof(...arbs), { numRuns: runs, seed });
}

describe('API fuzz: bad input to every operation of the OpenAPI document', () => {
  let s: TestServer;
  let doc: any;
  let admin: string;
  let tables: string[];
  let adminPrivileges: string[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    doc = (await s.api('GET', '/api/docs/openapi.json')).body;
    const locId = await addSite(s.db);
    const cpId = await addCharger(s.db, 'FUZZ-1', { locId });
    const [zone] = await s.db.query(`INSERT INTO cp_zones (loc_id, name_chi, max_physical_current_limit) VALUES ($1, 'fuzz', 100) RETURNING zone_id`, [locId]);
    // The records an edit is fuzzed on are the newest of their table (below): the fuzz's own, not the admin's role, user or privileges.
    const [role] = await s.db.query(`INSERT INTO roles (role, name_chi, level) VALUES ('fuzz-role', 'fuzz', 1) RETURNING id`);
    await s.db.query(`INSERT INTO users (name, role_id, username, password_hash) VALUES ('fuzz', $1, 'fuzz-user', 'none')`, [role.id]);
    await s.db.query(`INSERT INTO privileges (name) VALUES ('FUZZ_PRIVILEGE')`);
    adminPrivileges = (await s.api('POST', '/api/me', { token: admin })).body.privileges;
    Object.assign(ids, { loc: String(locId), zone: String(zone.zone_id), zone_id: String(zone.zone_id), roleId: String(role.id), cpId: String(cpId), connectorId: '1', cpNo: 'FUZZ-1' });
    tables = (await s.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
    )).map((r) => r.table_name).filter((t) => !LOGGING_REFUSALS.has(t));
  });
  afterAll(() => s.close());

  /** A value a path parameter takes when it is not the one under test: a record that exists where one does. */
  async function goodParams(o: Operation): Promise<(name: string) => string> {
    const def = getResource(o.op.tags?.[0] ?? '');
    let recordId = ids.cpId;
    if (def && /\{id\}/.test(o.path) && !/rsrStartCharger|rsrStopCharger|unlockCharger|rsrResetCharger|getDiagnostics|change_availability|getLp|triggerMessage|cpConfig|meter_chart/.test(o.path)) {
      const [row] = await s.db.query(`SELECT "${def.idField}" AS id FROM "${def.table}" ORDER BY 1 DESC LIMIT 1`);
      recordId = row ? String(row.id) : '1';
    }
    // A delete of a record that exists is no bad input: deletes get an id that names none.
    if (o.method === 'delete') recordId = '999999';
    return (name) => {
      const p = (o.op.parameters ?? []).find((x: any) => x.in === 'path' && x.name === name);
      if (p?.schema?.enum) return encodeURIComponent(p.schema.enum[0]);
      return ids[name] ?? (name === 'id' ? recordId : '1');
    };
  }

  async function send(r: BadRequest, method: string, token: string | undefined) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (r.contentType) headers['content-type'] = r.contentType;
    const res = await fetch(`${s.baseUrl}${r.path}${r.query}`, { method: method.toUpperCase(), headers, body: r.body });
    return { status: res.status, text: (await res.text()).slice(0, 300) };
  }

  /** The data rotation job runs after its route answered: its writes are waited for, not blamed on the next request. */
  async function rotationFinished() {
    while ((await s.api('GET', '/api/data_rotation_setup/run', { token: admin })).body.running) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Runs the bad requests of each operation; answers what went wrong (5xx, data changed by a
   * refusal). A write, or a GET that commands a charger, is fingerprinted after each request (its
   * success may change data); a read, and anything unsigned, once after its batch, which must
   * change nothing at all.
   */
  async function fuzz(identity: 'admin' | 'unsigned'): Promise<string[]> {
    const problems: string[] = [];
    // Signing in last: its refusals count towards the address's sign-in limit.
    const ops = operations(doc).sort((a, b) => Number(a.path === '/api/login') - Number(b.path === '/api/login'));
    let before = await fingerprint(s, tables);
    let sent = 0;
    for (const [i, o] of ops.entries()) {
      const good = await goodParams(o);
      const engineRead = o.method === 'get' && getResource(o.op.tags?.[0] ?? '') !== undefined && /^\/api\/[^/]+(\/\{id\}|\/export\/.*|\/checkDelete\/\{id\})?$/.test(o.path);
      const perRequest = identity === 'admin' && !engineRead;
      const labels: string[] = [];
      for (const r of badRequests(o, good, RUNS, SEED + i)) {
        // Signing out ends the admin's session whatever else the request says: it gets a session of its own.
        const token = identity === 'unsigned' ? undefined : o.path === '/api/logout' ? await s.login() : admin;
        const res = await send(r, o.method, token);
        sent++;
        const label = `${identity} ${o.method.toUpperCase()} ${o.path} [${r.what}] ${r.path.slice(0, 120)}${r.query.slice(0, 80)} → ${res.status} ${res.text.slice(0, 160)}`;
        labels.push(label);
        if (res.status >= 500) problems.push(label);
        if (!perRequest) continue;
        if (res.status < 300 && o.path === '/api/data_rotation_setup/run' && o.method === 'post') await rotationFinished();
        const after = await fingerprint(s, tables);
        const changed = changedTables(before, after);
        if (res.status >= 400 && changed.length) problems.push(`${label}: changed ${changed.join(', ')}`);
        before = after;
      }
      if (perRequest) continue;
      const after = await fingerprint(s, tables);
      const changed = changedTables(before, after);
      if (changed.length) problems.push(`changed ${changed.join(', ')} after:\n  ${labels.join('\n  ')}`);
      before = after;
    }
    expect(sent).toBeGreaterThan(ops.length);
    return problems;
  }

  it('as the admin: never a 5xx, a refusal changes nothing', async () => {
    expect(await fuzz('admin')).toEqual([]);
    // Whatever the fuzz wrote, the admin kept every privilege: its requests reached the handlers to the end.
    expect((await s.api('POST', '/api/me', { token: admin })).body.privileges).toEqual(adminPrivileges);
  }, 600_000);

  it('unsigned: never a 5xx, a refusal changes nothing', async () => {
    expect(await fuzz('unsigned')).toEqual([]);
  }, 600_000);
});
