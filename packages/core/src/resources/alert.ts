import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, dateCol, idCol, intCol, selectCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Alerts the central system raised from chargers' StatusNotification errors and disconnections
 * (packages/server/src/alerts/): read-only, one open alert per charger and error code.
 */
export const alert: ResourceDef = {
  key: 'alert',
  labels: labels(['Alerts', '警報'], {
    alert_id: ['Alert ID', '警報編號'],
    cp_id: ['Charger', '充電樁'],
    cp_no: C.cp_no,
    error_id: C.error_code,
    location: ['Location', '地點'],
    message: ['Message', '訊息'],
    last_date: ['Last Detected', '最後偵測時間'],
    cre_dttm: ['First Detected', '首次偵測時間'],
    level: ['Continuous Detections', '連續偵測次數'],
    is_fixes: ['Fixed', '已修復'],
    fixed_dttm: ['Fixed At', '修復時間'],
    tran_id: C.tran_id,
  }),
  table: 'alert',
  idField: 'alert_id',
  titleField: 'cp_no',
  site: { column: 'loc_id' },
  columns: [
    idCol('alert_id'),
    selectCol('cp_id', 'cps', { hiddenInList: true }),
    textCol('cp_no'),
    selectCol('error_id', 'alert_error_code', { type: 'text' }),
    textCol('location'),
    intCol('level'),
    boolCol('is_fixes'),
    dateCol('last_date'),
    textCol('message'),
    dateCol('cre_dttm'),
    dateCol('fixed_dttm', { viewOnly: true }),
    intCol('tran_id', { hiddenInList: true }),
  ],
  fields: [],
  defaultSort: { field: 'alert_id', order: 'desc' },
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'excel'],
};
