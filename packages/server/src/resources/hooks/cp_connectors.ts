import { lastKnownSql, shownStatusSql } from '../../ocpp/shown-status.ts';
import type { ResourceHooks } from './types.ts';

/** The connector's charger is connected (cps.online_flag): the status it reported is current only then. */
const online = '(SELECT p.online_flag FROM cps p WHERE p.cp_id = t.cp_id)';

/**
 * Connectors: the physical ones. OCPP reports the charge point as a whole as connector 0; its
 * status is the charger's (cps.charging_status), not a connector an operator can plug into.
 * Their status as an operator may trust it (core's shownStatus), and the session running on each:
 * the one a remote stop ends (ocpp/routes.ts remoteStop looks for the same).
 */
export const hooks: ResourceHooks = {
  visibleTo: () => 't.connector_id > 0',
  virtualColumns: {
    status: shownStatusSql(online, 't.status'),
    last_known_status: lastKnownSql(online, 't.status'),
    session_id: `(SELECT s.session_id FROM cp_sessions s
      WHERE s.cp_id = t.cp_id AND s.connector_id = t.connector_id AND s.session_end_time IS NULL
      ORDER BY s.session_id DESC LIMIT 1)`,
  },
};
