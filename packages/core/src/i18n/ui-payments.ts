import type { Catalog, Lang } from './types.ts';

/** Texts of the payment screens (namespace ui.payments.*, merged into UI). */
export const PAYMENTS_UI: Record<Lang, Catalog> = {
  en: {
    payments: {
      retry: 'Retry',
      confirmRetry: 'Retry the payment of RSR {{rsr}}?',
      confirmRetryBody: 'The amount of {{amount}} is charged again through the payment gateway.',
    },
  },
  'zh-TW': {
    payments: {
      retry: '重試',
      confirmRetry: '重試遙距充電請求 {{rsr}} 的付款？',
      confirmRetryBody: '將透過付款閘道再次收取 {{amount}}。',
    },
  },
};
