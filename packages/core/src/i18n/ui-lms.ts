import type { Catalog, Lang } from './types.ts';

/** Texts of the load-management profile screens (namespace ui.lmsProfile.*, merged into UI). */
export const LMS_UI: Record<Lang, Catalog> = {
  en: {
    lmsProfile: {
      zones: 'Zones',
      zone: 'Zone',
      physicalLimit: 'Physical limit (A)',
      zoneMaxAvailable: 'Zone max. available current (A)',
      maxCharging: 'Max. charging current (A)',
      minCharging: 'Min. charging current (A)',
      queueingHint: 'Queueing mode: each charger gets its maximum current or waits, so the minimum follows the maximum.',
      noZones: 'The site of this profile has no zones yet.',
      incomplete: 'Fill in all currents of a zone, or none to leave it without an entry.',
      saveZones: 'Save zone entries',
      confirmSave: 'Save the zone entries of this profile? Load management reallocates the current at once.',
    },
  },
  'zh-TW': {
    lmsProfile: {
      zones: '區域',
      zone: '區域',
      physicalLimit: '實體上限（A）',
      zoneMaxAvailable: '區域最大可用電流（A）',
      maxCharging: '最大充電電流（A）',
      minCharging: '最小充電電流（A）',
      queueingHint: '排隊模式：每個充電樁以最大電流充電或排隊等候，因此最小電流跟隨最大電流。',
      noZones: '此設定檔所屬充電站尚未設定區域。',
      incomplete: '請填寫區域的所有電流，或全部留空以不設定此區域。',
      saveZones: '儲存區域設定',
      confirmSave: '確定儲存此設定檔的區域設定嗎？負載管理會立即重新分配電流。',
    },
  },
};
