import { editPrivilege } from '@ev/core';
import { forbidden } from '../../http/errors.ts';
import { checkSlot } from '../../pricing/charging-rate-slots.ts';
import { dollars, toCents } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

const EDIT_RATE = editPrivilege('charging_rate');

/**
 * A rate's time slots: seen through the rate's site, money in cents, the slot rules of
 * pricing/charging-rate-slots.ts on every write. Creating one changes the rate's prices, so it
 * needs EDIT_CHARGING_RATE like editing and deleting (rowActionPrivileges).
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    penaltyFee: dollars('"penaltyFee"'),
    fee: dollars('fee'),
    loc_id: `(SELECT r.loc_id FROM charging_rate r WHERE r.id = t."chargingRateId")`,
  },

  visibleTo(user) {
    if (user.allSites) return undefined;
    const sites = user.siteIds.filter(Number.isSafeInteger).join(',');
    return `t."chargingRateId" IN (SELECT r.id FROM charging_rate r WHERE r.loc_id = ANY(ARRAY[${sites}]::int[]))`;
  },

  async beforeWrite({ sql, user, old }, data) {
    if (!user.privileges.has(EDIT_RATE)) throw forbidden(EDIT_RATE);
    const cols = { ...data };
    // No weekdays: every day (the column is never null).
    if (cols.weekday === null) cols.weekday = [];
    if (Array.isArray(cols.weekday)) cols.weekday = [...(cols.weekday as number[])].sort((a, b) => a - b);
    toCents(cols, 'penaltyFee');
    toCents(cols, 'fee');
    const slot = { ...old, ...cols } as Record<string, any>;
    await checkSlot(sql, {
      id: old?.id,
      chargingRateId: Number(slot.chargingRateId),
      startTime: slot.startTime,
      endTime: slot.endTime,
      weekday: slot.weekday ?? [],
      maxChargingUnit: slot.maxChargingUnit ?? null,
      priceSchemeId: slot.priceSchemeId ?? null,
    });
    return cols;
  },
};
