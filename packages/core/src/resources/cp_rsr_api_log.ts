import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** Every call about RSRs to or from an outside system (the external API's starts, the payment gateway). View-only; a call about an RSR is seen by users of its charger's site (the server's hook). */
export const cp_rsr_api_log: ResourceDef = {
  key: 'cp_rsr_api_log',
  labels: labels(['RSR API Log', 'RSR API 日誌'], {
    api_log_id: ['ID', '編號'],
    api_log_type: ['Type', '類型'],
    rsr_id: ['RSR ID', '遙距充電請求編號'],
    url: ['URL', '網址'],
    request_data: ['Request', '請求'],
    response_data: ['Response', '回應'],
    cre_dttm: C.cre_dttm,
  }),
  table: 'cp_rsr_api_log',
  idField: 'api_log_id',
  columns: [
    idCol('api_log_id'),
    textCol('api_log_type'),
    col('rsr_id', 'link', 'int', { sortable: true, linkTo: 'cp_rsr' }),
    textCol('url'),
    col('request_data', 'json', 'json'),
    col('response_data', 'json', 'json'),
    dateCol('cre_dttm'),
  ],
  fields: [],
  defaultSort: { field: 'api_log_id', order: 'desc' },
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view'],
};
