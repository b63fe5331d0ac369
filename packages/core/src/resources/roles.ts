import { SUPER_ADMIN_ROLE } from '../privileges.ts';
import type { ResourceDef } from '../resource.ts';
import { boolCol, boolFld, dateCol, idCol, intCol, intFld, textCol, textFld } from './build.ts';

export const roles: ResourceDef = {
  key: 'roles',
  table: 'roles',
  idField: 'id',
  titleField: 'name_chi',
  menu: { group: 'setting' },
  columns: [idCol('id'), textCol('name_chi'), textCol('role'), intCol('level'), dateCol('cre_dttm')],
  fields: [
    textFld('role', { required: true, unique: 'already_exist', maxLength: 64, lockedAfterCreate: true }),
    textFld('name_chi', { required: true }),
    intFld('level', { required: true, min: 0, max: 1000, default: 10 }),
  ],
  // The role list offers delete only; names and privileges are edited in /rnp.
  actions: ['create', 'delete'],
};

export const privileges: ResourceDef = {
  key: 'privileges',
  table: 'privileges',
  idField: 'id',
  titleField: 'name',
  menu: { group: 'setting' },
  roles: [SUPER_ADMIN_ROLE],
  columns: [idCol('id'), textCol('name'), boolCol('enable_flag')],
  fields: [textFld('name', { required: true, unique: 'already_exist', maxLength: 100 }), boolFld('enable_flag', { default: 1 })],
  actions: ['create', 'edit', 'view', 'delete'],
};
