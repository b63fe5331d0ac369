import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, textCol } from './build.ts';

export const portal_action_log: ResourceDef = {
  key: 'portal_action_log',
  table: 'portal_action_log',
  idField: 'id',
  menu: { group: 'operation' },
  columns: [
    idCol('id'),
    col('action', 'enum', 'text', { sortable: true, filter: 'select', options: 'portal_action' }),
    textCol('target'),
    textCol('target_id'),
    col('old_data', 'json', 'json', { viewOnly: true }),
    col('new_data', 'json', 'json', { viewOnly: true }),
    textCol('remark'),
    textCol('cre_user'),
    dateCol('cre_dttm'),
  ],
  fields: [],
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
};
