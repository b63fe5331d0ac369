import type { ResourceHooks } from './types.ts';

/**
 * Connectors: the physical ones. OCPP reports the charge point as a whole as connector 0; its
 * status is the charger's (cps.charging_status), not a connector an operator can plug into.
 */
export const hooks: ResourceHooks = {
  visibleTo: () => 't.connector_id > 0',
};
