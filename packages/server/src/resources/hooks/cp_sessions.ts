import type { ResourceHooks } from './types.ts';
import { cpNoViaChargers } from './charger-number.ts';

/**
 * Sessions: cp_no is filtered through cps and the cp_id index (charger-number.ts). unconfirmed is
 * why a running session is unconfirmed (ocpp/unconfirmed.ts), empty once it has ended; its filter
 * reads the few such sessions through their partial index.
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    unconfirmed: `CASE WHEN t.session_end_time IS NULL AND t.unconfirmed_since IS NOT NULL THEN t.unconfirmed_reason END`,
  },
  filters: {
    cp_no: cpNoViaChargers,
    unconfirmed: (f, add) => {
      if (f.kind !== 'multiselect') throw new Error(`unconfirmed: a ${f.kind} filter is not a list of reasons`);
      return `t.session_end_time IS NULL AND t.unconfirmed_since IS NOT NULL AND t.unconfirmed_reason = ANY(${add(f.values.map(String))}::text[])`;
    },
  },
};
