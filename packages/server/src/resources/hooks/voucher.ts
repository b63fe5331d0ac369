import { localDateTime, storedText } from '@ev/core';
import { loadConfig } from '../../config.ts';
import { badRequest } from '../../http/errors.ts';
import { isIsoDate } from '../../vouchers/rules.ts';
import { isoDate } from './accounts.ts';
import { campaignFor, campaignVisibleSql } from './campaign.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Vouchers: created (here or imported, vouchers/import.ts) and deleted, never edited. Seen with
 * their campaign; the campaign must be a voucher campaign; the expiry a real date not in the past
 * (the server's time zone); the creator from the signed-in user. Redeemed ones are locked (lockedWhen).
 */

/** Today (yyyy-MM-dd) where the network runs: an expiry before it has already expired. */
export const today = (timeZone = loadConfig().timeZone) => localDateTime(new Date(), timeZone).date;

/** Why an expiry date is refused (msg.form.<key>), or undefined when it is fine. */
export function expiryProblem(value: string, todayDate: string): 'format_error' | 'expired' | undefined {
  if (!isIsoDate(value)) return 'format_error';
  return value < todayDate ? 'expired' : undefined;
}

/** The campaign's sites as one stored text (display 'message'): all sites, or the addresses in both languages. */
export const CAMPAIGN_SITES_SQL = (campaignId: string) =>
  `(SELECT CASE WHEN c."isAllCpLocFlag" = 1 THEN '${storedText('msg.log.allSites')}'
     ELSE (SELECT jsonb_build_object('en', string_agg(l.address, ', ' ORDER BY l.address),
                                    'zh-TW', string_agg(coalesce(nullif(l.address_chi, ''), l.address), ', ' ORDER BY l.address))::text
           FROM cp_locs l WHERE l.loc_id = ANY(c."locIds")) END
   FROM campaign c WHERE c.id = ${campaignId})`;

export const hooks: ResourceHooks = {
  virtualColumns: {
    voucherExpireDate: isoDate('"voucherExpireDate"'),
    address: CAMPAIGN_SITES_SQL('t."campaignId"'),
    creDttm: 't.cre_dttm',
    lupdDttm: 't.lupd_dttm',
    deleteDttm: 't.deleted_at',
  },

  visibleTo(user) {
    const cond = campaignVisibleSql(user, 'c');
    return cond && `t."campaignId" IN (SELECT c.id FROM campaign c WHERE ${cond})`;
  },

  async beforeWrite({ sql, user }, data) {
    const cols = { ...data };
    const campaign = await campaignFor(sql, user, cols.campaignId);
    if (campaign.isVoucher !== 1) throw badRequest('campaignId: campaign_not_chosen', { campaignId: 'campaign_not_chosen' });
    const problem = expiryProblem(String(cols.voucherExpireDate ?? ''), today());
    if (problem) throw badRequest(`voucherExpireDate: ${problem}`, { voucherExpireDate: problem });
    cols.creUserName = user.username;
    cols.status = 'Valid';
    return cols;
  },
};
