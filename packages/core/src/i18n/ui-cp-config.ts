import type { Catalog, Lang } from './types.ts';

/**
 * Display names of charger configuration settings and of their Selection choices (namespace ui.*, merged
 * into UI): ui.configSetting.<name>, ui.configOption.<choice>. config_json keeps the spec's English names
 * and values; only the portal shows these. A name or choice not listed here (a vendor's own) shows as stored.
 */
const NAMES_ZH: Record<string, string> = {
  'Admin Card': '管理員卡',
  Authentication: '認證方式',
  'Auto Unlock Interval (ms)': '自動解鎖間隔（毫秒）',
  'Backdoor Server': '後門伺服器',
  'Charging detail': '充電詳情',
  Clock: '時鐘',
  'Custom Fields': '自訂欄位',
  'Default Capacity (A)': '預設容量（A）',
  'End upon state A': '車輛斷開（狀態 A）時結束充電',
  LPRS: '車牌辨識系統（LPRS）',
  'LPRS Engine': '車牌辨識引擎',
  'Maximum Capacity (A)': '最大容量（A）',
  'Meter Value Sample Interval (s)': '電錶讀數取樣間隔（秒）',
  'Network Timeout (ms)': '網絡逾時（毫秒）',
  Phase: '相位',
  'Powermeter ID': '電錶編號',
  'Powermeter Type': '電錶類型',
  'Remote OCPP Password': '遠端 OCPP 密碼',
  'Remote OCPP Server Path': '遠端 OCPP 伺服器路徑',
  'Remote OCPP Username': '遠端 OCPP 用戶名稱',
  'Server Path': '伺服器路徑',
  'Time Select Fully Charge': '選擇時間：充滿為止',
  'Time Select Interval Min': '選擇時間間隔（分鐘）',
  'Time Select Stop Button': '選擇時間停止按鈕',
  'Time Slot Maximum (Min)': '時段上限（分鐘）',
  'Time Zone': '時區',
  Type: '類型',
  'UART Port': 'UART 埠',
  Window: '視窗',
};

const OPTIONS_ZH: Record<string, string> = {
  Cable: '固定電纜',
  Full: '全螢幕',
  Hidden: '隱藏',
  Internal: '內置',
  Key: '鑰匙',
  Kiosk: '自助服務機',
  Monthly: '月租',
  No: '否',
  'Plug & Charge': '即插即充',
  Show: '顯示',
  Shrink: '縮小',
  Single: '單相',
  Socket: '插座',
  Subscription: '訂閱',
  Three: '三相',
  TimeSelect: '選擇時間',
  Yes: '是',
};

/** English shows them as the spec spells them: the same keys in both catalogues. */
const asSpelled = (zh: Record<string, string>) => Object.fromEntries(Object.keys(zh).map((k) => [k, k]));

export const CP_CONFIG_UI: Record<Lang, Catalog> = {
  en: { configSetting: asSpelled(NAMES_ZH), configOption: asSpelled(OPTIONS_ZH) },
  'zh-TW': { configSetting: NAMES_ZH, configOption: OPTIONS_ZH },
};
