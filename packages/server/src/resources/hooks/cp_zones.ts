import { liveChargers } from './live-chargers.ts';
import type { ResourceHooks } from './types.ts';

/** Zones: deleting one releases its chargers (the foreign key sets their zone to none). */
export const hooks: ResourceHooks = {
  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`${liveChargers} zone_id = $1`, [id]);
    return n > 0 ? 'zone_has_chargers' : undefined;
  },
};
