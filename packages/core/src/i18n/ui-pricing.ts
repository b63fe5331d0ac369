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
      remove: 'Remove',
      confirmRemove: 'Remove session {{n}}?',
      confirmRemoveBody: 'The scheme then prices up to {{max}} units (its Max Charging Units). The row is kept disabled and comes back if the maximum is raised again.',
      removeRefused: 'A time slot of a charging rate prices this many units with this scheme: lower the slot\'s Max Charging Units first.',
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
      remove: '移除',
      confirmRemove: '移除第 {{n}} 節？',
      confirmRemoveBody: '此方案其後最多為 {{max}} 個單位計價（即其最多充電單位）。該行會停用保留，再次提高上限時會恢復。',
      removeRefused: '有充電收費的時段以此方案為這麼多單位計價：請先降低該時段的最多充電單位。',
    },
  },
};
