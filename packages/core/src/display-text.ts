import type { ColumnDef, ResourceDef } from './resource.ts';
import { getResource } from './resources/index.ts';

/**
 * A value as the portal shows it, in plain text: list cells, filter tags, and the Excel and PDF
 * exports share it, so an export says what the screen says (issue 30).
 */

/** The label of a value in the column's option list, or undefined when the list does not have it. */
export type OptionText = (optionsKey: string, value: unknown) => string | undefined;

/** 3725 → '01:02:05'; hours may exceed 24. */
export function formatSeconds(value: number): string {
  const total = Math.max(0, Math.floor(value));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

export const isTrue = (value: unknown) => value === 1 || value === true || value === '1';

/** Plain text of a value under its column's display; booleans are the caller's (they read yes/no in a language). */
export function displayText(col: ColumnDef, value: unknown, option: OptionText): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => displayText(col, v, option)).join(', ');
  switch (col.display) {
    case 'seconds':
      return formatSeconds(Number(value));
    case 'number':
      return col.decimals === undefined || !Number.isFinite(Number(value)) ? String(value) : Number(value).toFixed(col.decimals);
    case 'float1000': {
      const n = Number(value) / 1000;
      return col.decimals === undefined ? String(n) : n.toFixed(col.decimals);
    }
    case 'enum':
    case 'flag':
      return (col.options && option(col.options, value)) ?? String(value);
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return String(value);
  }
}

type Flat = string | number | boolean | null;
export type FlatRow = Record<string, Flat>;

/** A JSON value that reads as a table: a non-empty array of objects whose values are all plain (no nesting). */
export function flatRows(value: unknown): FlatRow[] | undefined {
  if (!Array.isArray(value) || !value.length) return undefined;
  const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  const isRow = (r: unknown): r is FlatRow =>
    !!r && typeof r === 'object' && !Array.isArray(r) && Object.values(r).every(plain);
  return value.every(isRow) ? value : undefined;
}

/** The keys of such rows, in the order they first appear. */
export function rowKeys(rows: FlatRow[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r)))];
}

/**
 * The column that describes a key inside a JSON field: a column of that name in the resource
 * itself, else in the resource the field is named after (the cp_connectors field of a charger
 * holds rows of the cp_connectors resource). It gives the cell its display (an enum's labels).
 */
export function nestedColumn(def: ResourceDef, field: string, name: string): ColumnDef | undefined {
  const own = def.columns.find((c) => c.field === name && c.display !== 'json');
  return own ?? getResource(field)?.columns.find((c) => c.field === name && c.display !== 'json');
}
