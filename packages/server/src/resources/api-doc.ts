import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  LANGS,
  LIST_PAGE_CAP,
  MAX_PAGE_SIZE,
  RESOURCES,
  STATIC_OPTIONS,
  type ColumnDef,
  type FieldDef,
  type ResourceDef,
  type ValueType,
} from '@ev/core';
import * as schema from '../db/schema/index.ts';
import type { OpenApiPaths } from '../http/openapi.ts';
import { privilegesFor, type Access } from './access.ts';
import { optionParamValues, paramAliases } from './list-query.ts';
import { resolveResource } from './registry.ts';

/**
 * The generic engine's routes (/api/:key, /api/:key/:id, …) in the OpenAPI document: one path per
 * resource definition that offers the operation, with its fields, filters and privileges. The
 * engine validates these per definition (list-query.ts, validate.ts), so the document is written
 * from the same definitions.
 */

type Json = Record<string, unknown>;

/** What a generic engine route does (its config.doc.engine in routes.ts). */
type EngineOperation = 'list' | 'view' | 'create' | 'edit' | 'delete' | 'checkDelete' | 'excel' | 'pdf';

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

const staticValues = (options: string | undefined) =>
  options && Object.hasOwn(STATIC_OPTIONS, options) ? STATIC_OPTIONS[options].map((o) => o.value) : undefined;

/** What a write accepts for a field of this type (validate.ts): numbers also as numeric strings, flags also as booleans. */
const INPUT_SCHEMA: Record<ValueType, Json> = {
  int: { type: ['integer', 'string'], description: 'a number, or a string holding one' },
  float: { type: ['number', 'string'], description: 'a number, or a string holding one' },
  text: { type: ['string', 'number'] },
  bool: { enum: [0, 1, '0', '1', true, false] },
  timestamp: { type: 'string', description: 'a date and time, YYYY-MM-DD HH:mm:ss' },
  json: { description: 'any JSON value, or a string holding one' },
  intArray: { type: 'array', items: { type: ['integer', 'string'], description: 'a positive integer' } },
};

/** A field in a create or edit body: '' and null mean "no value" (validate.ts), refused for a required field. */
function fieldSchema(f: FieldDef, mode: 'create' | 'update'): Json {
  const s: Json = { ...INPUT_SCHEMA[f.type] };
  const values = staticValues(f.options);
  if (values) {
    if (f.type === 'json' || f.type === 'intArray') Object.assign(s, { type: 'array', items: { enum: values } });
    else {
      delete s.type;
      s.enum = values;
    }
  }
  if (f.options && !values) s['x-options'] = f.options;
  if (f.maxLength !== undefined) s.maxLength = f.maxLength;
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  if (f.limit !== undefined) s.maxItems = f.limit;
  if (f.writeOnly) s.writeOnly = true;
  if (f.default !== undefined) s.default = f.default;
  const notes = [s.description, f.lockedAfterCreate && 'set on create only', f.fixed && 'fixed', f.privileges?.length && `needs ${f.privileges.join(', ')}`, f.unique && 'unique'];
  if (notes.some(Boolean)) s.description = notes.filter(Boolean).join('; ');
  return f.required || (f.requiredOnCreateOnly && mode === 'create') ? s : { anyOf: [s, { type: 'null' }, { const: '' }] };
}

