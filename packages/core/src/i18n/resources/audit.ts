import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels } from './build.ts';

export const portal_action_log: ResourceLabels = labels(['Portal Action Log', '系統操作記錄'], {
  id: C.id,
  action: ['Action', '操作'],
  target: ['Target', '對象'],
  target_id: ['Target ID', '對象編號'],
  old_data: ['Previous Data', '原有資料'],
  new_data: ['New Data', '新資料'],
  remark: C.remark,
  cre_user: ['Operator', '操作人員'],
  cre_dttm: ['Time', '時間'],
});
