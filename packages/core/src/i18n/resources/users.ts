import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels, type Pair } from './build.ts';

const userFields: Record<string, Pair> = {
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

export const users: ResourceLabels = labels(['Users', '用戶'], userFields);

export const user_profile: ResourceLabels = labels(['My Profile', '個人資料'], userFields);

export const user_log: ResourceLabels = labels(['User Log', '用戶記錄'], {
  user_log_id: ['Log ID', '記錄編號'],
  type: ['Type', '類型'],
  username: ['Username', '用戶名稱'],
  msg: ['Message', '訊息'],
  ip: C.ip,
  user_id: ['User ID', '用戶編號'],
  cre_dttm: ['Time', '時間'],
});
