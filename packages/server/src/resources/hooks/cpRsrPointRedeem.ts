import { isRedeem, nextRedeem } from '../../rsr/redeem.ts';
import { RSR_PLACE } from './cp_rsr.ts';
import type { ResourceHooks } from './types.ts';

/** The RSRs that earned points (a failed or cancelled one earned none), with when their member may redeem again as of each one's creation. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    ...RSR_PLACE,
    next_available_redeem_date_from_create_date: `coalesce(${nextRedeem('t.cre_dttm')}, t.cre_dttm)`,
  },
  visibleTo: () => isRedeem('t'),
};
