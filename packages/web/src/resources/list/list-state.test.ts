import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { getResource } from '@ev/core';
import { dateRangeParam, initialState, listQuery, searchColumn, searchState } from './list-state.ts';
import { buildQuery } from '../../api/client.ts';

describe('list query', () => {
  it('sends a date range as the start of the first day and the start of the day after the last', () => {
    const [from, to] = dateRangeParam(['2024-03-01', '2024-03-02'])!;
    expect(from).toBe(dayjs('2024-03-01').startOf('day').unix());
    expect(to).toBe(dayjs('2024-03-03').startOf('day').unix());
    expect(to - from).toBe(2 * 86400);
  });

  it('starts from the definition: id descending, default filters, trash only for soft-delete resources', () => {
    const cps = getResource('cps')!;
    expect(listQuery(cps, initialState(cps))).toEqual({
      size: 20, page: 0, sort_by: 'cp_id', order: 'desc', trash: 0, enable_flag: 1,
    });
    const pow = getResource('cp_pow')!;
    expect(listQuery(pow, initialState(pow))).toEqual({ size: 10, page: 0, sort_by: 'power_meter_type_id', order: 'desc' });
  });

  it('sends a removed default filter empty, so that the server does not apply it again', () => {
    const cps = getResource('cps')!;
    const { enable_flag: _removed, ...filters } = initialState(cps).filters;
    expect(listQuery(cps, { ...initialState(cps), filters })).toMatchObject({ enable_flag: '' });
    expect(buildQuery(listQuery(cps, { ...initialState(cps), filters }))).toContain('enable_flag=&');
  });

  it('sends only filters of filterable columns, fixed ones included', () => {
    const log = getResource('user_log')!;
    const state = { ...initialState(log), filters: { type: 'LOGIN', nope: 'x' } };
    expect(listQuery(log, state, { username: 'admin' })).toMatchObject({ type: 'LOGIN', username: 'admin' });
    expect(listQuery(log, state)).not.toHaveProperty('nope');
  });
});

describe('search route (/{key}/{search}/search)', () => {
  it('filters the title column when it has a text filter: cp_no of chargers, address of sites', () => {
    expect(searchColumn(getResource('cps')!)?.field).toBe('cp_no');
    expect(searchColumn(getResource('cp_locs')!)?.field).toBe('address');
  });

  it('falls back to the first text-filter column, skipping what the user may not see; none: no column', () => {
    const cps = getResource('cps')!;
    const noTitle = { ...cps, titleField: 'cp_id' };
    expect(searchColumn(noTitle)?.field).toBe('cp_no');
    expect(searchColumn(noTitle, (c) => c.field !== 'cp_no')?.field).toBe('name');
    expect(searchColumn({ ...cps, columns: cps.columns.filter((c) => c.filter !== 'text') })).toBeUndefined();
  });

  it('starts the list with the term as an ordinary filter beside the default ones, on the first page', () => {
    const cps = getResource('cps')!;
    const state = searchState(cps, ' SIM001 ');
    expect(state.filters).toEqual({ enable_flag: 1, cp_no: 'SIM001' });
    expect(listQuery(cps, state)).toEqual({ size: 20, page: 0, sort_by: 'cp_id', order: 'desc', trash: 0, enable_flag: 1, cp_no: 'SIM001' });
    const locs = getResource('cp_locs')!;
    expect(listQuery(locs, searchState(locs, 'Mall'))).toMatchObject({ address: 'Mall' });
  });

  it('keeps page size, sort and columns of the saved state, but not its filters, page or trash', () => {
    const cps = getResource('cps')!;
    const saved = { ...initialState(cps), size: 50, page: 3, sortBy: 'cp_no', order: 'asc' as const, trash: true, shown: ['ip'], filters: { name: 'x' } };
    expect(searchState(cps, 'SIM', saved)).toEqual({ ...saved, page: 0, trash: false, filters: { enable_flag: 1, cp_no: 'SIM' } });
  });

  it('shows a search column hidden by default, and an empty term filters nothing', () => {
    const cps = getResource('cps')!;
    const hidden = { ...cps, titleField: 'charge_box_serial_number' };
    const state = searchState(hidden, 'SN-1');
    expect(state.filters).toMatchObject({ charge_box_serial_number: 'SN-1' });
    expect(state.shown).toEqual(['charge_box_serial_number']);
    expect(searchState(cps, '  ').filters).toEqual({ enable_flag: 1 });
  });
});
