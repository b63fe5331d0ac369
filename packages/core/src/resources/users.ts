import type { ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels, type Pair } from './labels.ts';

export const userFields: Record<string, Pair> = {
  id: C.id,
  name: ['Name', '姓名'],
  username: ['Username', '用戶名稱'],
  email: ['Email', '電郵'],
  role_id: ['Role', '角色'],
  active: C.active,
  cp_loc_flag: ['All Sites', '所有充電站'],
  loc_id: ['Sites', '充電站'],
  password: ['Password', '密碼'],
  confirm_password: ['Confirm Password', '確認密碼'],
  cre_dttm: C.cre_dttm,
  lupd_dttm: C.lupd_dttm,
};

export const users: ResourceDef = {
  key: 'users',
  labels: labels(['Users', '用戶'], userFields),
  table: 'users',
  idField: 'id',
  titleField: 'username',
  columns: [
    idCol('id'),
    textCol('name'),
    textCol('username'),
    textCol('email'),
    selectCol('role_id', 'roles'),
    boolCol('active'),
    boolCol('cp_loc_flag'),
    col('loc_id', 'enum', 'intArray', { options: 'cp_locs', filter: 'multiselect', viewOnly: true }),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    textFld('name', { required: true }),
    selectFld('role_id', 'roles', { required: true }),
    textFld('username', { required: true, unique: 'already_taken', maxLength: 64 }),
    fld('email', 'email', 'text', { maxLength: 255 }),
    fld('password', 'password', 'text', { requiredOnCreateOnly: true, writeOnly: true, maxLength: 128 }),
    fld('confirm_password', 'password', 'text', { requiredOnCreateOnly: true, writeOnly: true, sameAs: 'password', maxLength: 128 }),
    boolFld('active', { default: 1 }),
    boolFld('cp_loc_flag', { default: 1 }),
    fld('loc_id', 'multiselect', 'intArray', { options: 'cp_locs', disabledWhenSet: 'cp_loc_flag' }),
  ],
  defaultFilters: { active: 1 },
  // The spec's option calls ask for enabled records with enable_flag=1.
  paramAliases: { enable_flag: 'active' },
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
