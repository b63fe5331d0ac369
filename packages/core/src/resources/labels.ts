import type { ResourceLabels } from '../i18n/types.ts';

/** One field's label as [English, Traditional Chinese]. */
export type Pair = readonly [en: string, zh: string];

/** Builds ResourceLabels from [en, zh-TW] pairs so both languages always carry the same keys. */
export function labels(name: Pair, fields: Record<string, Pair>): ResourceLabels {
  const pick = (i: 0 | 1) => Object.fromEntries(Object.entries(fields).map(([f, p]) => [f, p[i]]));
  return {
    en: { name: name[0], fields: pick(0) },
    'zh-TW': { name: name[1], fields: pick(1) },
  };
}

/** Labels shared by many resources; a definition takes the ones it needs and may override them. */
export const COMMON_LABELS = {
  id: ['ID', '編號'],
  name: ['Name', '名稱'],
  name_chi: ['Name (Chinese)', '名稱（中文）'],
  remark: ['Remarks', '備註'],
  enable_flag: ['Enabled', '啟用'],
  active: ['Active', '啟用'],
  ip: ['IP Address', 'IP 地址'],
  cre_dttm: ['Created At', '建立時間'],
  lupd_dttm: ['Last Updated', '最後更新時間'],
  mass_update: ['Mass Update', '批量更新'],
  loc_id: ['Site', '充電站'],
  loc: ['Site', '充電站'],
  zone_id: ['Zone', '區域'],
  cp_id: ['Charger ID', '充電樁 ID'],
  cp_no: ['Charger No.', '充電樁編號'],
  connector_id: ['Connector ID', '充電槍編號'],
  connector_name: ['Connector Name', '充電槍名稱'],
  charge_box_serial_number: ['Charge Box Serial No.', '充電盒序號'],
  error_code: ['Error Code', '錯誤代碼'],
  last_status_dttm: ['Last Status Update', '最後狀態更新'],
  session_id: ['Session ID', '充電記錄編號'],
  tran_id: ['Transaction ID', '交易編號'],
  account_id: ['Account ID', '帳戶編號'],
  energy: ['Energy', '電量'],
  voltage: ['Voltage (V)', '電壓（V）'],
  ampere: ['Current (A)', '電流（A）'],
  uuid: ['UUID', 'UUID'],
  rsr_id: ['Reservation ID', '預約編號'],
} as const satisfies Record<string, Pair>;
