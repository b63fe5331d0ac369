import type { Catalog, Lang } from './types.ts';

/** Texts of the pricing screens (namespace ui.priceScheme.*, merged into UI). */
export const PRICING_UI: Record<Lang, Catalog> = {
  en: {
    priceScheme: {
      sessions: 'Sessions',
      session: 'Session (units)',
      cash: 'Cash ($)',
      point: 'Points',
      fixedHint: 'Fixed scheme: session n costs n × the fee and n × the points of session 1. Only the points of session 1 are entered here; change the fee on the scheme itself.',
      customHint: 'Custom scheme: enter what each number of units costs in all.',
      save: 'Save sessions',
      confirmSave: 'Save the sessions of this price scheme? Remote starts priced from now on use them.',
    },
  },
  'zh-TW': {
    priceScheme: {
      sessions: '節數',
      session: '節數（單位）',
      cash: '現金（$）',
      point: '積分',
      fixedHint: '固定方案：第 n 節的收費為收費的 n 倍，積分為第 1 節的 n 倍。此處只可輸入第 1 節的積分；收費請在方案本身修改。',
      customHint: '自訂方案：輸入每個單位數目的總收費。',
      save: '儲存節數',
      confirmSave: '儲存此價格方案的節數？此後的遙距充電會以此計價。',
    },
  },
};
