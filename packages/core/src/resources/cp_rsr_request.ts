import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** Every exchange of an RSR with its charger (start, stop): what was sent and answered. View-only; seen by users of the RSR charger's site (the server's hook). */
export const cp_rsr_request: ResourceDef = {
  key: 'cp_rsr_request',
  labels: labels(['RSR Requests', 'RSR 請求記錄'], {
    rsr_req_id: ['ID', '編號'],
    rsr_id: ['RSR ID', '遙距充電請求編號'],
    cp_no: C.cp_no,
    cre_dttm: C.cre_dttm,
    request_data: ['Request', '請求'],
    response_data: ['Response', '回應'],
  }),
  table: 'cp_rsr_request',
  idField: 'rsr_req_id',
  columns: [
    idCol('rsr_req_id'),
    // An RSR's exchanges are looked up by its ID (an exact match, typed in: there is no option list of RSRs).
    col('rsr_id', 'link', 'int', { sortable: true, filter: 'select', linkTo: 'cp_rsr' }),
    textCol('cp_no'),
    dateCol('cre_dttm'),
    col('request_data', 'json', 'json'),
    col('response_data', 'json', 'json'),
  ],
  fields: [],
  defaultSort: { field: 'rsr_req_id', order: 'desc' },
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view'],
};
