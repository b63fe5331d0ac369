import { SUPER_ADMIN_ROLE } from '../privileges.ts';
import type { ResourceDef } from '../resource.ts';
import { boolCol, boolFld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

export const privileges: ResourceDef = {
  key: 'privileges',
  labels: labels(['Privileges', '權限'], {
    id: C.id,
    name: ['Privilege Name', '權限名稱'],
    enable_flag: C.enable_flag,
  }),
  table: 'privileges',
  idField: 'id',
  titleField: 'name',
  roles: [SUPER_ADMIN_ROLE],
  columns: [idCol('id'), textCol('name'), boolCol('enable_flag')],
  fields: [textFld('name', { required: true, unique: 'already_exist', maxLength: 100 }), boolFld('enable_flag', { default: 1 })],
  actions: ['create', 'edit', 'view', 'delete'],
};
