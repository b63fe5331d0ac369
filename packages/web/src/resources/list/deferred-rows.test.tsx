import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Table } from 'antd';
import { deferredTable, DEFER_ABOVE, DrawnRows, FIRST_ROWS, firstRows, nextRows, STEP_ROWS } from './deferred-rows.tsx';

describe('rows of a big page drawn in steps', () => {
  it('draws small pages at once, big ones from a screenful', () => {
    expect(firstRows(20)).toBe(20);
    expect(firstRows(DEFER_ABOVE)).toBe(DEFER_ABOVE);
    expect(firstRows(200)).toBe(FIRST_ROWS);
  });

  it('reaches every row of a 200-row page, never beyond', () => {
    let drawn = firstRows(200);
    let steps = 0;
    while (drawn < 200) {
      const next = nextRows(drawn, 200);
      expect(next - drawn).toBeLessThanOrEqual(STEP_ROWS);
      expect(next).toBeGreaterThan(drawn);
      drawn = next;
      steps++;
    }
    expect(drawn).toBe(200);
    expect(steps).toBe(Math.ceil((200 - FIRST_ROWS) / STEP_ROWS));
  });
});

describe('the table of a big page', () => {
  const data = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
  const table = (deferred: boolean, drawn: number) =>
    renderToStaticMarkup(
      <DrawnRows value={drawn}>
        <Table {...(deferred ? deferredTable : {})} rowKey="id" dataSource={data} columns={[{ key: 'name', dataIndex: 'name' }]} pagination={false} />
      </DrawnRows>,
    );
  const rowKeys = (html: string) => [...html.matchAll(/data-row-key="(\d+)"/g)].map((m) => Number(m[1]));

  it('draws only the rows whose turn has come, the first ones, without their index in the DOM', () => {
    const html = table(true, FIRST_ROWS);
    expect(rowKeys(html)).toEqual(data.slice(0, FIRST_ROWS).map((r) => r.id));
    expect(html).not.toContain(`row ${FIRST_ROWS + 1}<`);
    expect(html).not.toContain('data-index');
    expect(rowKeys(table(true, 60))).toHaveLength(60);
  });

  it('draws every row of a table that does not defer', () => {
    expect(rowKeys(table(false, FIRST_ROWS))).toHaveLength(60);
  });
});
