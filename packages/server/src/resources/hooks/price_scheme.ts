import { keepSchemeSessions } from '../../pricing/scheme-sessions.ts';
import { dollars, toCents } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/** Price schemes: the fee in cents, a new version on every edit, the sessions kept in step (pricing/scheme-sessions.ts). */
export const hooks: ResourceHooks = {
  virtualColumns: { fee: dollars('fee') },

  async beforeWrite({ old }, data) {
    const cols = { ...data };
    toCents(cols, 'fee');
    if (old) cols.version = Number(old.version) + 1;
    return cols;
  },

  async afterWrite({ sql }, id) {
    await keepSchemeSessions(sql, id);
  },
};
