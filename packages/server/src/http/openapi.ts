import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import {
  EXTERNAL_ACTIONS,
  EXTERNAL_PRIVILEGES,
  RESOURCES,
  STATIC_OPTIONS,
  type ColumnDef,
  type ExternalAction,
  type FieldDef,
  type ResourceDef,
  type ValueType,
} from '@ev/core';
import { privilegesFor, type Access } from '../resources/access.ts';
import { API_VERSION } from '../version.ts';

/** What the generic engine's route does, described once per resource definition. */
export type EngineOperation = 'list' | 'view' | 'create' | 'edit' | 'delete' | 'checkDelete' | 'excel' | 'pdf';

/**
 * A route's description in the OpenAPI document, given in its options (`config: { doc }`). The
 * privileges are the ones the handler checks inline (requirePrivileges): the document says them,
 * openapi.test.ts proves them against the running server.
 */
export interface RouteDoc {
  summary: string;
  /** Every one of these is needed; [] when any signed-in user may call the route. */
  privileges?: readonly string[];
  /** At least one of these is needed (instead of privileges). */
  anyPrivilege?: readonly string[];
  /** A privilege the request itself decides (a create needs CREATE_…, an edit EDIT_…). */
  note?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The generic engine: expanded to one path per resource definition that offers it. */
  engine?: EngineOperation;
  /** The resources a `:key` / `:resource` segment may name ('commandable': chargers' resources). */
  keys?: readonly string[] | 'commandable';
  /** An external API route (X-App-Id / X-Api-Key): the apps whose privilege_key allows this action. */
  externalAction?: ExternalAction;
}

/**
 * A WebSocket endpoint, which is not a Fastify route (its module takes the http server's 'upgrade'
 * event): described by that module with `app.describeWebSocket`, shown as a GET with `x-websocket`.
 */
export interface WebSocketDoc extends Pick<RouteDoc, 'summary' | 'anyPrivilege' | 'note'> {
  /** As OpenAPI writes it: `/ocpp/{chargeBoxId}`. */
  path: string;
  /** What travels over it. */
  description: string;
  parameters: { name: string; in: 'path' | 'query'; description: string }[];
  /** No portal sign-in (a charger's own rule is in the note). */
  public?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered (method by method), for the OpenAPI document and the tests that walk the routes. */
    routeTable: readonly RegisteredRoute[];
    /** Adds a WebSocket endpoint to the OpenAPI document. */
    describeWebSocket(doc: WebSocketDoc): void;
  }
  interface FastifyContextConfig {
    /** The route's OpenAPI description (http/openapi.ts); every /api route has one (openapi.test.ts). */
    doc?: RouteDoc;
  }
}

/** A route as Fastify registered it, with what its options say about it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  doc?: RouteDoc;
  public: boolean;
  externalApp: boolean;
}

type Json = Record<string, unknown>;

const ENGINE_ACCESS: Record<EngineOperation, Access> = {
  list: 'read', view: 'read', excel: 'read', pdf: 'read', create: 'create', edit: 'edit', delete: 'delete', checkDelete: 'delete',
};

/** Whether the definition offers the operation at all (requireAccess answers 405, or the route 404, otherwise). */
function offers(def: ResourceDef, op: EngineOperation): boolean {
  const writes = !def.readOnly;
  switch (op) {
    case 'create':
      return writes && def.actions.includes('create');
    case 'edit':
      return writes && (def.actions.includes('edit') || def.actions.includes('editview'));
    case 'delete':
    case 'checkDelete':
      return writes && def.actions.includes('delete');
    case 'excel':
      return def.actions.includes('excel');
    case 'pdf':
      return def.actions.includes('downloadPdf');
    default:
      return true;
  }
}

const VALUE_SCHEMA: Record<ValueType, Json> = {
  int: { type: 'integer' },
  float: { type: 'number' },
  text: { type: 'string' },
  bool: { type: 'integer', enum: [0, 1] },
  timestamp: { type: 'string', description: 'YYYY-MM-DD HH:mm:ss' },
  json: {},
  intArray: { type: 'array', items: { type: 'integer', minimum: 1 } },
};

const staticValues = (options: string | undefined) =>
  options && Object.hasOwn(STATIC_OPTIONS, options) ? STATIC_OPTIONS[options].map((o) => o.value) : undefined;

