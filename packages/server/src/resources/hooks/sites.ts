import { hashPassword } from '../../crypto/passwords.ts';
import { HttpError } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

const liveChargers = `SELECT count(*)::int AS n FROM cps WHERE deleted_at IS NULL AND`;

/** Sites: one that still has chargers cannot be deleted. */
export const cpLocsHooks: ResourceHooks = {
  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [id]);
    return n > 0 ? 'site_has_chargers' : undefined;
  },
  async beforeDelete(sql, row) {
    const [{ n }] = await sql.query(`${liveChargers} loc_id = $1`, [row.loc_id]);
    if (n > 0) throw new HttpError(409, { errors: ['site_has_chargers'], fields: {}, message: 'The site still has chargers' });
  },
};

/** Zones: deleting one releases its chargers (the foreign key sets their zone to none). */
export const cpZonesHooks: ResourceHooks = {
  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`${liveChargers} zone_id = $1`, [id]);
    return n > 0 ? 'zone_has_chargers' : undefined;
  },
};

/** Chargers: the OCPP password is stored hashed; an empty one in an edit leaves it unchanged. */
export const cpsHooks: ResourceHooks = {
  virtualColumns: {
    cp_connectors: `(SELECT coalesce(json_agg(json_build_object('connector_id', c.connector_id, 'status', c.status,
      'error_code', c.error_code, 'last_status_dttm', c.last_status_dttm) ORDER BY c.connector_id), '[]'::json)
      FROM cp_connectors c WHERE c.cp_id = t.cp_id)`,
  },
  async beforeWrite(_ctx, data) {
    const { ocpp_password, ...cols } = data;
    if (typeof ocpp_password === 'string' && ocpp_password !== '') cols.ocpp_password_hash = await hashPassword(ocpp_password);
    return cols;
  },
};
