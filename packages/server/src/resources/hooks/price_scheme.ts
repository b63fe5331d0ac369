import { PRICE_SCHEME_SESSION_ERROR } from '@ev/core';
import type { Sql } from '../../db/client.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { keepSchemeSessions } from '../../pricing/scheme-sessions.ts';
import { dollars, toCents } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/** The most units a live time slot of a live rate prices with this scheme (0: no slot uses it). */
async function unitsUsed(sql: Sql, schemeId: number): Promise<{ slots: number; units: number }> {
  const [row] = await sql.query<{ slots: number; units: number }>(
    `SELECT count(*)::int AS slots, coalesce(max(d."maxChargingUnit"), 0)::int AS units
       FROM charging_rate_detail d JOIN charging_rate r ON r.id = d."chargingRateId" AND r.deleted_at IS NULL
      WHERE d."priceSchemeId" = $1 AND d.deleted_at IS NULL`,
    [schemeId],
  );
  return row;
}

/**
 * Price schemes: the fee in cents, a new version on every edit, the sessions kept in step
 * (pricing/scheme-sessions.ts). The rate slots pricing with a scheme keep it usable: its sessions
 * may not drop below their maxChargingUnit (the spec's priceSchemeAndMaxChargingUnitError, as when
 * the slot is saved), and it is not deleted while a slot names it.
 */
export const hooks: ResourceHooks = {
  virtualColumns: { fee: dollars('fee') },

  async beforeWrite({ sql, old }, data) {
    const cols = { ...data };
    toCents(cols, 'fee');
    if (old) {
      cols.version = Number(old.version) + 1;
      const max = Number(cols.maxChargingUnit ?? old.maxChargingUnit);
      const used = await unitsUsed(sql, old.id);
      if (max < used.units) {
        throw badRequest(`maxChargingUnit: a time slot prices ${used.units} units with this scheme`, { maxChargingUnit: PRICE_SCHEME_SESSION_ERROR });
      }
    }
    return cols;
  },

  async afterWrite({ sql }, id) {
    await keepSchemeSessions(sql, id);
  },

  async checkDelete(sql, id) {
    return (await unitsUsed(sql, id)).slots > 0 ? 'price_scheme_in_use' : undefined;
  },

  async beforeDelete(sql, row) {
    if ((await unitsUsed(sql, row.id)).slots > 0) {
      throw new HttpError(409, { errors: ['price_scheme_in_use'], fields: {}, message: 'Time slots of a charging rate price with this scheme: give them another scheme first' });
    }
  },
};
