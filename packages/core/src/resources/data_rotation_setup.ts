import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, idCol, intCol, intFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Retention per kind of data (spec part 2 §3), one row per item seeded by migration 0009: only
 * edited, never created or deleted. The server's nightly job (housekeeping/rotation.ts) trims what
 * an enabled item keeps longer than period_month months and records last_run_dttm / last_deleted.
 */
export const data_rotation_setup: ResourceDef = {
  key: 'data_rotation_setup',
  labels: labels(['Data Retention', '數據保留設定'], {
    id: C.id,
    item: ['Data', '數據類別'],
    period_month: ['Retention (months)', '保留期（月）'],
    is_enabled: ['Enabled', '啟用'],
    last_run_dttm: ['Last Run', '最後執行時間'],
    last_deleted: ['Rows Deleted in Last Run', '上次刪除筆數'],
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'data_rotation_setup',
  idField: 'id',
  titleField: 'item',
  defaultSort: { field: 'id', order: 'asc' },
  columns: [
    idCol('id'),
    col('item', 'enum', 'text', { sortable: true, filter: 'select', options: 'data_rotation_item' }),
    intCol('period_month'),
    boolCol('is_enabled'),
    dateCol('last_run_dttm'),
    intCol('last_deleted'),
    dateCol('lupd_dttm', { hiddenInList: true }),
  ],
  fields: [
    intFld('period_month', { required: true, min: 1, max: 120 }),
    boolFld('is_enabled', { required: true }),
  ],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['edit', 'view'],
};
