import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels } from './build.ts';

export const cp_locs: ResourceLabels = labels(['Sites', '充電站'], {
  loc_id: ['Site ID', '充電站編號'],
  address: ['Address', '地址'],
  address_chi: ['Address (Traditional Chinese)', '地址（繁體中文）'],
  address_chs: ['Address (Simplified Chinese)', '地址（簡體中文）'],
  enable_flag: C.enable_flag,
  provider_id: ['Provider ID', '供應商編號'],
  mode_id: ['Mode ID', '模式編號'],
  district_id: ['District ID', '地區編號'],
  gps_lat: ['Latitude', '緯度'],
  gps_lang: ['Longitude', '經度'],
  rate_id: ['Charging Rate ID', '收費編號'],
  min_charging_unit: ['Min. Charging Units', '最少充電單位'],
  max_charging_unit: ['Max. Charging Units', '最多充電單位'],
  default_charging_unit: ['Default Charging Units (Prepaid)', '預設充電單位（預付）'],
  free_charge_flag: ['Free Charging', '免費充電'],
  postpaid_min_charge: ['Postpaid Min. Charge', '後付最低收費'],
  postpaid_max_charge: ['Postpaid Max. Charge', '後付最高收費'],
  postpaid_allowance_min: ['Postpaid Allowance (min)', '後付寬限時間（分鐘）'],
  lms_profile_id: ['LMS Profile', '負載管理設定檔'],
  enable_lms: ['LMS Enabled', '啟用負載管理'],
  external_loc_id: ['External Site ID', '外部充電站編號'],
  mall_id: ['Mall ID', '商場編號'],
  station_code: ['Station Code', '站點代碼'],
  contact_number: ['Contact Number', '聯絡電話'],
  remark: C.remark,
  lupd_dttm: C.lupd_dttm,
});

export const cp_zones: ResourceLabels = labels(['Zones', '區域'], {
  zone_id: ['Zone ID', '區域編號'],
  loc_id: C.loc_id,
  name_chi: ['Zone Name (Chinese)', '區域名稱（中文）'],
  max_physical_current_limit: ['Max. Physical Current Limit', '最大實體電流上限'],
  lupd_dttm: C.lupd_dttm,
});

export const cp_pow: ResourceLabels = labels(['Power Meter Models', '電錶型號'], {
  power_meter_type_id: ['Power Meter Model ID', '電錶型號編號'],
  name: ['Model Name', '型號名稱'],
  factor: ['Factor', '倍率'],
  rotation_value: ['Rotation Value', '循環值'],
});
