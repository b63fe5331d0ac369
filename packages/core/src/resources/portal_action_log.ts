import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

export const portal_action_log: ResourceDef = {
  key: 'portal_action_log',
  labels: labels(['Portal Action Log', '系統操作記錄'], {
    id: C.id,
    action: ['Action', '操作'],
    target: ['Target', '對象'],
    target_id: ['Target ID', '對象編號'],
    changes: ['Changes', '變更內容'],
    remark: C.remark,
    cre_user: ['Operator', '操作人員'],
    cre_dttm: ['Time', '時間'],
  }),
  table: 'portal_action_log',
  idField: 'id',
  columns: [
    idCol('id'),
    col('action', 'enum', 'text', { sortable: true, filter: 'select', options: 'portal_action' }),
    textCol('target'),
    textCol('target_id'),
    // The record before and after (server hook): shown field by field, only what changed.
    col('changes', 'changes', 'json', { viewOnly: true }),
    textCol('remark'),
    textCol('cre_user'),
    dateCol('cre_dttm'),
  ],
  fields: [],
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'popView', 'excel'],
};
