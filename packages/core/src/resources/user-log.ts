import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, textCol } from './build.ts';

export const user_log: ResourceDef = {
  key: 'user_log',
  table: 'user_log',
  idField: 'user_log_id',
  menu: { group: 'operation' },
  columns: [
    idCol('user_log_id'),
    col('type', 'enum', 'text', { sortable: true, filter: 'select', options: 'user_log_type' }),
    textCol('username'),
    textCol('msg'),
    textCol('ip'),
    intCol('user_id'),
    dateCol('cre_dttm'),
  ],
  fields: [],
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
};
