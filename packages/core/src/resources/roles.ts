import type { ResourceDef } from '../resource.ts';
import { dateCol, idCol, intCol, intFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

export const roles: ResourceDef = {
  key: 'roles',
  labels: labels(['Roles', '角色'], {
    id: C.id,
    name_chi: ['Role Name (Chinese)', '角色名稱（中文）'],
    role: ['Role Code', '角色代碼'],
    level: ['Level', '等級'],
    cre_dttm: C.cre_dttm,
  }),
  table: 'roles',
  idField: 'id',
  asOption: { label: 'name_chi', orderBy: [{ field: 'level', desc: true }], atMostUserLevel: 'level' },
  titleField: 'name_chi',
  columns: [idCol('id'), textCol('name_chi'), textCol('role'), intCol('level'), dateCol('cre_dttm')],
  fields: [
    textFld('role', { required: true, unique: 'already_exist', maxLength: 64, lockedAfterCreate: true }),
    textFld('name_chi', { required: true }),
    intFld('level', { required: true, min: 0, max: 1000, default: 10 }),
  ],
  // The role list offers delete only; names and privileges are edited in /rnp.
  actions: ['create', 'delete'],
};
