import { badRequest, notPermitted } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/** The spec's field names and the array columns that hold them. */
const COLUMN_OF = { contactIds: 'contact_ids', locIds: 'loc_ids', errorIds: 'error_ids' } as const;

/**
 * Contact groups: contactIds, locIds and errorIds are the array columns under the spec's names; a
 * group names at least one of them. A user kept to some sites sees and writes only groups limited
 * to sites of theirs (no sites would mean every site, mailing about sites they do not manage).
 */
export const hooks: ResourceHooks = {
  virtualColumns: { contactIds: 't.contact_ids', locIds: 't.loc_ids', errorIds: 't.error_ids' },

  async beforeWrite({ user, old }, data) {
    const cols: Record<string, unknown> = {};
    const merged: Record<string, unknown[]> = {};
    for (const [name, value] of Object.entries(data)) {
      const column = COLUMN_OF[name as keyof typeof COLUMN_OF];
      if (!column) {
        cols[name] = value;
        continue;
      }
      // An emptied multiselect arrives as null.
      cols[column] = Array.isArray(value) ? value : [];
    }
    for (const [name, column] of Object.entries(COLUMN_OF)) merged[name] = (cols[column] ?? old?.[column] ?? []) as unknown[];
    if (!merged.contactIds.length && !merged.locIds.length && !merged.errorIds.length) {
      // Named once, on the first of the three: the message itself says which fields it concerns.
      throw badRequest('contactIds: contact_group_empty', { contactIds: 'contact_group_empty' });
    }
    if (!user.allSites && !merged.locIds.length) throw notPermitted('locIds');
    return cols;
  },

  visibleTo(user) {
    if (user.allSites) return undefined;
    const sites = user.siteIds.filter((id) => Number.isSafeInteger(id));
    return sites.length ? `cardinality(t.loc_ids) > 0 AND t.loc_ids <@ '{${sites.join(',')}}'::int[]` : 'false';
  },
};