function bodySchema(def: ResourceDef, mode: 'create' | 'update'): Json {
  // A required field with a default may be left out of a create; an edit sends only what it changes.
  const required = mode === 'update' ? [] : def.fields
    .filter((f) => (f.required || f.requiredOnCreateOnly) && (f.default === undefined || f.default === null))
    .map((f) => f.field);
  const properties: Json = Object.fromEntries(def.fields.map((f) => [f.field, fieldSchema(f, mode)]));
  properties[def.idField] ??= { description: mode === 'create' ? 'ignored, unless it names a record that exists (duplicate_key)' : 'ignored' };
  if (mode === 'update') {
    // A record read and sent back whole: its read-only values are accepted as GET showed them (validate.ts).
    for (const [field, value] of Object.entries(rowProperties(def, true))) {
      properties[field] ??= { ...(value as Json), description: 'read-only: accepted only as GET shows it (not_editable otherwise)' };
    }
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

const editBodies = new Map<string, z.ZodType>();

/**
 * An edit body of the definition as a route's zod schema (a specific route that edits through the
 * engine: the own profile): exactly the names the engine accepts, each documented as above. The
 * values stay the engine's to check (validate.ts), which answers with its own message keys.
 */
export function editBodySchema(def: ResourceDef): z.ZodType {
  let body = editBodies.get(def.key);
  if (!body) {
    const properties = bodySchema(def, 'update').properties as Record<string, Json>;
    body = z.strictObject(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, z.unknown().optional().meta(v)])));
    editBodies.set(def.key, body);
  }
  return body;
}

/** Columns the database keeps NOT NULL, by table: every other value of a record may be null. */
const NOT_NULL: Map<string, Set<string>> = new Map(
  (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable)).map((t) => {
    const cfg = getTableConfig(t);
    return [cfg.name, new Set(cfg.columns.filter((c) => c.notNull).map((c) => c.name))];
  }),
);

/** A stored value as the engine answers it (sql.ts outputExpr). */
const VALUE_ZOD: Record<ValueType, () => z.ZodType> = {
  int: () => z.int(),
  float: () => z.number(),
  text: () => z.string(),
  bool: () => z.literal([0, 1]),
  timestamp: () => z.string().describe('YYYY-MM-DD HH:mm:ss'),
  json: () => z.unknown(),
  intArray: () => z.array(z.int().min(1)),
};

/** The values of a record as the engine selects them (sql.ts selectList): a list's columns, a view's fields too. */
function rowShape(def: ResourceDef, view: boolean): Record<string, z.ZodType> {
  const r = resolveResource(def);
  const notNull = NOT_NULL.get(def.table) ?? new Set<string>();
  const value = (f: ColumnDef | FieldDef, virtual: boolean) => {
    const s = VALUE_ZOD[f.type]();
    const typed = virtual || !notNull.has(f.field) ? s.nullable() : s;
    // A value behind a privilege is left out for others; so is every other but the id, in principle.
    return (f.privileges?.length ? typed.describe(`sent only to holders of ${f.privileges.join(', ')}`) : typed).optional();
  };
  const shape: Record<string, z.ZodType> = { [def.idField]: z.int() };
  for (const c of def.columns) {
    if (r.expr.has(c.field)) shape[c.field] ??= value(c, !!r.hooks.virtualColumns?.[c.field]);
  }
  if (view) {
    for (const f of def.fields) {
      const virtual = !!r.hooks.virtualColumns?.[f.field];
      if (!f.writeOnly && (virtual || r.tableColumns.has(f.field))) shape[f.field] ??= value(f, virtual);
    }
  }
  const site = def.site?.column;
  if (!view && def.siteAsReference && site && shape[site]) {
    const reference = z.object({ loc_id: z.int(), address: z.string().nullable() });
    shape[site] = z.union([shape[site], reference]).describe('with locId: {loc_id, address}').optional();
  }
  return shape;
}

/** A record of the definition as the engine answers it: in a list (columns) or alone (view: fields too). */
export const recordSchema = (def: ResourceDef, view: boolean) => z.looseObject(rowShape(def, view));

const rowSchema = (def: ResourceDef, view: boolean): Json => {
  const { $schema: _, ...json } = z.toJSONSchema(recordSchema(def, view), { io: 'output', unrepresentable: 'any' }) as Json;
  return json;
};

/** The read-only values an edit may send back as GET showed them (validate.ts), as JSON schemas. */
const rowProperties = (def: ResourceDef, view: boolean): Json => rowSchema(def, view).properties as Json;

