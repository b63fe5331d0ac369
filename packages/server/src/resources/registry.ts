import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import { RESOURCES, type ResourceDef } from '@ev/core';
import * as schema from '../db/schema/index.ts';
import { RESOURCE_HOOKS } from './hooks/index.ts';
import type { ResourceHooks } from './hooks/types.ts';

/** The physical column names of a Drizzle table. */
export function tableColumnsOf(table: PgTable): [name: string, columns: Set<string>] {
  const cfg = getTableConfig(table);
  return [cfg.name, new Set(cfg.columns.map((c) => c.name))];
}

/** Physical column names of every table in the Drizzle schema, by table name. */
export const TABLE_COLUMNS: Map<string, Set<string>> = new Map(
  (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTableClass)).map(tableColumnsOf),
);

export function hooksFor(key: string): ResourceHooks {
  return RESOURCE_HOOKS[key] ?? {};
}

/** A resource definition resolved against the schema: which columns are real and which come from hooks. */
export interface ResolvedResource {
  def: ResourceDef;
  hooks: ResourceHooks;
  tableColumns: Set<string>;
  /** SQL expression (alias t) per column field. */
  expr: Map<string, string>;
}

const resolved = new Map<string, ResolvedResource>();

export function resolveResource(def: ResourceDef): ResolvedResource {
  const hit = resolved.get(def.key);
  if (hit) return hit;
  const tableColumns = TABLE_COLUMNS.get(def.table);
  if (!tableColumns) throw new Error(`resource ${def.key}: no table ${def.table} in the schema`);
  const hooks = hooksFor(def.key);
  const expr = new Map<string, string>();
  for (const c of def.columns) {
    const virtual = hooks.virtualColumns?.[c.field];
    if (virtual) expr.set(c.field, virtual);
    else if (tableColumns.has(c.field)) expr.set(c.field, `t.${quoteIdent(c.field)}`);
    // Display-only columns (massUpdate, action) have no value.
  }
  const r = { def, hooks, tableColumns, expr };
  resolved.set(def.key, r);
  return r;
}

export function allResources(): ResourceDef[] {
  return Object.values(RESOURCES);
}

/** Identifiers come only from definitions, never from a request; quoting keeps camelCase names intact. */
export function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return `"${name}"`;
}
