import { badRequest } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

export const TESLA = 'Tesla';

/**
 * Parking bays (spec part 2 §4): a Tesla bay is not edited once created, has no connector and has
 * the site chosen for it; any other bay is in front of one charger connector (at most one live bay
 * each) and takes its site from that charger, whatever the form sent.
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    cpConnector: `(SELECT c.cp_no FROM cps c WHERE c.cp_id = t."cpId") || ' / ' || t."connectorId"`,
    lupdDttm: 't.lupd_dttm',
  },

  // A stored Tesla bay is refused before this by the engine (lockedWhen in the definition).
  async beforeWrite({ sql, old, mode }, data) {
    const cols = { ...data };
    const type = cols.type ?? old?.type ?? 'Normal';
    if (type === TESLA) {
      // The connector choice is off for Tesla bays: whatever the form still held is dropped.
      cols.cpId = null;
      cols.connectorId = null;
      if (mode === 'create' && (cols.locId === undefined || cols.locId === null)) throw badRequest('locId: required', { locId: 'required' });
      return cols;
    }
    const cpId = cols.cpId !== undefined ? cols.cpId : old?.cpId;
    const connectorId = cols.connectorId !== undefined ? cols.connectorId : old?.connectorId;
    const missing = Object.fromEntries(Object.entries({ cpId, connectorId }).filter(([, v]) => v === undefined || v === null).map(([k]) => [k, 'required']));
    if (Object.keys(missing).length) throw badRequest(Object.keys(missing).map((k) => `${k}: required`), missing);
    // Locks the charger: two writes naming the same connector at once cannot both pass the check below.
    const [cp] = await sql.query<{ loc_id: number }>(`SELECT loc_id FROM cps WHERE cp_id = $1 AND deleted_at IS NULL FOR UPDATE`, [cpId]);
    if (!cp) throw badRequest('cpId: invalid', { cpId: 'invalid' });
    const [taken] = await sql.query(
      `SELECT id FROM bay WHERE "cpId" = $1 AND "connectorId" = $2 AND deleted_at IS NULL AND id <> $3 LIMIT 1`,
      [cpId, connectorId, old?.id ?? 0],
    );
    if (taken) throw badRequest('connectorId: already_taken', { connectorId: 'already_taken' });
    cols.locId = cp.loc_id;
    return cols;
  },
};
