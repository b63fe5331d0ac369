import { nextRedeem } from '../../rsr/redeem.ts';
import { RSR_PLACE } from './cp_rsr.ts';
import type { ResourceHooks } from './types.ts';

/** The RSRs that earned or used points, with when their member may redeem again as of each one's creation. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    ...RSR_PLACE,
    next_available_redeem_date_from_create_date: `coalesce(${nextRedeem('t.cre_dttm')}, t.cre_dttm)`,
  },
  visibleTo: () => 't.point > 0',
};
