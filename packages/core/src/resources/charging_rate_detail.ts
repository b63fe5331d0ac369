import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { editPrivilege } from '../privileges.ts';
import { boolCol, boolFld, col, dateCol, fld, floatCol, floatFld, idCol, intCol, intFld, selectCol, selectFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A charging rate's time slot (spec part 2 §3, §5): from startTime (inclusive) to endTime
 * (exclusive, '24:00' the end of the day), on some weekdays (1 = Monday .. 7; none: every day), the
 * price scheme (of the rate's site) and the penalty. Slots of a rate never overlap on a shared day:
 * the pricing takes the first slot holding the start (core pricing.ts). Money entered in dollars,
 * stored in cents. The times are text inputs ('HH:mm'): a time picker cannot say '24:00'. Listed per rate (chargingRateId) or per site (loc_id, the rate's site); the
 * rate's view is its editor. Every write also needs EDIT_CHARGING_RATE (spec §6).
 */
export const charging_rate_detail: ResourceDef = {
  key: 'charging_rate_detail',
  labels: labels(['Charging Rate Slots', '充電收費時段'], {
    id: C.id,
    chargingRateId: ['Charging Rate', '充電收費'],
    loc_id: C.loc_id,
    startTime: ['Start Time', '開始時間'],
    endTime: ['End Time', '結束時間'],
    weekday: ['Weekdays', '星期'],
    peak: ['Peak', '繁忙時段'],
    maxChargingUnit: ['Max Charging Units', '最多充電單位'],
    priceSchemeId: ['Price Scheme', '價格方案'],
    penaltyUnit: ['Penalty Unit (minutes)', '罰款單位（分鐘）'],
    penaltyFee: ['Penalty Fee per Unit ($)', '每單位罰款（$）'],
    unit: ['Unit', '單位'],
    fee: ['Fee per Unit ($)', '每單位收費（$）'],
    point: ['Points per Unit', '每單位積分'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'charging_rate_detail',
  idField: 'id',
  softDelete: true,
  paramAliases: { locId: 'loc_id' },
  rowActionPrivileges: [editPrivilege('charging_rate')],
  columns: [
    idCol('id'),
    selectCol('chargingRateId', 'charging_rate'),
    selectCol('loc_id', 'cp_locs', { viewOnly: true }),
    col('startTime', 'text', 'text', { sortable: true }),
    col('endTime', 'text', 'text', { sortable: true }),
    col('weekday', 'enum', 'intArray', { options: 'weekday' }),
    boolCol('peak'),
    intCol('maxChargingUnit'),
    selectCol('priceSchemeId', 'price_scheme'),
    intCol('penaltyUnit'),
    floatCol('penaltyFee', { decimals: 2 }),
    col('unit', 'enum', 'text', { options: 'charging_rate_unit', hiddenInList: true }),
    floatCol('fee', { decimals: 2, hiddenInList: true }),
    intCol('point', { hiddenInList: true }),
    dateCol('cre_dttm', { hiddenInList: true }),
    dateCol('lupd_dttm', { hiddenInList: true }),
  ],
  fields: [
    selectFld('chargingRateId', 'charging_rate', { required: true, lockedAfterCreate: true }),
    fld('startTime', 'text', 'text', { required: true, maxLength: 5 }),
    fld('endTime', 'text', 'text', { required: true, maxLength: 5 }),
    fld('weekday', 'multiselect', 'intArray', { options: 'weekday', limit: 7 }),
    boolFld('peak', { default: 0 }),
    intFld('maxChargingUnit', { required: true, min: 1, max: 96 }),
    selectFld('priceSchemeId', 'price_scheme', { required: true }),
    intFld('penaltyUnit', { min: 1, max: 1440 }),
    floatFld('penaltyFee', { min: 0, max: 99_999_999 }),
    fld('unit', 'select', 'text', { options: 'charging_rate_unit' }),
    floatFld('fee', { min: 0, max: 99_999_999 }),
    intFld('point', { min: 0, max: 1_000_000 }),
  ],
  defaultSort: { field: 'startTime', order: 'asc' },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete'],
};
