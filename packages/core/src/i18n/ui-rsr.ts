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
      stop: 'Stop charging',
      confirmStop: 'Stop the charging of remote start request #{{id}}?',
      confirmStopBody: 'Charger {{cp}}, connector {{n}}: the charger is asked to end the session now.',
      unlock: 'Unlock connector',
      confirmUnlock: 'Unlock the connector of remote start request #{{id}}?',
      confirmUnlockBody: 'Charger {{cp}}, connector {{n}}: the charger is asked to release the cable.',
      start: 'Remote start',
      startTitle: 'Remote start on a charger',
      charger: 'Charger',
      connector: 'Connector',
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
      stop: '停止充電',
      confirmStop: '停止遙距啟動請求 #{{id}} 的充電？',
      confirmStopBody: '充電樁 {{cp}}，充電槍 {{n}}：要求充電樁立即結束充電。',
      unlock: '解鎖充電槍',
      confirmUnlock: '解鎖遙距啟動請求 #{{id}} 的充電槍？',
      confirmUnlockBody: '充電樁 {{cp}}，充電槍 {{n}}：要求充電樁鬆開充電線。',
      start: '遙距啟動',
      startTitle: '遙距啟動充電樁',
      charger: '充電樁',
      connector: '充電槍',
    },
  },
};