/** One value of a filter parameter, as list-query.ts parses it. */
function filterValue(c: ColumnDef): Json {
  const values = optionParamValues(c);
  if (values && (c.filter === 'select' || c.filter === 'multiselect')) return { type: 'string', enum: values };
  if (c.filter !== 'text' && (c.type === 'int' || c.type === 'intArray' || c.type === 'bool')) return { type: 'integer', minimum: -2_147_483_647, maximum: 2_147_483_647 };
  if (c.filter !== 'text' && c.type === 'float') return { type: 'number' };
  return { type: 'string', maxLength: 200 };
}

function filterParameter(c: ColumnDef, name = c.field): Json {
  const privileges = c.privileges?.length ? `; only for holders of ${c.privileges.join(', ')}` : '';
  const param = (schema: Json, description: string, more: Json = {}) => ({ name, in: 'query', schema, ...more, description: `${description}${privileges}` || undefined });
  switch (c.filter) {
    case 'multiselect':
      return param({ type: 'array', items: filterValue(c) }, 'any of these (repeated, or comma-separated)', { style: 'form', explode: true });
    case 'boolean':
      return param({ type: 'string', enum: ['0', '1'] }, '');
    case 'dateRange':
      return param({ type: 'string', pattern: '^\\d+,\\d+$' }, 'from,to in unix seconds');
    case 'text':
      return param(filterValue(c), 'contains, case-insensitive');
    default:
      return param(filterValue(c), '');
  }
}

