import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, floatFld, idCol, intCol, intFld, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * What n charging units cost at a site (spec part 2 §3, §4, §9). The fee is entered in dollars and
 * stored in cents. Its sessions (GET/PUT /api/price_scheme_detail/{id}) run 1..maxChargingUnit:
 * a Fixed scheme computes session n as n × fee (points n × session 1's), a Custom one has each
 * session typed in. Site and type are fixed after creation: rate details of the site refer to it.
 */
export const price_scheme: ResourceDef = {
  key: 'price_scheme',
  labels: labels(['Price Schemes', '價格方案'], {
    id: ['ID', '編號'],
    name: C.name,
    fee: ['Fee per Unit ($)', '每單位收費（$）'],
    locId: C.loc_id,
    maxChargingUnit: ['Max Charging Units', '最多充電單位'],
    type: ['Type', '類型'],
    version: ['Version', '版本'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'price_scheme',
  idField: 'id',
  titleField: 'name',
  // Rate details pick a scheme by name; the site in brackets tells same-named ones apart.
  asOption: { label: 'name', qualifiedBy: 'locId' },
  site: { column: 'locId' },
  columns: [
    idCol('id'),
    textCol('name'),
    col('fee', 'number', 'float', { sortable: true, decimals: 2 }),
    selectCol('locId', 'cp_locs'),
    intCol('maxChargingUnit'),
    col('type', 'enum', 'text', { sortable: true, filter: 'select', options: 'price_scheme_type' }),
    intCol('version', { viewOnly: true }),
    dateCol('cre_dttm', { hiddenInList: true }),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('name', { required: true }),
    floatFld('fee', { required: true, min: 0, max: 99_999_999 }),
    selectFld('locId', 'cp_locs', { required: true, lockedAfterCreate: true }),
    intFld('maxChargingUnit', { required: true, default: 1, min: 1, max: 96 }),
    fld('type', 'select', 'text', { options: 'price_scheme_type', required: true, default: 'Fixed', lockedAfterCreate: true }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  softDelete: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
