import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FilterValue } from './list-state.ts';

/** A date column's filter: a range of days (its own chunk, the date picker being large and seldom opened). */
export function DateRangeFilter({ value, onChange }: { value: FilterValue | undefined; onChange(value: FilterValue | undefined): void }) {
  const range: [Dayjs, Dayjs] | null = Array.isArray(value) && value.length === 2 ? [dayjs(String(value[0])), dayjs(String(value[1]))] : null;
  return (
    <DatePicker.RangePicker
      value={range}
      onChange={(dates) => onChange(dates?.[0] && dates[1] ? [dates[0].format('YYYY-MM-DD'), dates[1].format('YYYY-MM-DD')] : undefined)}
    />
  );
}
