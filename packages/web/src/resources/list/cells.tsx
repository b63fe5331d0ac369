import type { ReactNode } from 'react';
import { displayText, type ColumnDef } from '@ev/core';
import { renderValue } from '../display.tsx';
import { optionLabel, type OptionMap } from '../options.ts';

/** Displays whose list cell is the value's plain text (display.tsx's valueText). */
const PLAIN = new Set<ColumnDef['display']>(['text', 'number', 'float1000', 'datetime', 'seconds', 'enum']);

/**
 * A list column's cell renderer, chosen once per column: a plain-text column skips renderValue's branching
 * and resolves its option list once, so a 200-row page does only the value's own work per cell.
 */
export function cellRenderer(col: ColumnDef, options: OptionMap): (value: unknown) => ReactNode {
  if (!PLAIN.has(col.display)) return (value) => renderValue(col, value, options);
  const items = col.options ? options[col.options] : undefined;
  const label = (_key: string, value: unknown) => optionLabel(items, value);
  return (value) => displayText(col, value, label);
}
