import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Opening hours (spec part 2 §3): HH:mm in APP_TIMEZONE, the end after the start (spec part 2 §5) unless the
 * operator ticks ends_next_day: then the end, before the start, is on the next day (an overnight span).
 * weekday and date_list are PostgreSQL arrays (the engine's intArray covers any array column for
 * display); they are written with the times through PUT /api/opening_hour_days/{id}, since the
 * generic form has no weekday or date-list widget (the view's Days tab is that editor).
 * Chargers are assigned in the view's Chargers tab (cp_opening_hour).
 */
export const opening_hour: ResourceDef = {
  key: 'opening_hour',
  labels: labels(['Opening Hours', '開放時間'], {
    opening_hour_id: C.id,
    name: C.name,
    start_time: ['Start Time', '開始時間'],
    end_time: ['End Time', '結束時間'],
    ends_next_day: ['Ends the Next Day', '翌日結束'],
    weekday: ['Weekdays', '星期'],
    date_list: ['Dates', '日期'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'opening_hour',
  idField: 'opening_hour_id',
  titleField: 'name',
  asOption: { label: 'name' },
  softDelete: true,
  columns: [
    idCol('opening_hour_id'),
    textCol('name'),
    textCol('start_time', { filter: undefined }),
    textCol('end_time', { filter: undefined }),
    boolCol('ends_next_day', { filter: undefined }),
    col('weekday', 'text', 'intArray'),
    col('date_list', 'text', 'intArray', { viewOnly: true }),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('name', { required: true }),
    fld('start_time', 'time', 'text', { required: true, maxLength: 5 }),
    fld('end_time', 'time', 'text', { required: true, maxLength: 5 }),
    boolFld('ends_next_day', { default: 0 }),
  ],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
