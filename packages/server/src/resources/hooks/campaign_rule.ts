import type { AuthUser } from '../../auth/session.ts';
import type { Sql } from '../../db/client.ts';
import { badRequest } from '../../http/errors.ts';
import { normaliseRuleConfig } from '../../vouchers/rules.ts';
import { campaignFor, campaignVisibleSql } from './campaign.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Campaign rules: seen with their campaign, written only while the campaign is not a voucher
 * campaign (as locked as the campaign), the config normalised per type (vouchers/rules.ts).
 */

async function unlockedCampaign(sql: Sql, user: AuthUser, campaignId: unknown): Promise<void> {
  const c = await campaignFor(sql, user, campaignId);
  if (c.isVoucher === 1) throw badRequest('campaignId: not_editable', { campaignId: 'not_editable' });
}

export const hooks: ResourceHooks = {
  virtualColumns: {
    campaignName: `(SELECT c.name FROM campaign c WHERE c.id = t."campaignId")`,
    campaignIsVoucher: `(SELECT c."isVoucher" FROM campaign c WHERE c.id = t."campaignId")`,
  },

  visibleTo(user) {
    const cond = campaignVisibleSql(user, 'c');
    return cond && `t."campaignId" IN (SELECT c.id FROM campaign c WHERE ${cond})`;
  },

  async beforeWrite({ sql, user, old }, data) {
    const cols = { ...data };
    await unlockedCampaign(sql, user, cols.campaignId ?? old?.campaignId);
    const type = cols.campaignRuleTypeCode ?? old?.campaignRuleTypeCode;
    // A new type re-reads the stored config under it: a list of dates is no list of weekdays.
    if (cols.campaignRuleConfig !== undefined || cols.campaignRuleTypeCode !== undefined) {
      const result = normaliseRuleConfig(String(type), cols.campaignRuleConfig ?? old?.campaignRuleConfig);
      if (!result.ok) throw badRequest(`campaignRuleConfig: ${result.error}`, { campaignRuleConfig: result.error });
      cols.campaignRuleConfig = result.config;
    }
    return cols;
  },

  async beforeDelete(sql, row, user) {
    await unlockedCampaign(sql, user, row.campaignId);
  },
};
