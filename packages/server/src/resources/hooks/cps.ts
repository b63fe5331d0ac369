import { BOOT_PENDING, BOOT_REJECTED, ERROR_CODES, P } from '@ev/core';
import { passwordProblem } from '../../charger-credentials/rules.ts';
import { hashPassword } from '../../crypto/passwords.ts';
import { badRequest, notPermitted } from '../../http/errors.ts';
import { lastKnownSql, shownStatusSql } from '../../ocpp/shown-status.ts';
import type { ResourceHooks } from './types.ts';

/**
 * A connected charger whose boot was not accepted (ocpp/boot-policy.ts) shows that instead of what it reported:
 * a rejected station must not read as online and Available.
 */
const shownSql = (reported: string) => `CASE WHEN t.online_flag = 1 AND t.boot_status = 'Pending' THEN '${BOOT_PENDING}'
  WHEN t.online_flag = 1 AND t.boot_status = 'Rejected' THEN '${BOOT_REJECTED}' ELSE ${shownStatusSql('t.online_flag', reported)} END`;

/**
 * Chargers: their statuses as an operator may trust them (not connected: Offline); the OCPP password is
 * stored hashed, an empty one in an edit leaves it unchanged.
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    // Spec part 1 §4, core's shownStatus: a charger that is not connected is Offline, whatever it said last;
    // what it said last is answered beside it as its last known status, with last_status_dttm its time.
    charging_status: shownSql('t.charging_status'),
    connectora_status: shownSql('t.connectora_status'),
    connectorb_status: shownSql('t.connectorb_status'),
    last_known_status: lastKnownSql('t.online_flag', 't.charging_status'),
    // The table keeps when the last connection began; a charger not connected is online since no time.
    online_since: `CASE WHEN t.online_flag = 1 THEN t.online_since END`,
    offline_since: `CASE WHEN t.online_flag = 0 THEN t.offline_since END`,
    // Never connected reads as a value of its own, so the list can show and filter it.
    ocpp_protocol: `coalesce(t.ocpp_protocol, 'none')`,
    // The physical connectors (not 0, the charge point as a whole), their times as the portal shows times;
    // last_known_status only while the charger is not connected (nulls stripped: the view's table gets no empty column).
    cp_connectors: `(SELECT coalesce(json_agg(json_strip_nulls(json_build_object('connector_id', c.connector_id,
      'status', ${shownStatusSql('t.online_flag', 'c.status')}, 'last_known_status', ${lastKnownSql('t.online_flag', 'c.status')},
      'error_code', c.error_code,
      'last_status_dttm', to_char(c.last_status_dttm AT TIME ZONE {display_tz}, 'YYYY-MM-DD HH24:MI:SS'))) ORDER BY c.connector_id), '[]'::json)
      FROM cp_connectors c WHERE c.cp_id = t.cp_id AND c.connector_id > 0)`,
  },
  async beforeWrite(ctx, data) {
    const { ocpp_password, ...cols } = data;
    if (typeof ocpp_password === 'string' && ocpp_password !== '') {
      // The rule and privilege of the password action (charger-credentials/), which sends it to a connected
      // charger; typed here it is the password set on site: it replaces any rotation, the charger reconnects.
      if (!ctx.user.privileges.has(P.CHARGER_PASSWORD)) throw notPermitted('ocpp_password');
      // The minimum length is the action's alone for now: fixtures across e2e/ create chargers with shorter ones.
      const problem = passwordProblem(ocpp_password, 1);
      if (problem) throw badRequest(`ocpp_password: ${problem}`, { ocpp_password: problem });
      Object.assign(cols, { ocpp_password_hash: await hashPassword(ocpp_password), ocpp_password_previous_hash: null, ocpp_password_rotating: false, password_changed_at: new Date() });
    }
    return cols;
  },
  async afterWrite({ sql, old }, id, data) {
    // A charger's rate is one of its site's: moved to another site, it charges at none until given one there.
    if (old && data.loc_id !== undefined && Number(data.loc_id) !== Number(old.loc_id)) {
      await sql.query(`DELETE FROM charging_rate_cp WHERE cp_id = $1`, [id]);
    }
  },
  // Spec 9001: the delete dialog warns that the charger's charging sessions go with it.
  async checkDelete(sql, id) {
    const [session] = await sql.query(`SELECT 1 FROM cp_sessions WHERE cp_id = $1 LIMIT 1`, [id]);
    return session ? String(ERROR_CODES.DELETE_ALL_TRANSACTIONS) : undefined;
  },
};
