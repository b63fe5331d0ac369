import { HttpError } from '../../http/errors.ts';
import { liveChargers } from './live-chargers.ts';
import type { ResourceHooks } from './types.ts';

/** Sites: one that still has chargers cannot be deleted. */
export const hooks: ResourceHooks = {
  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [id]);
    return n > 0 ? 'site_has_chargers' : undefined;
  },
  async beforeDelete(sql, row) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [row.loc_id]);
    if (n > 0) throw new HttpError(409, { errors: ['site_has_chargers'], fields: {}, message: 'The site still has chargers' });
  },
};
