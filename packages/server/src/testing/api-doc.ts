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
