import { checkAccount, checkCards, viaAccount } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/**
 * The vehicle's sessions: the account's (cp_sessions.account_id, set at StartTransaction) started
 * with one of the vehicle's cards or at its charger; a vehicle with neither has only its account
 * to go by and counts all the account's sessions.
 */
const TIED = `s.account_id = t.acc_id AND ((t.rfid_cards = '' AND t.cp IS NULL)
  OR upper(s.id_tag) = ANY (regexp_split_to_array(upper(t.rfid_cards), '[\\s,;]+')) OR s.cp_id = t.cp)`;

/** Start of the current month or day in the display time zone (APP_TIMEZONE). */
const since = (unit: 'month' | 'day') => `(date_trunc('${unit}', now() AT TIME ZONE {display_tz}) AT TIME ZONE {display_tz})`;

/** A session counts whole in the period it started in; a running one with its time and energy so far. */
function figure(unit: 'month' | 'day', what: 'time' | 'energy'): string {
  const value = what === 'time'
    ? `coalesce(s.total_charge_time, greatest(extract(epoch FROM now() - s.session_start_time), 0)::int)`
    : `coalesce(s.total_pw_consume, s.running_pw_consume)`;
  return `(SELECT coalesce(sum(${value}), 0)::int FROM cp_sessions s WHERE s.session_start_time >= ${since(unit)} AND ${TIED})`;
}

export const hooks: ResourceHooks = {
  virtualColumns: {
    cp_no: `(SELECT c.cp_no FROM cps c WHERE c.cp_id = t.cp)`,
    monthly_charging_time: figure('month', 'time'),
    monthly_charged_energy: figure('month', 'energy'),
    daily_charging_time: figure('day', 'time'),
    daily_charged_energy: figure('day', 'energy'),
  },

  visibleTo: viaAccount,

  async beforeWrite({ sql, user, mode, old }, data) {
    await checkAccount(sql, user, data.acc_id);
    const cols = { ...data };
    await checkCards(sql, cols, { table: 'account_vehicles', id: old?.id });
    return cols;
  },
};
