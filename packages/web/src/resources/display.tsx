import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Checkbox, Table, Tooltip, Typography } from 'antd';
import { getResource, type ColumnDef, type ResourceDef } from '@ev/core';
import { optionLabel, type OptionMap } from './options.ts';

/** 3725 → '01:02:05'; hours may exceed 24. */
export function formatSeconds(value: number): string {
  const total = Math.max(0, Math.floor(value));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

export const isTrue = (value: unknown) => value === 1 || value === true || value === '1';

/** Plain text of a value, for filter tags, exports and the change counter. */
export function valueText(col: ColumnDef, value: unknown, options: OptionMap): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => valueText(col, v, options)).join(', ');
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
      return optionLabel(col.options ? options[col.options] : undefined, value);
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

/** How the keys of a JSON value are named and shown (view page); without it, humanized and plain. */
export interface JsonKeys {
  label: (name: string) => string;
  column?: (name: string) => ColumnDef | undefined;
}

function JsonTable({ rows, keys, options }: { rows: FlatRow[]; keys?: JsonKeys; options: OptionMap }) {
  const names = rowKeys(rows);
  return (
    <Table<FlatRow & { __row: number }>
      size="small"
      bordered
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowKey="__row"
      dataSource={rows.map((r, i) => ({ ...r, __row: i }))}
      columns={names.map((name) => {
        const col = keys?.column?.(name);
        return {
          key: name,
          dataIndex: name,
          title: keys?.label(name) ?? name,
          render: (v: Flat) => (col ? renderValue(col, v, options) : v === null ? '' : String(v)),
        };
      })}
    />
  );
}

/** How a value shows in a list cell (compact) or a view page (full, where a JSON array of flat objects is a table). */
export function renderValue(col: ColumnDef, value: unknown, options: OptionMap, full = false, keys?: JsonKeys): ReactNode {
  if (col.display === 'boolean') return <Checkbox checked={isTrue(value)} disabled />;
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);
  if (empty) return full ? <Typography.Text type="secondary">-</Typography.Text> : null;
  if (col.display === 'link' && col.linkTo) return <Link to={`/${col.linkTo}/${encodeURIComponent(String(value))}`}>{String(value)}</Link>;
  if (col.display === 'json') {
    const rows = full ? flatRows(value) : undefined;
    if (rows) return <JsonTable rows={rows} keys={keys} options={options} />;
    if (full) return <pre style={{ margin: 0, whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{JSON.stringify(value, null, 2)}</pre>;
    const text = valueText(col, value, options);
    return text.length > 60 ? <Tooltip title={text}>{`${text.slice(0, 60)}…`}</Tooltip> : text;
  }
  return valueText(col, value, options);
}
