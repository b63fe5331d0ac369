import { NO_STATUS, OFFLINE } from '@ev/core';

/**
 * core's shownStatus in SQL, for the lists and dashboards that filter, sort and count by it: `onlineFlag`
 * is the charger's cps.online_flag, `reported` the status it last reported (a column expression).
 */
export const shownStatusSql = (onlineFlag: string, reported: string): string =>
  `CASE WHEN ${onlineFlag} IS DISTINCT FROM 1 THEN '${OFFLINE}' WHEN coalesce(${reported}, '') = '' THEN '${NO_STATUS}' ELSE ${reported} END`;

/** The reported status while the charger is not connected (its last known one), else null. */
export const lastKnownSql = (onlineFlag: string, reported: string): string =>
  `CASE WHEN ${onlineFlag} IS DISTINCT FROM 1 THEN ${reported} END`;
