import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { getResource } from '@ev/core';
import { dateRangeParam, initialState, listQuery } from './list-state.ts';
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
