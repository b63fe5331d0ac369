import type { Catalog, Lang } from './types.ts';

/** Texts of the charging rate view: its price details (time slots) and its chargers (namespace ui.rates.*, merged into UI). */
export const RATES_UI: Record<Lang, Catalog> = {
  en: {
    rates: {
      slotsTab: 'Price details',
      chargersTab: 'Chargers',
      addSlot: 'Add time slot',
      newSlot: 'New time slot',
      editSlot: 'Edit time slot {{id}}',
      time: 'Time',
      everyDay: 'Every day',
      sessions_one: '{{count}} session',
      sessions_other: '{{count}} sessions',
      noSlots: 'No time slots yet: remote starts at this rate cannot be priced until one covers their start.',
      slotHint: 'A remote start is priced by the slot holding its start time. Slots may not overlap on a shared day; the end is exclusive and 24:00 is the end of the day.',
      timeFormat: 'HH:mm, e.g. 08:00 or 24:00',
      weekdayHint: 'None chosen: every day',
      noSite: 'This rate has no site.',
      noChargers: 'The site of this rate has no chargers.',
      assignedCount: '{{count}} of {{total}} chargers of the site charge at this rate',
      otherRate: 'now at {{name}}',
      moveHint: 'A charger has one rate: ticking a charger of another rate moves it here when saved.',
    },
  },
  'zh-TW': {
    rates: {
      slotsTab: '價格詳情',
      chargersTab: '充電樁',
      addSlot: '新增時段',
      newSlot: '新時段',
      editSlot: '編輯時段 {{id}}',
      time: '時間',
      everyDay: '每天',
      sessions_one: '{{count}} 節',
      sessions_other: '{{count}} 節',
      noSlots: '尚未設定時段：在有時段涵蓋開始時間之前，此收費的遙距充電無法計價。',
      slotHint: '遙距充電按其開始時間所在的時段計價。同一天的時段不可重疊；結束時間不包括在內，24:00 為當日結束。',
      timeFormat: 'HH:mm，例如 08:00 或 24:00',
      weekdayHint: '不選：每天',
      noSite: '此收費沒有充電站。',
      noChargers: '此收費的充電站沒有充電樁。',
      assignedCount: '充電站 {{total}} 個充電樁中有 {{count}} 個使用此收費',
      otherRate: '目前為 {{name}}',
      moveHint: '每個充電樁只有一個收費：勾選其他收費的充電樁，儲存後會移至此收費。',
    },
  },
};
