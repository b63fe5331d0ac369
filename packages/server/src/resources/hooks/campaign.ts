import type { AuthUser } from '../../auth/session.ts';
import type { Sql } from '../../db/client.ts';
import { badRequest, notPermitted } from '../../http/errors.ts';
import { dollars, toCents } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Campaigns: the fee in cents, the creator from the signed-in user, the site list required unless
 * the campaign runs at every site. A user kept to some sites sees the all-site campaigns and those
 * touching one of their sites, and writes only campaigns of their own sites (an all-site one would
 * price every other site). A voucher campaign is locked by its definition (lockedWhen).
 */

/** Condition (over the campaign alias) for a campaign this user sees. */
export function campaignVisibleSql(user: AuthUser, alias: string): string | undefined {
  if (user.allSites) return undefined;
  const sites = user.siteIds.filter(Number.isSafeInteger).join(',');
  return `(${alias}."isAllCpLocFlag" = 1 OR ${alias}."locIds" && ARRAY[${sites}]::int[])`;
}

/** The live campaign a write names, as this user sees it; 400 on the field when it is missing or not theirs. */
export async function campaignFor(sql: Sql, user: AuthUser, id: unknown, field = 'campaignId') {
  const cond = campaignVisibleSql(user, 'c');
  const [row] = await sql.query<{ id: number; isVoucher: number; visible: boolean }>(
    `SELECT c.id, c."isVoucher", ${cond ?? 'true'} AS visible FROM campaign c WHERE c.id = $1 AND c.deleted_at IS NULL`,
    [id],
  );
  if (!row) throw badRequest(`${field}: invalid`, { [field]: 'invalid' });
  if (!row.visible) throw notPermitted(field);
  return row;
}

export const hooks: ResourceHooks = {
  virtualColumns: { fee: dollars('fee') },

  visibleTo: (user) => campaignVisibleSql(user, 't'),

  async beforeWrite({ user, mode, old }, data) {
    const cols = { ...data };
    toCents(cols, 'fee');
    if (mode === 'create') cols.creUserName = user.username;
    const allSites = Number(cols.isAllCpLocFlag ?? old?.isAllCpLocFlag ?? 0) === 1;
    if (allSites) {
      if (!user.allSites) throw notPermitted('isAllCpLocFlag');
      cols.locIds = [];
      return cols;
    }
    let sites = (cols.locIds === undefined ? old?.locIds : cols.locIds) ?? [];
    // A user kept to some sites keeps the sites they do not manage that the campaign already had.
    if (!user.allSites && old && cols.locIds !== undefined) {
      const mine = new Set(user.siteIds);
      sites = [...new Set([...(sites as number[]), ...(old.locIds as number[]).filter((s) => !mine.has(s))])];
    }
    if (!(sites as number[]).length) throw badRequest('locIds: required', { locIds: 'required' });
    if (cols.locIds !== undefined || mode === 'create') cols.locIds = [...(sites as number[])].sort((a, b) => a - b);
    return cols;
  },
};
