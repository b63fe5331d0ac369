import type { Catalog, Lang } from './types.ts';

/** Texts of the payment screens (namespace ui.payments.*, merged into UI). */
export const PAYMENTS_UI: Record<Lang, Catalog> = {
  en: {
    payments: {
      retry: 'Retry',
      confirmRetry: 'Retry the payment of RSR {{rsr}}?',
      confirmRetryBody: 'The amount of {{amount}} is charged again through the payment gateway.',
      lastReason: 'The last attempt was refused by the payment gateway: {{reason}}.',
      notApproved: 'The payment was not approved',
      gatewayReason: 'Payment gateway: {{reason}}',
      nextSteps: 'The payment is still unsettled. Ask the member to fix their payment method or to pay another way; once it is paid, use Mark settled on remote start request {{rsr}}.',
    },
  },
  'zh-TW': {
    payments: {
      retry: '重試',
      confirmRetry: '重試遙距充電請求 {{rsr}} 的付款？',
      confirmRetryBody: '將透過付款閘道再次收取 {{amount}}。',
      lastReason: '上次嘗試被付款閘道拒絕：{{reason}}。',
      notApproved: '付款未獲批准',
      gatewayReason: '付款閘道：{{reason}}',
      nextSteps: '此付款仍未結算。請聯絡會員更正付款方式或以其他方式付款；付款後，請在遙距充電請求 {{rsr}} 使用「標記為已結算」。',
    },
  },
};
