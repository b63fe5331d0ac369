import { badRequest } from '../../http/errors.ts';
import { cardStatus } from '../../ocpp/authorization.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Reservations (issue 29): written only by POST /api/reservations (server reservations/), which sends
 * ReserveNow after this row is stored. A new one starts Pending, named after its creator; the expiry must
 * lie ahead, the connector be one the charger reported (0: any), the card one accepted at the charger.
 */
export const hooks: ResourceHooks = {
  async beforeWrite({ sql, user, mode }, data) {
    if (mode !== 'create') throw badRequest('A reservation is not edited: cancel it and make another');
    const expiry = new Date(String(data.expiry_dttm));
    if (!(expiry.getTime() > Date.now())) throw badRequest('expiry_dttm: expired', { expiry_dttm: 'expired' });
    const [cp] = await sql.query<{ cp_id: number; loc_id: number }>(`SELECT cp_id, loc_id FROM cps WHERE cp_id = $1`, [data.cp_id]);
    const connectorId = Number(data.connector_id ?? 0);
    if (connectorId > 0) {
      const known = await sql.query<{ connector_id: number }>(`SELECT connector_id FROM cp_connectors WHERE cp_id = $1 AND connector_id > 0`, [cp.cp_id]);
      // A charger that reported no connector yet is not judged (as a remote start, ocpp/routes.ts).
      if (known.length && !known.some((c) => c.connector_id === connectorId)) throw badRequest('connector_id: invalid', { connector_id: 'invalid' });
    }
    const idTag = String(data.id_tag).trim();
    const card = await cardStatus(sql, { cpId: cp.cp_id, cpNo: '', locId: cp.loc_id, serial: null }, idTag);
    if (card.status !== 'Accepted') throw badRequest('id_tag: invalid', { id_tag: 'invalid' });
    const parent = typeof data.parent_id_tag === 'string' ? data.parent_id_tag.trim() || null : null;
    return { ...data, id_tag: idTag, parent_id_tag: parent, expiry_dttm: expiry.toISOString(), connector_id: connectorId, status: 'Pending', created_by: user.username };
  },
};
