import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

export const user_log: ResourceDef = {
  key: 'user_log',
  labels: labels(['User Log', '用戶記錄'], {
    user_log_id: ['Log ID', '記錄編號'],
    type: ['Type', '類型'],
    username: ['Username', '用戶名稱'],
    msg: ['Message', '訊息'],
    ip: C.ip,
    user_id: ['User ID', '用戶編號'],
    cre_dttm: ['Time', '時間'],
  }),
  table: 'user_log',
  idField: 'user_log_id',
  columns: [
    idCol('user_log_id'),
    col('type', 'enum', 'text', { sortable: true, filter: 'select', options: 'user_log_type' }),
    textCol('username'),
    col('msg', 'message', 'text', { sortable: true, filter: 'text' }),
    textCol('ip'),
    // Exact: a user's own log (the users view's tab) is asked for by id.
    intCol('user_id', { filter: 'select' }),
    dateCol('cre_dttm'),
  ],
  fields: [],
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
};
