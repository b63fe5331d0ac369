import { hashPassword } from '../../crypto/passwords.ts';
import type { ResourceHooks } from './types.ts';

/** Chargers: the OCPP password is stored hashed; an empty one in an edit leaves it unchanged. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    // The physical connectors (not 0, the charge point as a whole), their times as the portal shows times.
    cp_connectors: `(SELECT coalesce(json_agg(json_build_object('connector_id', c.connector_id, 'status', c.status,
      'error_code', c.error_code,
      'last_status_dttm', to_char(c.last_status_dttm AT TIME ZONE {display_tz}, 'YYYY-MM-DD HH24:MI:SS')) ORDER BY c.connector_id), '[]'::json)
      FROM cp_connectors c WHERE c.cp_id = t.cp_id AND c.connector_id > 0)`,
  },
  async beforeWrite(_ctx, data) {
    const { ocpp_password, ...cols } = data;
    if (typeof ocpp_password === 'string' && ocpp_password !== '') cols.ocpp_password_hash = await hashPassword(ocpp_password);
    return cols;
  },
  async afterWrite({ sql, old }, id, data) {
    // A charger's rate is one of its site's: moved to another site, it charges at none until given one there.
    if (old && data.loc_id !== undefined && Number(data.loc_id) !== Number(old.loc_id)) {
      await sql.query(`DELETE FROM charging_rate_cp WHERE cp_id = $1`, [id]);
    }
  },
};
