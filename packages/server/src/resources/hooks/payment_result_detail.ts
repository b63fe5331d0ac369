import { dollars } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/** The payment (payment_result) the attempt belongs to. */
const PAYMENT = `(SELECT pr.%s FROM payment_result pr WHERE pr.id = t."resultId")`;
const payment = (column: string) => PAYMENT.replace('%s', column);

/**
 * Payment attempts: the amount in dollars, the RSR and payment status from the payment, whether
 * the Retry applies (the same rule GET /api/payment_result_detail/retry/{id} checks), and seen by
 * users of the RSR charger's site.
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    amount: dollars('amount'),
    rsr_id: payment('rsr_id'),
    paymentStatus: payment('status'),
    creDttm: 't.cre_dttm',
    lupdDttm: 't.lupd_dttm',
    retryable: `(t.status = 'Error' AND t."actionType" = 'AutoPay' AND ${payment('status')} = 'Unsettled'
      AND NOT EXISTS (SELECT 1 FROM payment_result_detail l WHERE l."resultId" = t."resultId" AND l.id > t.id AND l."actionType" IN ('AutoPay', 'Retry')))`,
  },

  visibleTo(user) {
    if (user.allSites) return undefined;
    const sites = user.siteIds.filter(Number.isSafeInteger).join(',');
    return `t."resultId" IN (SELECT pr.id FROM payment_result pr JOIN cp_rsr r ON r.rsr_id = pr.rsr_id
      JOIN cps c ON c.cp_id = r.cp_id WHERE c.loc_id = ANY(ARRAY[${sites}]::int[]))`;
  },
};
