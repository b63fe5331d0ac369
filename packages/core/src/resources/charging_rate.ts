import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, intCol, intFld, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A site's charging rate (spec part 2 §3, §4, §6): how long a unit lasts, the grace period before
 * the penalty, the caps. Priced by time only: the type is shown and never changed. The site is
 * fixed after creation (its slots name price schemes of that site, its chargers are of that site).
 * The view's tabs edit its time slots (charging_rate_detail) and its chargers
 * (GET/POST /api/charging_rate_detail_cp_group).
 */
export const charging_rate: ResourceDef = {
  key: 'charging_rate',
  labels: labels(['Charging Rates', '充電收費'], {
    id: C.id,
    name: C.name,
    type: ['Type', '類型'],
    gracing_period: ['Grace Period (minutes)', '寬限期（分鐘）'],
    loc_id: C.loc_id,
    max_daily_charging_session: ['Max Daily Charging Sessions', '每日最多充電次數'],
    max_charging_unit: ['Max Charging Units', '最多充電單位'],
    max_penalty_unit: ['Max Penalty Units', '最多罰款單位'],
    redeem_period: ['Redeem Period (minutes)', '兌換期（分鐘）'],
    max_redeem_count: ['Max Redemptions per Period', '每期最多兌換次數'],
    unit: ['Minutes per Unit', '每單位分鐘'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'charging_rate',
  idField: 'id',
  titleField: 'name',
  // Chargers' and slots' screens name a rate; the site in brackets tells same-named ones apart.
  asOption: { label: 'name', qualifiedBy: 'loc_id' },
  site: { column: 'loc_id' },
  columns: [
    idCol('id'),
    textCol('name'),
    col('type', 'enum', 'text', { sortable: true, filter: 'select', options: 'charging_rate_type' }),
    selectCol('loc_id', 'cp_locs'),
    intCol('unit'),
    intCol('gracing_period'),
    intCol('max_charging_unit'),
    intCol('max_penalty_unit'),
    intCol('max_daily_charging_session'),
    intCol('redeem_period', { hiddenInList: true }),
    intCol('max_redeem_count', { hiddenInList: true }),
    dateCol('cre_dttm', { hiddenInList: true }),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('name', { required: true, maxLength: 100 }),
    fld('type', 'select', 'text', { options: 'charging_rate_type', default: 'Time', fixed: true }),
    selectFld('loc_id', 'cp_locs', { required: true, lockedAfterCreate: true }),
    intFld('unit', { required: true, default: 15, min: 1, max: 1440 }),
    intFld('gracing_period', { required: true, default: 0, min: 0, max: 1440 }),
    intFld('max_charging_unit', { min: 1, max: 96 }),
    intFld('max_penalty_unit', { min: 0, max: 1000 }),
    intFld('max_daily_charging_session', { min: 1, max: 1000 }),
    intFld('redeem_period', { min: 1, max: 527_040 }),
    intFld('max_redeem_count', { min: 0, max: 1000 }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  softDelete: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
