import type { Catalog, Lang } from './types.ts';

/** Texts of the remote start request buttons (namespace ui.rsr.*, merged into UI). */
export const RSR_UI: Record<Lang, Catalog> = {
  en: {
    rsr: {
      cancel: 'Cancel request',
      confirmCancel: 'Cancel remote start request #{{id}}?',
      confirmCancelBody: 'The charger has not started charging yet. Vouchers used by the request are given back to the member.',
      markSettled: 'Mark settled',
      confirmSettle: 'Mark remote start request #{{id}} as settled?',
      confirmSettleBody: 'Record that {{amount}} was paid outside the payment gateway. This cannot be undone.',
      keepIt: 'Keep it',
    },
  },
  'zh-TW': {
    rsr: {
      cancel: '取消請求',
      confirmCancel: '取消遙距啟動請求 #{{id}}？',
      confirmCancelBody: '充電器尚未開始充電。此請求使用的電子優惠券會退回給會員。',
      markSettled: '標記為已結算',
      confirmSettle: '將遙距啟動請求 #{{id}} 標記為已結算？',
      confirmSettleBody: '記錄 {{amount}} 已在付款閘道以外支付。此操作無法還原。',
      keepIt: '保留',
    },
  },
};
