import { writeAudit } from '../audit.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Charging rates: a deleted rate lets its chargers go, recorded in the audit log (a charger without
 * a rate is refused as 10019 rather than priced at a deleted rate).
 */
export const hooks: ResourceHooks = {
  async beforeDelete(sql, row, user) {
    const released = await sql.query<{ cp_id: number }>(`DELETE FROM charging_rate_cp WHERE "chargingRateId" = $1 RETURNING cp_id`, [row.id]);
    if (released.length) {
      await writeAudit(sql, user, {
        action: 'UPDATE', target: 'charging_rate', targetId: row.id, remark: 'charger assignment',
        oldData: { cpIds: released.map((r) => r.cp_id) }, newData: { cpIds: [] },
      });
    }
  },
};
