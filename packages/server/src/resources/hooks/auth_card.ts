import { badRequest } from '../../http/errors.ts';
import { checkCards } from './accounts.ts';
import { markPending } from '../../local-list/list.ts';
import type { ResourceHooks } from './types.ts';

/** Authorised cards: a card's charger must be at its site, and its numbers held by no one else. */
export const hooks: ResourceHooks = {
  async beforeWrite({ sql, old }, data) {
    const cols = { ...data };
    const loc = cols.loc === undefined ? old?.loc : cols.loc;
    const cp = cols.cp === undefined ? old?.cp : cols.cp;
    if (loc != null && cp != null) {
      const [row] = await sql.query(`SELECT 1 FROM cps WHERE cp_id = $1 AND loc_id = $2`, [cp, loc]);
      if (!row) throw badRequest('cp: cp_not_in_site', { cp: 'cp_not_in_site' });
    }
    await checkCards(sql, cols, { table: 'auth_card', id: old?.id });
    return cols;
  },
  // Chargers holding a local list the card reaches (before and after) get the change (local-list/).
  async afterWrite({ sql, old }, _id, data) {
    await markPending(sql, [...(old ? [old] : []), { loc: 'loc' in data ? data.loc : old?.loc, cp: 'cp' in data ? data.cp : old?.cp }]);
  },
  async beforeDelete(sql, row) {
    await markPending(sql, [row]);
  },
};