/** The parameters parseListQuery accepts (list-query.ts), for a list or (exported) an export, which takes no paging. */
function listParameters(def: ResourceDef, exported = false): Json[] {
  const sortable = [def.idField, ...def.columns.filter((c) => c.sortable).map((c) => c.field)];
  const filters = def.columns.filter((c) => c.filter);
  const aliases = Object.entries(paramAliases(def)).flatMap(([alias, field]) => {
    const c = filters.find((f) => f.field === field);
    if (!c) return [];
    if (alias !== 'locId') return [filterParameter(c, alias)];
    return [{ name: 'locId', in: 'query', schema: { type: 'integer' }, description: `the site (${field}); -1: every site (no filter); 0: records of no site` }];
  });
  return [
    ...(exported ? [] : [
      { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 10_000_000 } },
      { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE }, description: `at most ${LIST_PAGE_CAP} rows come back (sizeCappedTo)` },
    ]),
    { name: 'sort_by', in: 'query', schema: { type: 'string', enum: [...new Set(sortable)] } },
    { name: 'order', in: 'query', schema: { type: 'string', pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$' }, description: 'asc or desc, any case' },
    { name: 'trash', in: 'query', schema: { type: 'string', enum: def.softDelete ? ['0', '1'] : ['0'] }, ...(def.softDelete ? { description: '1: the records in trash' } : {}) },
    ...(def.columns.some((c) => c.field === 'enable_flag') || def.paramAliases?.enable_flag ? [] : [{
      name: 'enable_flag', in: 'query', schema: { type: 'string', enum: ['1'] }, description: 'accepted as the spec\'s option calls send it: every record is enabled',
    }]),
    ...aliases,
    // A site column named locId is the alias itself (bay, price_scheme).
    ...filters.filter((c) => !aliases.some((a) => a.name === c.field)).map((c) => filterParameter(c)),
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
  const dataset = {
    type: 'object',
    properties: {
      content: { type: 'array', items: rowSchema(def, false) },
      totalElements: { type: 'integer' },
      totalPages: { type: 'integer' },
      totalIsEstimate: { const: true, description: 'totalElements is the planner\'s estimate (past 10,000 matches)' },
      sizeCappedTo: { type: 'integer', description: 'the page was cut to this many rows, and more match' },
    },
    required: ['content', 'totalElements', 'totalPages'],
  };
  const written = jsonContent({ type: 'object', properties: { status: { const: 'success' }, data: rowSchema(def, true) }, required: ['status', 'data'] });
  switch (op) {
    case 'list':
      return { path: base, method: 'get', operation: { ...common, summary: `List ${name}`, parameters: listParameters(def), responses: { 200: { description: 'A page of records', content: jsonContent({ type: 'object', properties: { dataset }, required: ['dataset'] }) } } } };
    case 'view':
      return { path: `${base}/{id}`, method: 'get', operation: { ...common, summary: `View one of ${name}`, parameters: [idParameter()], responses: { 200: { description: 'The record', content: jsonContent(rowSchema(def, true)) } } } };
    case 'create':
      return { path: base, method: 'post', operation: { ...common, summary: `Create one of ${name}`, requestBody: { required: true, content: jsonContent(bodySchema(def, 'create')) }, responses: { 200: { description: 'Created', content: written } } } };
    case 'edit':
      return { path: `${base}/{id}`, method: 'put', operation: { ...common, summary: `Edit one of ${name}`, parameters: [idParameter()], requestBody: { required: true, content: jsonContent(bodySchema(def, 'update')) }, responses: { 200: { description: 'Saved', content: written } } } };
    case 'delete':
      return { path: `${base}/{id}`, method: 'delete', operation: { ...common, summary: `Delete one of ${name}${def.softDelete ? ' (to trash)' : ''}`, parameters: [idParameter()], responses: { 200: { description: 'Deleted', content: { 'text/plain': { schema: { const: 'Deleted' } } } } } } };
    case 'checkDelete':
      return { path: `${base}/checkDelete/{id}`, method: 'get', operation: { ...common, summary: `What deleting one of ${name} affects`, parameters: [idParameter()], responses: { 200: { description: 'A message key, if any', content: jsonContent({ type: 'object', properties: { msgCode: { type: 'string' } } }) } } } };
    case 'excel': {
      // The columns export.ts writes: the id and every list column with a value.
      const columns = [...new Set([def.idField, ...def.columns.filter((c) => resolveResource(def).expr.has(c.field)).map((c) => c.field)])];
      const parameters = [
        { name: 'keys', in: 'query', required: true, schema: { type: 'array', items: { type: 'string', enum: columns } }, style: 'form', explode: true, description: 'the columns, in order (those the user may read)' },
        { name: 'headers', in: 'query', required: true, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true, description: 'one title per key' },
        { name: 'sheet_name', in: 'query', schema: { type: 'string', maxLength: 31, pattern: '^[^\\\\/?*\\[\\]:]*$' }, description: `the sheet's name (default ${def.key})` },
        { name: 'sheetName', in: 'query', schema: { type: 'string', maxLength: 31, pattern: '^[^\\\\/?*\\[\\]:]*$' }, description: 'the same as sheet_name, as the spec names it' },
        { name: 'lang', in: 'query', schema: { type: 'string', enum: LANGS }, description: 'the language of stored texts (default en)' },
        ...listParameters(def, true),
      ];
      return { path: `${base}/export/excel`, method: 'get', operation: { ...common, summary: `Export ${name} to Excel`, parameters, responses: { 200: { description: 'An .xlsx file', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {} } } } } };
    }
    case 'pdf':
      return { path: `${base}/export/pdf/{id}`, method: 'get', operation: { ...common, summary: `One of ${name} as a PDF`, parameters: [idParameter(), { name: 'lang', in: 'query', schema: { type: 'string', enum: LANGS } }], responses: { 200: { description: 'A PDF file', content: { 'application/pdf': {} } } } } };
  }
}

/** Every engine operation of every definition, except where a specific route of the same method and path is served instead. */
export function engineDocument(served: (method: string, path: string) => boolean): OpenApiPaths {
  const paths: OpenApiPaths = {};
  for (const op of Object.keys(ENGINE_ACCESS) as EngineOperation[]) {
    for (const def of Object.values(RESOURCES)) {
      if (!offers(def, op)) continue;
      const { path, method, operation } = engineOperation(def, op);
      if (!served(method, path)) (paths[path] ??= {})[method] = operation;
    }
  }
  return paths;
}
