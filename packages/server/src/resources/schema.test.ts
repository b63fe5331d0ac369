import { describe, expect, it } from 'vitest';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import type { ValueType } from '@ev/core';
import * as schema from '../db/schema/index.ts';
import { allResources, resolveResource } from './registry.ts';

/** Drizzle column type → the definition's value type(s) it can hold. */
const COMPATIBLE: Record<string, ValueType[]> = {
  PgSerial: ['int'],
  PgInteger: ['int'],
  PgBigInt53: ['int'],
  PgBigSerial53: ['int'],
  PgSmallInt: ['bool', 'int'],
  PgText: ['text'],
  PgVarchar: ['text'],
  PgDoublePrecision: ['float'],
  PgReal: ['float'],
  PgNumeric: ['float'],
  PgTimestamp: ['timestamp'],
  PgJsonb: ['json'],
  PgJson: ['json'],
  PgArray: ['intArray'],
};

const columnTypes = new Map<string, Map<string, string>>(
  (Object.values(schema) as unknown[])
    .filter((v): v is PgTable => is(v, PgTable))
    .map((t) => {
      const cfg = getTableConfig(t);
      return [cfg.name, new Map(cfg.columns.map((c) => [c.name, c.columnType]))];
    }),
);

describe('every resource definition matches the database schema', () => {
  for (const def of allResources()) {
    it(def.key, () => {
      const table = columnTypes.get(def.table);
      expect(table, `table ${def.table}`).toBeDefined();
      const r = resolveResource(def);
      expect(table!.has(def.idField), `id field ${def.idField}`).toBe(true);
      const problems: string[] = [];
      for (const c of def.columns) {
        if (c.display === 'massUpdate' || c.display === 'action') continue;
        if (!r.expr.has(c.field)) {
          problems.push(`column ${c.field}: neither a column of ${def.table} nor a virtual column`);
          continue;
        }
        // A hook's virtual column of a stored column's name (cents shown as dollars, a date as text) has the hook's type.
        const dbType = r.hooks.virtualColumns?.[c.field] ? undefined : table!.get(c.field);
        if (dbType && !COMPATIBLE[dbType]?.includes(c.type)) problems.push(`column ${c.field}: ${c.type} vs ${dbType}`);
      }
      for (const f of def.fields) {
        const dbType = table!.get(f.field);
        const virtual = r.hooks.virtualColumns?.[f.field];
        // Write-only fields (passwords) are turned into stored columns by the resource's hook.
        if (!dbType && !virtual && !(f.writeOnly && r.hooks.beforeWrite)) problems.push(`field ${f.field}: not stored anywhere`);
        if (dbType && !virtual && !COMPATIBLE[dbType]?.includes(f.type)) problems.push(`field ${f.field}: ${f.type} vs ${dbType}`);
      }
      for (const name of Object.keys(def.defaultFilters ?? {})) {
        if (!def.columns.some((c) => c.field === name && c.filter)) problems.push(`default filter ${name}: no filterable column`);
      }
      if (def.defaultSort && !def.columns.some((c) => c.field === def.defaultSort!.field && c.sortable)) {
        problems.push(`default sort ${def.defaultSort.field}: not a sortable column`);
      }
      if (def.softDelete && !table!.has('deleted_at')) problems.push('soft delete without a deleted_at column');
      if (def.site?.column && !table!.has(def.site.column)) problems.push(`site column ${def.site.column} missing`);
      if (def.site?.cpColumn && !table!.has(def.site.cpColumn)) problems.push(`site charger column ${def.site.cpColumn} missing`);
      expect(problems).toEqual([]);
    });
  }
});
