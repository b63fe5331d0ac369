/**
 * The point-redemption rule (spec part 2 §3, cpRsrPointRedeem): a member redeems at most the rate's
 * max_redeem_count times per redeem_period minutes. A redeem is an RSR that earned points and did
 * not fail or get cancelled. SQL over a row `t` with external_account_id and charging_rate_id, so
 * that the lists' columns and the check at an RSR's creation read the one rule.
 */
export const isRedeem = (row: string) => `${row}.point > 0 AND ${row}.status NOT IN ('Failed', 'Cancelled')`;
const REDEEMS = `x.external_account_id = t.external_account_id AND ${isRedeem('x')}`;

/** When the member may redeem again as of `at` (an SQL instant): the max-th latest redeem within the period + the period; null: at once. */
export const nextRedeem = (at: string) => `(SELECT y.c + make_interval(mins => y.p) FROM (
    SELECT x.cre_dttm AS c, cr.redeem_period AS p, cr.max_redeem_count AS m, row_number() OVER (ORDER BY x.cre_dttm DESC) AS n
      FROM cp_rsr x JOIN charging_rate cr ON cr.id = t.charging_rate_id AND cr.max_redeem_count > 0 AND cr.redeem_period > 0
     WHERE ${REDEEMS} AND x.cre_dttm <= ${at} AND x.cre_dttm > ${at} - make_interval(mins => cr.redeem_period)) y
   WHERE y.n = y.m)`;

/** The member's redeems in the 30 days before now (a debug column). */
export const redeemsIn30Days = `(SELECT count(*)::int FROM cp_rsr x WHERE ${REDEEMS} AND x.cre_dttm > now() - interval '30 days')`;
