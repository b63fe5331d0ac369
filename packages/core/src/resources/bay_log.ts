import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, selectCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Every event of the parking system (car in, car out) as received, accepted or refused (server
 * parking/events.ts), newest first. Read-only; links to the bay and to the RSR charging there then.
 */
export const bay_log: ResourceDef = {
  key: 'bay_log',
  labels: labels(['Bay Log', '車位記錄'], {
    id: C.id,
    sessionId: ['Parking Session ID', '停車記錄編號'],
    status: ['Event', '事件'],
    requestStatus: ['Request Status', '請求狀態'],
    bayUpdateStatus: ['Bay Update', '車位更新'],
    relatedRsr: ['Related RSR', '相關遙距充電請求'],
    bayId: ['Bay', '車位'],
    brand: ['Car Brand', '汽車品牌'],
    licensePlate: ['Licence Plate', '車牌'],
    imageLocalPath: ['Image', '圖片'],
    locId: C.loc_id,
    mallId: ['Mall ID', '商場編號'],
    inTime: ['Entry Time', '入場時間'],
    outTime: ['Exit Time', '離場時間'],
    creDttm: ['Received At', '接收時間'],
    errorCode: ['Error Code', '錯誤代碼'],
    response: ['Response', '回應'],
  }),
  table: 'bay_log',
  idField: 'id',
  site: { column: 'locId' },
  columns: [
    idCol('id'),
    textCol('sessionId'),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_event' }),
    col('requestStatus', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_request_status' }),
    col('bayUpdateStatus', 'enum', 'text', { sortable: true, filter: 'select', options: 'bay_update' }),
    textCol('errorCode'),
    col('bayId', 'link', 'int', { sortable: true, filter: 'select', options: 'bay', linkTo: 'bay' }),
    col('relatedRsr', 'link', 'int', { sortable: true, linkTo: 'cp_rsr' }),
    textCol('licensePlate'),
    textCol('brand'),
    col('imageLocalPath', 'image', 'text', { hiddenInList: true }),
    selectCol('locId', 'cp_locs', { hiddenInList: true }),
    textCol('mallId', { hiddenInList: true }),
    dateCol('inTime'),
    dateCol('outTime'),
    textCol('response', { hiddenInList: true }),
    dateCol('creDttm'),
  ],
  fields: [],
  defaultSort: { field: 'id', order: 'desc' },
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'excel'],
};
