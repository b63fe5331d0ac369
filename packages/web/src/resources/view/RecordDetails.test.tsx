import { describe, expect, it } from 'vitest';
import { getResource, staticOptionItems } from '@ev/core';
import { renderScreen as render } from '../../testing/render.tsx';
import { flatRows, nestedColumn, rowKeys } from '@ev/core';
import { optionLabel } from '../options.ts';
import { RecordDescriptions } from './RecordDetails.tsx';

const connectors = [
  { connector_id: 1, status: 'Charging', error_code: 'NoError', last_status_dttm: '2024-05-01 10:00:00' },
  { connector_id: 2, status: 'Faulted', error_code: 'GroundFailure', last_status_dttm: null },
];
/** The text of a rendered page without its tags. */
const text = (html: string) => html.replace(/<[^>]+>/g, '|');

describe('JSON values on the view page', () => {
  it('read an array of flat objects as table rows, anything else not', () => {
    expect(flatRows(connectors)).toBe(connectors);
    expect(rowKeys([{ a: 1 }, { b: 2, a: 3 }])).toEqual(['a', 'b']);
    for (const other of [[], {}, 'text', [1, 2], [{ a: { nested: 1 } }], [{ a: [1] }], [null], [[1]]]) expect(flatRows(other)).toBeUndefined();
  });

  it('describe a key by the column of that name: in the resource, else in the resource the field is named after', () => {
    const cps = getResource('cps')!;
    expect(nestedColumn(cps, 'cp_connectors', 'last_status_dttm')).toBe(cps.columns.find((c) => c.field === 'last_status_dttm'));
    expect(nestedColumn(cps, 'cp_connectors', 'status')?.options).toBe('connector_status');
    expect(nestedColumn(cps, 'cp_connectors', 'whatever')).toBeUndefined();
  });

  it('show a charger\'s connectors as a table with labelled columns, in both languages', async () => {
    const cps = getResource('cps')!;
    const record = { cp_id: 7, cp_no: 'SIM001', cp_connectors: connectors, power_meter_factor: null };
    const en = text(await render('en', <RecordDescriptions def={cps} record={record} />));
    expect(en).toContain('|Connectors|');
    for (const header of ['Connector ID', 'Status', 'Error Code', 'Last Status Update']) expect(en).toContain(`|${header}|`);
    // Cells display like the column of that name: an error code through its option list when it has one.
    const errorCol = nestedColumn(cps, 'cp_connectors', 'error_code')!;
    const fault = errorCol.options ? optionLabel(staticOptionItems(errorCol.options, 'en'), 'GroundFailure') : 'GroundFailure';
    for (const cell of [fault, '2024-05-01 10:00:00', 'Faulted', 'Charging']) expect(en).toContain(`|${cell}|`);
    expect(en).not.toContain('&quot;connector_id&quot;'); // no raw JSON block
    const zh = text(await render('zh-TW', <RecordDescriptions def={cps} record={record} />));
    for (const header of ['充電槍編號', '狀態', '錯誤代碼', '最後狀態更新']) expect(zh).toContain(`|${header}|`);
    for (const cell of ['充電中', '故障']) expect(zh).toContain(`|${cell}|`); // status through its option labels
  });

  it('keep other JSON as a formatted block, with humanized names when nothing is known', async () => {
    const cps = getResource('cps')!;
    const html = await render('en', <RecordDescriptions def={cps} record={{ cp_id: 7, cp_connectors: { a: 1 } }} />);
    expect(html).toContain('<pre');
    expect(html).toContain('&quot;a&quot;: 1');
  });
});
