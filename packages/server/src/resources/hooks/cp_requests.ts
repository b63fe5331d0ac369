import type { ResourceHooks } from './types.ts';
import { cpNoViaChargers } from './charger-number.ts';

/** The OCPP message log: cp_no is filtered through cps and the cp_id index (charger-number.ts). */
export const hooks: ResourceHooks = {
  filters: { cp_no: cpNoViaChargers },
};
