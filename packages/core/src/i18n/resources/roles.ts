import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels } from './build.ts';

export const roles: ResourceLabels = labels(['Roles', '角色'], {
  id: C.id,
  name_chi: ['Role Name (Chinese)', '角色名稱（中文）'],
  role: ['Role Code', '角色代碼'],
  level: ['Level', '等級'],
  cre_dttm: C.cre_dttm,
});

export const privileges: ResourceLabels = labels(['Privileges', '權限'], {
  id: C.id,
  name: ['Privilege Name', '權限名稱'],
  enable_flag: C.enable_flag,
});
