import type { ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';

export const users: ResourceDef = {
  key: 'users',
  table: 'users',
  idField: 'id',
  titleField: 'username',
  menu: { group: 'setting' },
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
    fld('loc_id', 'multiselect', 'intArray', { options: 'cp_locs' }),
  ],
  defaultFilters: { active: 1 },
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

/** The signed-in user's own record (/user/profile): same table, no privilege needed for oneself. */
export const user_profile: ResourceDef = {
  ...users,
  key: 'user_profile',
  // Through the generic routes it is the users resource; one's own profile has its own routes.
  privilegeKey: 'users',
  menu: undefined,
  fields: users.fields.filter((f) => ['name', 'email', 'password', 'confirm_password'].includes(f.field)),
  defaultFilters: undefined,
  actions: ['view', 'edit'],
};
