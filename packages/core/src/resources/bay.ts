import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, intCol, intFld, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A parking bay (spec part 2 §3, §4): the parking system's bay (bayId) in front of one charger
 * connector. Its status, plate, brand, times and image are set by the parking system's events
 * (server parking/events.ts), not by the form. A Tesla bay has no connector here and is managed by
 * the parking system: its site is chosen, and once created it is not edited. Any other bay takes
 * its site from its charger (set by the server), and one connector has at most one live bay.
 */
export const bay: ResourceDef = {
  key: 'bay',
  labels: labels(['Parking Bays', '停車位'], {
    id: C.id,
    bayId: ['Bay ID (parking system)', '車位編號（停車系統）'],
    bayName: ['Bay Name', '車位名稱'],
    type: ['Type', '類型'],
    cpLocId: ['Car Park ID', '停車場編號'],
    mallId: ['Mall ID', '商場編號'],
    locId: C.loc_id,
    cpId: ['Charger', '充電樁'],
    connectorId: C.connector_id,
    cpConnector: ['Charger / Connector', '充電樁 / 充電槍'],
    brand: ['Car Brand', '汽車品牌'],
    licensePlate: ['Licence Plate', '車牌'],
    inTime: ['Entry Time', '入場時間'],
    outTime: ['Exit Time', '離場時間'],
    autoDownloadFlag: ['Auto Download', '自動下載'],
    status: ['Status', '狀態'],
    penaltyMode: ['Penalty Mode', '罰款模式'],
    image: ['Image', '圖片'],
    lupdDttm: C.lupd_dttm,
    urlGetBayInfo: ['Bay Info URL', '車位資料網址'],
  }),
  table: 'bay',
  idField: 'id',
  titleField: 'bayName',
  asOption: { label: 'bayName', qualifiedBy: 'locId' },
  site: { column: 'locId' },
  columns: [
    idCol('id'),
    textCol('bayId'),
    textCol('bayName'),
    col('type', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_type' }),
    textCol('cpLocId', { hiddenInList: true }),
    textCol('mallId', { hiddenInList: true }),
    selectCol('locId', 'cp_locs'),
    selectCol('cpId', 'cps', { hiddenInList: true }),
    intCol('connectorId', { hiddenInList: true }),
    textCol('cpConnector', { sortable: false, filter: undefined }),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_status' }),
    textCol('licensePlate'),
    textCol('brand'),
    dateCol('inTime'),
    dateCol('outTime'),
    boolCol('autoDownloadFlag', { hiddenInList: true }),
    col('penaltyMode', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_penalty_mode', hiddenInList: true }),
    col('image', 'image', 'text', { viewOnly: true }),
    textCol('urlGetBayInfo', { viewOnly: true }),
    dateCol('lupdDttm'),
  ],
  fields: [
    textFld('bayId', { required: true, unique: 'already_exist', maxLength: 100 }),
    textFld('bayName', { required: true, maxLength: 100 }),
    fld('type', 'select', 'text', { options: 'bay_type', required: true, default: 'Normal', lockedAfterCreate: true }),
    // A Tesla bay has no connector here; any other bay is in front of one (its site follows the charger).
    selectFld('cpId', 'cps', { disabledWhen: { type: ['Tesla'] } }),
    intFld('connectorId', { min: 1, max: 99, disabledWhen: { type: ['Tesla'] } }),
    selectFld('locId', 'cp_locs', { disabledUnless: { type: ['Tesla'] } }),
    textFld('cpLocId', { maxLength: 100 }),
    textFld('mallId', { maxLength: 100 }),
    fld('penaltyMode', 'select', 'text', { options: 'bay_penalty_mode', default: 'Rate' }),
    boolFld('autoDownloadFlag', { default: 0 }),
    textFld('urlGetBayInfo', { maxLength: 500 }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  softDelete: true,
  lockedWhen: { type: ['Tesla'] },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
