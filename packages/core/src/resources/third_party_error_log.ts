import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** Refused or failed calls of third-party apps on the external API (server third-party/), newest first. */
export const third_party_error_log: ResourceDef = {
  key: 'third_party_error_log',
  labels: labels(['Third-party Error Log', '第三方錯誤記錄'], {
    id: C.id,
    app_id: ['App ID', '應用程式編號'],
    rsr_id: ['RSR ID', '遙距充電請求編號'],
    action: ['Action', '操作'],
    carpark_id: ['Car Park ID', '停車場編號'],
    member_id: ['Member ID', '會員編號'],
    charger_id: ['Charger ID', '充電樁編號'],
    connector_id: ['Connector ID', '充電槍編號'],
    connector_status: ['Connector Status', '充電槍狀態'],
    error_code: ['Error Code', '錯誤代碼'],
    mall_id: ['Mall ID', '商場編號'],
    reason: ['Reason', '原因'],
    error_time: ['Error Time', '錯誤時間'],
  }),
  table: 'third_party_error_log',
  idField: 'id',
  defaultSort: { field: 'id', order: 'desc' },
  columns: [
    idCol('id'),
    textCol('app_id'),
    intCol('rsr_id', { hiddenInList: true }),
    col('action', 'enum', 'text', { sortable: true, filter: 'select', options: 'external_action' }),
    textCol('carpark_id'),
    textCol('member_id'),
    textCol('charger_id'),
    intCol('connector_id'),
    textCol('connector_status'),
    textCol('error_code'),
    textCol('mall_id'),
    col('reason', 'message', 'text', { sortable: true, filter: 'text' }),
    dateCol('error_time'),
  ],
  fields: [],
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'popView', 'excel'],
};