function fieldSchema(f: FieldDef): Json {
  const s: Json = { ...VALUE_SCHEMA[f.type] };
  const values = staticValues(f.options);
  if (values) {
    if (f.type === 'json') Object.assign(s, { type: 'array', items: { enum: values } });
    else s.enum = values;
  }
  if (f.options && !values) s['x-options'] = f.options;
  if (f.maxLength !== undefined) s.maxLength = f.maxLength;
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  if (f.limit !== undefined) s.maxItems = f.limit;
  if (f.writeOnly) s.writeOnly = true;
  if (f.default !== undefined) s.default = f.default;
  const notes = [f.lockedAfterCreate && 'set on create only', f.fixed && 'fixed', f.privileges?.length && `needs ${f.privileges.join(', ')}`, f.unique && 'unique'];
  if (notes.some(Boolean)) s.description = notes.filter(Boolean).join('; ');
  return s;
}

function bodySchema(def: ResourceDef, mode: 'create' | 'update'): Json {
  const required = def.fields.filter((f) => f.required || (mode === 'create' && f.requiredOnCreateOnly)).map((f) => f.field);
  return {
    type: 'object',
    properties: Object.fromEntries(def.fields.map((f) => [f.field, fieldSchema(f)])),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

function rowSchema(def: ResourceDef): Json {
  const props: Json = { [def.idField]: { type: 'integer' } };
  for (const c of def.columns) {
    if (c.display === 'action' || c.display === 'massUpdate') continue;
    props[c.field] = { ...VALUE_SCHEMA[c.type], ...(c.privileges?.length ? { description: `sent only to holders of ${c.privileges.join(', ')}` } : {}) };
  }
  return { type: 'object', properties: props };
}

function filterParameter(c: ColumnDef): Json {
  const values = staticValues(c.options)?.map(String);
  const one: Json = values ? { type: 'string', enum: values } : { type: 'string' };
  switch (c.filter) {
    case 'multiselect':
      return { name: c.field, in: 'query', schema: { type: 'array', items: one }, style: 'form', explode: true };
    case 'boolean':
      return { name: c.field, in: 'query', schema: { type: 'string', enum: ['0', '1'] } };
    case 'dateRange':
      return { name: c.field, in: 'query', schema: { type: 'string', pattern: '^\\d+,\\d+$' }, description: 'from,to in unix seconds' };
    default:
      return { name: c.field, in: 'query', schema: one, ...(c.filter === 'text' ? { description: 'contains, case-insensitive' } : {}) };
  }
}

function listParameters(def: ResourceDef): Json[] {
  const sortable = [def.idField, ...def.columns.filter((c) => c.sortable).map((c) => c.field)];
  return [
    { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 99999 } },
    { name: 'sort_by', in: 'query', schema: { type: 'string', enum: [...new Set(sortable)] } },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } },
    ...(def.softDelete ? [{ name: 'trash', in: 'query', schema: { type: 'string', enum: ['0', '1'] } }] : []),
    ...(def.site?.column ? [{ name: 'locId', in: 'query', schema: { type: 'integer' }, description: `the site (${def.site.column}); -1: every site (no filter); 0: records of no site` }] : []),
    ...(def.columns.some((c) => c.field === 'enable_flag') ? [] : [{
      name: 'enable_flag', in: 'query', schema: { type: 'string', enum: def.paramAliases?.enable_flag ? ['0', '1'] : ['1'] },
      description: def.paramAliases?.enable_flag ? `the same as ${def.paramAliases.enable_flag}` : 'accepted as the spec\'s option calls send it: every record is enabled',
    }]),
    ...def.columns.filter((c) => c.filter).map(filterParameter),
  ];
}

const idParameter = (name = 'id'): Json => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

