import { RESOURCES } from '@ev/core';
import type { RegisteredRoute } from '../http/openapi.ts';

/** Walking the OpenAPI document (http/openapi.ts) in tests: its operations, and concrete paths to call. */

export type DocOperation = Record<string, any>;

/**
 * The HTTP operations: the WebSocket endpoints (x-websocket) are left out unless asked for, since a
 * plain request is not what they serve (their own tests open them).
 */
export function operations(doc: any, opts: { webSockets?: boolean } = {}): { method: string; path: string; op: DocOperation }[] {
  return Object.entries(doc.paths as Record<string, Record<string, DocOperation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  ).filter((o) => opts.webSockets || !o.op['x-websocket']);
}

/** A concrete path for a templated one: keys from their enum, ids that name no record. */
export function concretePath(path: string, op: DocOperation, id = '999999'): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = (op.parameters ?? []).find((x: any) => x.in === 'path' && x.name === name);
    return encodeURIComponent(p?.schema?.enum?.[0] ?? (name === 'cpNo' ? 'NO-SUCH-CHARGER' : id));
  });
}

/** The JSON schema of an operation's JSON body, if it takes one. */
export const jsonBodySchema = (op: DocOperation): Record<string, any> | undefined => op.requestBody?.content?.['application/json']?.schema;

/** The schema of an operation's 200 JSON answer, if the document gives one. */
export const answerSchema = (op: DocOperation): Record<string, any> | undefined => op.responses?.['200']?.content?.['application/json']?.schema;

/** Strings tried, in order, against a pattern: the first that matches is used. */
const PATTERN_SAMPLES = ['x', '1', '0,1', '2026-01-01', '2026-01-01 00:00:00', '2026-01-01T00:00:00Z', '00:00', 'A1'];

/**
 * A value the schema accepts, built from it alone: an enum's first value, 1 (or the nearest bound)
 * for a number, 'x' (or a sample matching its pattern), an array of one item, an object of its required
 * properties (or all of them, with `all`).
 */
export function validValue(schema: Record<string, any> | undefined, all = false): unknown {
  if (!schema) return 'x';
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return validValue(options.find((o: any) => o.type !== 'null') ?? options[0], all);
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      // 1 where the range allows it (a bound the schema does not show, such as an id's, is then met too).
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Infinity);
      return Math.min(Math.max(1, min), schema.maximum ?? Infinity);
    }
    case 'boolean':
      return true;
    case 'array':
      return [validValue(schema.items)];
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, any>);
      const wanted = all ? props : props.filter(([k]) => schema.required?.includes(k));
      return Object.fromEntries(wanted.filter(([, p]) => !p.readOnly).map(([k, p]) => [k, validValue(p)]));
    }
    case 'string': {
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'date') return '2026-01-01';
      const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
      const sample = pattern ? PATTERN_SAMPLES.find((x) => pattern.test(x)) ?? 'x' : 'x';
      return sample.padEnd(schema.minLength ?? 0, sample);
    }
    default:
      return 'x';
  }
}

/** A query string (with its '?') from values: arrays as a repeated parameter, in the given order. */
export function queryString(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    for (const v of [value].flat()) q.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The query values of the required query parameters of an operation. */
export const requiredQuery = (op: DocOperation): Record<string, unknown> =>
  Object.fromEntries((op.parameters ?? []).filter((p: any) => p.in === 'query' && p.required).map((p: any) => [p.name, validValue(p.schema)]));

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/**
 * The registered routes (method and url) the document lacks. Left out: HEAD, the viewer's own
 * files, and routes outside /api that describe nothing (the portal's files). A `:key` / `:resource`
 * segment (the engine's, and the routes shared by several resources) matches any expanded path.
 */
export function missingRoutes(routes: readonly RegisteredRoute[], doc: any): string[] {
  const ops = operations(doc, { webSockets: true });
  return routes
    .filter((r) => r.method !== 'HEAD' && !r.viewer && (r.doc || r.url.startsWith('/api/')))
    .filter((r) => {
      const templated = r.url.replace(/:(\w+)/g, '{$1}');
      const shape = new RegExp(`^${escapeRegExp(templated).replace(/\\\{(?:key|resource)\\\}/g, '[^/]+')}$`);
      // An engine route is there through its expansion: an operation tagged with a resource definition.
      const expanded = (o: { op: DocOperation }) => !r.doc?.engine || o.op.tags?.[0] in RESOURCES;
      return !ops.some((o) => o.method === r.method.toLowerCase() && (o.path === templated || shape.test(o.path)) && expanded(o));
    })
    .map((r) => `${r.method} ${r.url}`);
}
