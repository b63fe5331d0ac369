import type { ColumnDef } from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import { hasAll } from '../auth/guard.ts';
import { containsPattern, type Filter } from './list-query.ts';
import { quoteIdent, type ResolvedResource } from './registry.ts';

/** Collects positional parameters while a statement is built. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const columnVisible = (user: AuthUser) => (c: { privileges?: string[] }) => hasAll(user, c.privileges);

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** How a value leaves the database: datetimes as 'YYYY-MM-DD HH:mm:ss' in the display time zone. */
export function outputExpr(column: Pick<ColumnDef, 'type'>, expr: string, timeZone: string): string {
  expr = expr.replaceAll('{display_tz}', literal(timeZone));
  if (column.type === 'timestamp') return `to_char(${expr} AT TIME ZONE ${literal(timeZone)}, 'YYYY-MM-DD HH24:MI:SS')`;
  return expr;
}

/** The SELECT list of a record: visible columns plus readable form fields, never write-only ones. */
export function selectList(r: ResolvedResource, user: AuthUser, timeZone: string, fieldsToo: boolean): string {
  const visible = columnVisible(user);
  const parts = new Map<string, string>();
  parts.set(r.def.idField, `t.${quoteIdent(r.def.idField)}`);
  for (const c of r.def.columns) {
    const expr = r.expr.get(c.field);
    if (expr && visible(c)) parts.set(c.field, outputExpr(c, expr, timeZone));
  }
  if (fieldsToo) {
    for (const f of r.def.fields) {
      if (f.writeOnly || !visible(f) || parts.has(f.field)) continue;
      const expr = r.hooks.virtualColumns?.[f.field] ?? (r.tableColumns.has(f.field) ? `t.${quoteIdent(f.field)}` : undefined);
      if (expr) parts.set(f.field, outputExpr(f, expr, timeZone));
    }
  }
  return [...parts].map(([field, expr]) => `${expr} AS ${quoteIdent(field)}`).join(', ');
}

/** Conditions every read and write of a resource carries: positive ids, trash state, site scope, hooks. */
/** trash: true = only deleted rows, false = only live rows, 'any' = both (viewing one record). */
export function scopeConditions(r: ResolvedResource, user: AuthUser, params: Params, trash: boolean | 'any'): string[] {
  const { def } = r;
  const where = [`t.${quoteIdent(def.idField)} > 0`];
  if (def.softDelete && trash !== 'any') where.push(trash ? 't.deleted_at IS NOT NULL' : 't.deleted_at IS NULL');
  if (!user.allSites && def.site) {
    const sites = params.add(user.siteIds);
    if (def.site.column) where.push(`t.${quoteIdent(def.site.column)} = ANY(${sites}::int[])`);
    else if (def.site.cpColumn) {
      where.push(`t.${quoteIdent(def.site.cpColumn)} IN (SELECT cp_id FROM cps WHERE loc_id = ANY(${sites}::int[]))`);
    }
  }
  const extra = r.hooks.visibleTo?.(user);
  if (extra) where.push(extra);
  return where;
}


export function filterCondition(r: ResolvedResource, f: Filter, params: Params): string {
  const expr = r.expr.get(f.column.field);
  if (!expr) throw new Error(`column ${r.def.key}.${f.column.field} has no SQL expression`);
  const custom = r.hooks.filters?.[f.column.field];
  if (custom) return custom(f, (v) => params.add(v));
  switch (f.kind) {
    case 'text': {
      const target = f.column.type === 'text' ? expr : `${expr}::text`;
      return `${target} ILIKE ${params.add(containsPattern(f.value))}`;
    }
    case 'select':
      return f.value === null ? `${expr} IS NULL` : `${expr} = ${params.add(f.value)}`;
    case 'boolean':
      return `${expr} = ${params.add(f.value)}`;
    case 'multiselect': {
      if (f.column.type === 'intArray') return `${expr} && ${params.add(f.values)}::int[]`;
      const cast = f.column.type === 'int' || f.column.type === 'bool' ? 'int[]' : f.column.type === 'float' ? 'float8[]' : 'text[]';
      return `${expr} = ANY(${params.add(f.values)}::${cast})`;
    }
    case 'dateRange':
      return `${expr} >= to_timestamp(${params.add(f.from)}) AND ${expr} < to_timestamp(${params.add(f.to)})`;
  }
}
