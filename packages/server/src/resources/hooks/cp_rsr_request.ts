import type { AuthUser } from '../../auth/session.ts';
import type { ResourceHooks } from './types.ts';

/** Rows about an RSR are seen by users of its charger's site; rows of no RSR by users of every site. */
export function rsrSiteScope(user: AuthUser): string | undefined {
  if (user.allSites) return undefined;
  const sites = user.siteIds.filter(Number.isSafeInteger).join(',');
  return `t.rsr_id IN (SELECT r.rsr_id FROM cp_rsr r JOIN cps c ON c.cp_id = r.cp_id WHERE c.loc_id = ANY(ARRAY[${sites}]::int[]))`;
}

export const hooks: ResourceHooks = { visibleTo: rsrSiteScope };
