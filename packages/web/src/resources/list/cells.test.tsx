import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { getResource, type ColumnDef } from '@ev/core';
import { renderValue } from '../display.tsx';
import type { OptionMap } from '../options.ts';
import { cellRenderer } from './cells.tsx';

const html = (node: unknown) => renderToStaticMarkup(<>{node as never}</>);

describe('list cells', () => {
  const def = getResource('cp_requests')!;
  const options: OptionMap = { request_types: [{ value: 2, label: 'BootNotification' }], cps: [{ value: 7, label: 'CP-7' }] };
  const column = (field: string) => def.columns.find((c) => c.field === field)!;

  it('show what renderValue shows, for each display of a list', () => {
    const values: [string, unknown][] = [
      ['request_type', 2], ['request_type', 99], ['connector_id', 1], ['energy', 12345], ['cre_dttm', '2024-03-01 10:00:00'],
      ['request_data', { connectorId: 1, status: 'Charging' }], ['request_data', { long: 'x'.repeat(80) }], ['cp_no', null], ['cp_no', ''],
    ];
    for (const [field, value] of values) {
      const col = column(field);
      expect(html(cellRenderer(col, options)(value)), `${field} ${JSON.stringify(value)}`).toBe(html(renderValue(col, value, options)));
    }
    expect(cellRenderer(column('request_type'), options)(2)).toBe('BootNotification');
  });

  it('label from the option list the column had when the renderer was made', () => {
    const col: ColumnDef = { ...column('request_type') };
    const render = cellRenderer(col, options);
    expect(render([2, 99])).toBe('BootNotification, 99');
    expect(cellRenderer(col, {})(2)).toBe('2');
  });
});
