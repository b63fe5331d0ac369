import type { Catalog, Lang } from './types.ts';

/** Texts of the opening hour view's tabs (namespace ui.openingHours.*, merged into UI). */
export const OPENING_HOURS_UI: Record<Lang, Catalog> = {
  en: {
    openingHours: {
      chargersTab: 'Chargers',
      daysTab: 'Days',
      // The spec shows this label in Chinese: both are given.
      noLimit: 'No limit (不限)',
      weekdays: 'Weekdays',
      dates: 'Dates',
      datesHelp: 'Pick dates up to 700 days ahead. With no date the hours apply on every date; with both, a day must match both.',
      overnight: 'Ends the next day at {{end}}',
      hours: 'Open {{start}} to {{end}}',
      weekday_1: 'Mon', weekday_2: 'Tue', weekday_3: 'Wed', weekday_4: 'Thu', weekday_5: 'Fri', weekday_6: 'Sat', weekday_7: 'Sun',
      assignedCount: '{{count}} of {{total}} chargers assigned',
      otherHours: 'has other opening hours',
      noChargers: 'No chargers you may see.',
      check: 'Check now',
      checkTitle: 'Chargers now ({{time}}, {{zone}})',
      open: 'Open',
      closed: 'Closed',
      nextChange: 'Next change',
      applied: 'Last applied',
      never: 'never',
    },
  },
  'zh-TW': {
    openingHours: {
      chargersTab: '充電樁',
      daysTab: '適用日子',
      noLimit: '不限',
      weekdays: '星期',
      dates: '日期',
      datesHelp: '可選擇由今天起 700 天內的日期。未選日期即每天適用；星期與日期皆有設定時，須兩者皆符合。',
      overnight: '翌日 {{end}} 結束',
      hours: '開放時間 {{start}} 至 {{end}}',
      weekday_1: '星期一', weekday_2: '星期二', weekday_3: '星期三', weekday_4: '星期四', weekday_5: '星期五', weekday_6: '星期六', weekday_7: '星期日',
      assignedCount: '已指派 {{count}} / {{total}} 個充電樁',
      otherHours: '已設定其他開放時間',
      noChargers: '沒有可檢視的充電樁。',
      check: '檢查現時狀態',
      checkTitle: '充電樁現時狀態（{{time}}，{{zone}}）',
      open: '開放',
      closed: '關閉',
      nextChange: '下次變更',
      applied: '最後套用',
      never: '未曾',
    },
  },
};
