import { badRequest } from '../../http/errors.ts';
import { checkAccount, checkDate, dollars, isoDate, toCents, viaAccount } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/** An account's service plans: dates checked (end on or after start), total in cents, the account's sites. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    start_date: isoDate('start_date'),
    end_date: isoDate('end_date'),
    plan_total: dollars('plan_total'),
  },

  visibleTo: viaAccount,

  async beforeWrite({ sql, user, old }, data) {
    const cols = { ...data };
    await checkAccount(sql, user, cols.acc_id);
    checkDate(cols, 'start_date');
    checkDate(cols, 'end_date');
    toCents(cols, 'plan_total');
    // On an edit that sends one date, the other is the stored one.
    const [stored] = old
      ? await sql.query(`SELECT to_char(start_date, 'YYYY-MM-DD') AS s, to_char(end_date, 'YYYY-MM-DD') AS e FROM account_service_plans WHERE asp_id = $1`, [old.asp_id])
      : [{ s: null, e: null }];
    const start = (cols.start_date === undefined ? stored.s : cols.start_date) as string | null;
    const end = (cols.end_date === undefined ? stored.e : cols.end_date) as string | null;
    if (start && end && end < start) throw badRequest('end_date: end_before_start', { end_date: 'end_before_start' });
    return cols;
  },
};