/** One engine operation of one resource: path, method and its OpenAPI operation. */
function engineOperation(def: ResourceDef, op: EngineOperation): { path: string; method: string; operation: Json } {
  const base = `/api/${def.key}`;
  const name = def.labels.en?.name ?? def.key;
  const roles = def.roles ? { 'x-roles': def.roles } : {};
  const privileges = privilegesFor(def, ENGINE_ACCESS[op]);
  const common = { tags: [def.key], 'x-privileges': privileges, ...roles };
  const dataset = { type: 'object', properties: { content: { type: 'array', items: rowSchema(def) }, totalElements: { type: 'integer' }, totalPages: { type: 'integer' } } };
  const written = jsonContent({ type: 'object', properties: { status: { const: 'success' }, data: rowSchema(def) } });
  switch (op) {
    case 'list':
      return { path: base, method: 'get', operation: { ...common, summary: `List ${name}`, parameters: listParameters(def), responses: { 200: { description: 'A page of records', content: jsonContent({ type: 'object', properties: { dataset } }) } } } };
    case 'view':
      return { path: `${base}/{id}`, method: 'get', operation: { ...common, summary: `View one of ${name}`, parameters: [idParameter()], responses: { 200: { description: 'The record', content: jsonContent(rowSchema(def)) } } } };
    case 'create':
      return { path: base, method: 'post', operation: { ...common, summary: `Create one of ${name}`, requestBody: { required: true, content: jsonContent(bodySchema(def, 'create')) }, responses: { 200: { description: 'Created', content: written } } } };
    case 'edit':
      return { path: `${base}/{id}`, method: 'put', operation: { ...common, summary: `Edit one of ${name}`, parameters: [idParameter()], requestBody: { required: true, content: jsonContent(bodySchema(def, 'update')) }, responses: { 200: { description: 'Saved', content: written } } } };
    case 'delete':
      return { path: `${base}/{id}`, method: 'delete', operation: { ...common, summary: `Delete one of ${name}${def.softDelete ? ' (to trash)' : ''}`, parameters: [idParameter()], responses: { 200: { description: 'Deleted', content: { 'text/plain': { schema: { const: 'Deleted' } } } } } } };
    case 'checkDelete':
      return { path: `${base}/checkDelete/{id}`, method: 'get', operation: { ...common, summary: `What deleting one of ${name} affects`, parameters: [idParameter()], responses: { 200: { description: 'A message key, if any', content: jsonContent({ type: 'object', properties: { msgCode: { type: 'string' } } }) } } } };
    case 'excel': {
      const keys = { type: 'array', items: { type: 'string' } };
      const parameters = [
        { name: 'keys', in: 'query', required: true, schema: keys, style: 'form', explode: true, description: 'the columns, in order' },
        { name: 'headers', in: 'query', required: true, schema: keys, style: 'form', explode: true, description: 'one title per key' },
        { name: 'sheet_name', in: 'query', schema: { type: 'string', maxLength: 31 } },
        ...listParameters(def).filter((p) => p.name !== 'page' && p.name !== 'size'),
      ];
      return { path: `${base}/export/excel`, method: 'get', operation: { ...common, summary: `Export ${name} to Excel`, parameters, responses: { 200: { description: 'An .xlsx file', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {} } } } } };
    }
    case 'pdf':
      return { path: `${base}/export/pdf/{id}`, method: 'get', operation: { ...common, summary: `One of ${name} as a PDF`, parameters: [idParameter(), { name: 'lang', in: 'query', schema: { type: 'string', enum: ['en', 'zh-TW'] } }], responses: { 200: { description: 'A PDF file', content: { 'application/pdf': {} } } } } };
  }
}

const toJsonSchema = (schema: z.ZodType): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
};

