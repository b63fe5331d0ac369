import type { Sql } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/** Live sites running load management on this profile: removing it would leave them without limits. */
async function sitesRunningOn(sql: Sql, profileId: number): Promise<number> {
  const [{ n }] = await sql.query(
    `SELECT count(*)::int AS n FROM cp_locs WHERE lms_profile_id = $1 AND enable_lms = 1 AND deleted_at IS NULL`,
    [profileId],
  );
  return n;
}

/**
 * LMS profiles. Mode and site are fixed after creation by the definition (lockedAfterCreate: the
 * engine answers not_editable). A profile a site runs load management on cannot be deleted (the
 * site's chargers would lose their limits); sites that only name it, with LMS off, lose the link.
 */
export const hooks: ResourceHooks = {
  async checkDelete(sql, id) {
    return (await sitesRunningOn(sql, id)) > 0 ? 'lms_profile_in_use' : undefined;
  },

  async beforeDelete(sql, row) {
    if ((await sitesRunningOn(sql, row.lms_profile_id)) > 0) {
      throw new HttpError(409, {
        errors: ['lms_profile_in_use'],
        fields: {},
        message: 'A site runs load management on this profile: give it another profile or turn LMS off first',
      });
    }
    await sql.query(`UPDATE cp_locs SET lms_profile_id = NULL, lupd_dttm = now() WHERE lms_profile_id = $1`, [row.lms_profile_id]);
  },
};
