import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Checkbox, Tooltip, Typography } from 'antd';
import type { ColumnDef } from '@ev/core';
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

/** How a value shows in a list cell (compact) or a view page (full). */
export function renderValue(col: ColumnDef, value: unknown, options: OptionMap, full = false): ReactNode {
  if (col.display === 'boolean') return <Checkbox checked={isTrue(value)} disabled />;
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);
  if (empty) return full ? <Typography.Text type="secondary">-</Typography.Text> : null;
  if (col.display === 'link' && col.linkTo) return <Link to={`/${col.linkTo}/${encodeURIComponent(String(value))}`}>{String(value)}</Link>;
  if (col.display === 'json') {
    if (full) return <pre style={{ margin: 0, whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{JSON.stringify(value, null, 2)}</pre>;
    const text = valueText(col, value, options);
    return text.length > 60 ? <Tooltip title={text}>{`${text.slice(0, 60)}…`}</Tooltip> : text;
  }
  return valueText(col, value, options);
}