/** Path and query parameters of a route: from its zod schemas where it has them, else strings named by the path. */
function routeParameters(path: string, doc: RouteDoc, keys: readonly string[] | undefined): Json[] {
  const params = doc.params ? toJsonSchema(doc.params) : undefined;
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const fromZod = (params?.properties as Record<string, Json> | undefined)?.[name];
    const schema = (name === 'key' || name === 'resource') && keys ? { type: 'string', enum: keys } : (fromZod ?? { type: 'string' });
    return { name, in: 'path', required: true, schema };
  });
  const query = doc.query ? toJsonSchema(doc.query) : undefined;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  const queryParams = Object.entries((query?.properties as Record<string, Json> | undefined) ?? {}).map(([name, schema]) => ({
    name, in: 'query', ...(required.has(name) ? { required: true } : {}), schema,
  }));
  return [...pathParams, ...queryParams];
}

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function operationId(method: string, path: string): string {
  const words = path.replace(/^\/api\//, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function privilegeText(op: Json): string {
  if (op['x-public']) return `Public: no sign-in.${op['x-privilege-note'] ? ` ${op['x-privilege-note']}` : ''}`;
  if (op['x-app-privileges']) return `External app (X-App-Id, X-Api-Key) whose privilege_key is one of: ${(op['x-app-privileges'] as string[]).join(', ')}.`;
  const any = op['x-any-privilege'] as string[] | undefined;
  const all = (op['x-privileges'] as string[] | undefined) ?? [];
  const text = any ? `Signed in, holding one of: ${any.join(', ')}.` : all.length ? `Signed in, holding: ${all.join(', ')}.` : 'Any signed-in user.';
  const roles = op['x-roles'] ? ` Roles: ${(op['x-roles'] as string[]).join(', ')}.` : '';
  return `${text}${roles}${op['x-privilege-note'] ? ` ${op['x-privilege-note']}` : ''}`;
}

/** An operation's tag: the first segment under /api (or 'external'), 'operations' for the probes and metrics outside it. */
function tagOf(path: string, keys: readonly string[] | undefined): string {
  const [, root, first] = path.split('/');
  if (root !== 'api') return 'operations';
  if (first === 'external') return 'external';
  return first.startsWith('{') ? (keys?.[0] ?? 'resources') : first;
}

/**
 * The OpenAPI 3.1 document of the routes Fastify registered (what the onRoute hook collected):
 * every /api route, the described routes outside it (probes, metrics), and the WebSocket endpoints.
 */
export function openApiDocument(routes: readonly RegisteredRoute[], sockets: readonly WebSocketDoc[] = []): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: string, operation: Json) => {
    const item = (paths[path] ??= {});
    if (item[method]) return;
    item[method] = {
      operationId: operationId(method, path),
      ...operation,
      description: [operation.description, privilegeText(operation)].filter(Boolean).join('\n\n'),
      security: operation['x-public'] ? [] : operation['x-app-privileges'] ? [{ appId: [], apiKey: [] }] : [{ bearer: [] }],
      responses: {
        ...(operation.responses as Json | undefined ?? { 200: { description: 'Done' } }),
        400: { description: 'Invalid input: {errors, fields}' },
        ...(operation['x-public'] ? {} : { 401: { description: 'Not signed in' }, 403: { description: 'Missing privilege' } }),
      },
    };
  };
  const api = routes.filter((r) => r.method !== 'HEAD' && (r.url.startsWith('/api/') || r.doc));
  const staticOps = new Set(api.filter((r) => !r.doc?.engine).map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));

  for (const r of api) {
    const doc = r.doc;
    if (!doc) continue;
    if (doc.engine) {
      for (const def of Object.values(RESOURCES)) {
        if (!offers(def, doc.engine)) continue;
        const { path, method, operation } = engineOperation(def, doc.engine);
        // A specific route of the same path (third_party_conf's create, the own profile) is the one Fastify runs.
        if (!staticOps.has(`${method} ${path}`)) add(path, method, operation);
      }
      continue;
    }
    const keys = doc.keys === 'commandable' ? Object.values(RESOURCES).filter((d) => d.commandable).map((d) => d.key) : doc.keys;
    const path = openApiPath(r.url);
    const operation: Json = {
      summary: doc.summary,
      tags: [tagOf(path, keys)],
      parameters: routeParameters(path, doc, keys),
      ...(doc.body ? { requestBody: { required: true, content: jsonContent(toJsonSchema(doc.body)) } } : {}),
    };
    if (r.public) operation['x-public'] = true;
    else if (r.externalApp) {
      const action = doc.externalAction;
      operation['x-app-privileges'] = action ? EXTERNAL_PRIVILEGES.filter((p) => EXTERNAL_ACTIONS[p].includes(action)) : [];
    } else if (doc.anyPrivilege) operation['x-any-privilege'] = doc.anyPrivilege;
    else operation['x-privileges'] = doc.privileges ?? [];
    if (doc.note) operation['x-privilege-note'] = doc.note;
    add(path, r.method.toLowerCase(), operation);
  }
  for (const w of sockets) {
    add(w.path, 'get', {
      summary: w.summary,
      description: w.description,
      tags: ['websocket'],
      parameters: w.parameters.map((p) => ({ ...p, ...(p.in === 'path' ? { required: true } : {}), schema: { type: 'string' } })),
      'x-websocket': true,
      ...(w.public ? { 'x-public': true } : { 'x-any-privilege': w.anyPrivilege ?? [] }),
      ...(w.note ? { 'x-privilege-note': w.note } : {}),
      responses: { 101: { description: 'Switching Protocols: the WebSocket is open' } },
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'EV charging back-office API',
      version: API_VERSION,
      description: 'The portal\'s API, the external API, the probes and metrics, and the WebSocket endpoints (x-websocket: a GET that upgrades). Every operation names the privileges the server checks (x-privileges: all of them; x-any-privilege: one of them; x-public: no sign-in).',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token of POST /api/login' },
        appId: { type: 'apiKey', in: 'header', name: 'X-App-Id' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}

const escapeHtml = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function schemaText(s: Json | undefined): string {
  if (!s) return '';
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).map(schemaText).join(' or ');
  if (s.type === 'array') return `list of ${schemaText(s.items as Json) || 'values'}`;
  const bounds = [s.minimum !== undefined && `≥ ${s.minimum}`, s.maximum !== undefined && `≤ ${s.maximum}`, s.maxLength !== undefined && `at most ${s.maxLength} characters`].filter(Boolean);
  return [s.type ?? 'any', ...bounds].join(', ');
}

/** The document as one readable page: server-rendered, no script (the CSP allows none inline). */
export function openApiHtml(doc: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters as Json[] | undefined) ?? [];
      const body = ((op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
      const rows = [
        ...params.map((p) => [p.name, p.in, p.required ? 'yes' : '', [schemaText(p.schema as Json), p.description].filter(Boolean).join('; ')]),
        ...Object.entries((body?.properties as Record<string, Json> | undefined) ?? {}).map(([name, s]) => [
          name, 'body', (body?.required as string[] | undefined)?.includes(name) ? 'yes' : '', [schemaText(s), s.description].filter(Boolean).join('; '),
        ]),
      ];
      const table = rows.length
        ? `<table><tr><th>name</th><th>in</th><th>required</th><th>value</th></tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</table>`
        : '';
      const verb = op['x-websocket'] ? 'ws' : method;
      const section = `<section id="${escapeHtml(op.operationId)}"><h3><span class="m ${verb}">${verb.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`
        // A WebSocket's description says what travels over it (its first paragraph; the privileges follow).
        + `<p>${escapeHtml(op.summary)}</p>${op['x-websocket'] ? `<p>${escapeHtml(String(op.description).split('\n\n')[0])}</p>` : ''}`
        + `<p class="p">${escapeHtml(privilegeText(op))}</p>${table}</section>`;
      const tag = String((op.tags as string[] | undefined)?.[0] ?? 'other');
      byTag.set(tag, [...(byTag.get(tag) ?? []), section]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const info = doc.info as Json;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(info.title)}</title><style>
body{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em 2em;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2em}section{margin:1em 0 1.5em}h3{font-size:15px;margin:.2em 0}
.m{display:inline-block;min-width:4.5em;padding:0 .4em;border-radius:3px;color:#fff;font-size:12px;text-align:center}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#ef6c00}.delete{background:#c62828}.ws{background:#6a1b9a}
.p{color:#555;margin:.2em 0}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left;vertical-align:top}
nav a{margin-right:.8em}</style></head><body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1><p>${escapeHtml(info.description)}</p>
<p>The machine-readable document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a> (OpenAPI 3.1).</p>
<nav>${tags.map((t) => `<a href="#tag-${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(' ')}</nav>
${tags.map((t) => `<h2 id="tag-${escapeHtml(t)}">${escapeHtml(t)}</h2>${byTag.get(t)!.join('')}`).join('\n')}
</body></html>`;
}

/**
 * Collects every route as it is registered (register this before the routes), and the WebSocket
 * endpoints described, and serves the document built from them at /api/docs/openapi.json and as a
 * page at /api/docs, both public.
 */
export function openApi(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  const sockets: WebSocketDoc[] = [];
  app.decorate('routeTable', routes);
  app.decorate('describeWebSocket', (doc: WebSocketDoc) => void sockets.push(doc));
  app.addHook('onRoute', (r: RouteOptions) => {
    for (const method of [r.method].flat()) {
      routes.push({ method, url: r.url, doc: r.config?.doc, public: Boolean(r.config?.public), externalApp: Boolean(r.config?.externalApp) });
    }
  });
  let built: Json | undefined;
  const document = () => (built ??= openApiDocument(routes, sockets));
  app.get('/api/docs/openapi.json', { config: { public: true, doc: { summary: 'This API as an OpenAPI 3.1 document' } } }, async () => document());
  app.get('/api/docs', { config: { public: true, doc: { summary: 'This API as a readable page' } } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(openApiHtml(document())));
}
