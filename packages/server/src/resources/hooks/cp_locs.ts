import { HttpError, badRequest } from '../../http/errors.ts';
import { liveChargers } from './live-chargers.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Sites: one that still has chargers cannot be deleted. Its LMS profile must be one of its own
 * (a profile's zone entries name this site's zones), and load management needs a profile.
 */
export const hooks: ResourceHooks = {
  async beforeWrite({ sql, old }, data) {
    if (!('lms_profile_id' in data) && !('enable_lms' in data)) return data;
    const profileId = 'lms_profile_id' in data ? data.lms_profile_id : old?.lms_profile_id;
    const enabled = Number('enable_lms' in data ? data.enable_lms : (old?.enable_lms ?? 0)) === 1;
    if (profileId !== null && profileId !== undefined) {
      // A new site has no profile yet: profiles are created for an existing site.
      const [profile] = old
        ? await sql.query(`SELECT 1 FROM lms_profiles WHERE lms_profile_id = $1 AND cp_loc = $2 AND deleted_at IS NULL`, [profileId, old.loc_id])
        : [];
      if (!profile) throw badRequest('lms_profile_id: the profile belongs to another site', { lms_profile_id: 'invalid' });
    } else if (enabled) {
      throw badRequest('lms_profile_id: load management needs a profile', { lms_profile_id: 'required' });
    }
    return data;
  },
  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [id]);
    return n > 0 ? 'site_has_chargers' : undefined;
  },
  async beforeDelete(sql, row) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [row.loc_id]);
    if (n > 0) throw new HttpError(409, { errors: ['site_has_chargers'], fields: {}, message: 'The site still has chargers' });
  },
};
