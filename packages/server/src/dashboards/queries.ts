import { CHARGING_STATUSES } from '@ev/core';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest, notPermitted } from '../http/errors.ts';
import type { QueuedConnectors } from '../lms/status.ts';
import { shownStatusSql } from '../ocpp/shown-status.ts';

/** A site the user may see. */
export interface SiteRow {
  loc_id: number;
  address: string;
  address_chi: string | null;
}

/** The three counts of spec part 1 §2, and the cars held in the load-management queue. */
export interface Counts {
  available: number;
  charging: number;
  unavailable: number;
  queueing: number;
}

/** Seconds and Wh of the sessions started today, yesterday and over the last 7 days (today included). */
export interface UsageTotals {
  today_s: number;
  today_wh: number;
  yesterday_s: number;
  yesterday_wh: number;
  week_s: number;
  week_wh: number;
}

/** 'YYYY-MM-DD HH:mm:ss' in the display time zone ($2 of every statement here), as the other API answers. */
const shown = (expr: string) => `to_char(${expr} AT TIME ZONE $2, 'YYYY-MM-DD HH24:MI:SS')`;

/** Midnight `days` days before today's, in the display time zone $2, as a timestamptz (right across DST changes). */
const midnight = (days: number) => `((date_trunc('day', now() AT TIME ZONE $2) - interval '${days} days') AT TIME ZONE $2)`;

/**
 * The sites the dashboard covers: every live site the user may see (the selector's list), and those
 * asked for (one with locId, else all of them). A site outside a restricted user's list is refused as
 * the resource engine refuses it (400 not_permitted, since a 403 signs the portal out); one that does
 * not exist or is deleted is 'invalid'. `param` names the query parameter in those answers.
 */
export async function dashboardSites(
  sql: Sql,
  user: AuthUser,
  site: { param: string; locId: number | undefined },
): Promise<{ all: SiteRow[]; asked: number[] }> {
  const { param, locId } = site;
  const all = await sql.query<SiteRow>(
    `SELECT loc_id, address, address_chi FROM cp_locs
      WHERE deleted_at IS NULL AND ($1::boolean OR loc_id = ANY($2::int[]))
      ORDER BY address`,
    [user.allSites, user.siteIds],
  );
  if (locId === undefined) return { all, asked: all.map((s) => s.loc_id) };
  if (all.some((s) => s.loc_id === locId)) return { all, asked: [locId] };
  const [exists] = await sql.query(`SELECT 1 FROM cp_locs WHERE loc_id = $1 AND deleted_at IS NULL`, [locId]);
  throw exists ? notPermitted(param) : badRequest(`${param}: no such site`, { [param]: 'invalid' });
}

/**
 * The connectors (not connector 0, the charger itself) of the enabled chargers of sites $1, each with the
 * status a dashboard shows (spec part 1 §4: Offline while the charger is not connected, N/A for a connector
 * that never reported), its running session and that session's newest reading (cp_meter_values_session_idx),
 * whatever the history holds. The running sessions are read once through the partial cp_sessions_running_idx
 * and joined: half the time of a probe per connector for 2,000 connectors. A charger that never reported a
 * connector has no row in cp_connectors and shows nothing yet.
 * Each connector also has its parking bay (at most one live bay per connector, hooks/bay.ts), the plate of the
 * running session's car (its RSR's, else the occupied bay's) and its LMS queue position from $4-$6
 * (queuedConnectors: load management's own picture, so the counts agree with the LMS dashboard).
 */
const LIVE = `live AS (
  SELECT c.cp_id, c.cp_no, c.name, c.name_chi, c.loc_id, c.online_flag, k.connector_id, k.connector_name,
         ${shownStatusSql('c.online_flag', 'k.status')} AS shown,
         ${shown('k.last_status_dttm')} AS last_status,
         s.session_id, s.id_tag, s.account_id, s.running_pw_consume AS running_wh,
         CASE WHEN s.session_id IS NOT NULL THEN greatest(extract(epoch FROM now() - s.session_start_time), 0)::int END AS duration,
         ${shown('s.session_start_time')} AS tran_start, ${shown('s.planned_end_dttm')} AS tran_end,
         coalesce(m.voltage, s.voltage) AS voltage, coalesce(m.ampere, s.ampere) AS ampere, m.soc,
         CASE WHEN s.session_id IS NOT NULL THEN coalesce(r.lp, CASE WHEN b.status = 'Occupied' THEN b."licensePlate" END) END AS car_reg_no,
         coalesce(b."bayName", b."bayId") AS bay, b.status AS bay_status, ${shown('b.lupd_dttm')} AS bay_lupd,
         CASE WHEN c.online_flag = 1 THEN q.pos END AS queueing_pos
    FROM cps c
    JOIN cp_connectors k ON k.cp_id = c.cp_id AND k.connector_id > 0
    LEFT JOIN (
          SELECT DISTINCT ON (x.cp_id, x.connector_id) x.cp_id, x.connector_id, x.session_id, x.id_tag, x.account_id,
                 x.running_pw_consume, x.session_start_time, x.planned_end_dttm, x.voltage, x.ampere
            FROM cp_sessions x
           WHERE x.session_end_time IS NULL
           ORDER BY x.cp_id, x.connector_id, x.session_start_time DESC) s ON s.cp_id = k.cp_id AND s.connector_id = k.connector_id
    LEFT JOIN LATERAL (
          SELECT v.voltage, v.ampere, v.soc FROM cp_meter_values v
           WHERE v.session_id = s.session_id ORDER BY v.ts DESC LIMIT 1) m ON true
    LEFT JOIN LATERAL (
          SELECT y."bayName", y."bayId", y.status, y."licensePlate", y.lupd_dttm FROM bay y
           WHERE y."cpId" = k.cp_id AND y."connectorId" = k.connector_id AND y.deleted_at IS NULL ORDER BY y.id DESC LIMIT 1) b ON true
    LEFT JOIN LATERAL (
          SELECT coalesce(nullif(x.lp, ''), nullif(x.lp_in, '')) AS lp FROM cp_rsr x
           WHERE x.session_id = s.session_id ORDER BY x.rsr_id DESC LIMIT 1) r ON true
    LEFT JOIN unnest($4::int[], $5::int[], $6::int[]) AS q(cp_id, connector_id, pos) ON q.cp_id = k.cp_id AND q.connector_id = k.connector_id
   WHERE c.deleted_at IS NULL AND c.enable_flag = 1 AND c.loc_id = ANY($1::int[]))`;

/**
 * The counts over live (spec part 1 §2, §4), as core's dashboardGroup: a connector held in the LMS queue is
 * queueing whatever its status, else charging is the §4 set of core's CHARGING_STATUSES ($3).
 */
const COUNTS = `count(*) FILTER (WHERE queueing_pos IS NULL AND shown = 'Available')::int AS available,
       count(*) FILTER (WHERE queueing_pos IS NULL AND shown = ANY($3::text[]))::int AS charging,
       count(*) FILTER (WHERE queueing_pos IS NULL AND shown <> 'Available' AND NOT shown = ANY($3::text[]))::int AS unavailable,
       count(*) FILTER (WHERE queueing_pos IS NOT NULL)::int AS queueing`;

/** The parameters of every statement over live. */
const liveParams = (siteIds: number[], timeZone: string, queued: QueuedConnectors) =>
  [siteIds, timeZone, CHARGING_STATUSES, queued.cpIds, queued.connectorIds, queued.positions];

// The answers' long lists are built as JSON text by PostgreSQL (json_agg of rows, the fastest way measured)
// and passed through untouched: parsing 2,000 rows into objects, mapping and serialising them again cost the
// Node thread 25 ms a call, the thread that also serves the chargers (profiled, bench/README.md).

/** GET /v2/quickInfo: the cpQuickInfoDTOS array (JSON text) and the counts. */
export async function quickInfoCards(sql: Sql, siteIds: number[], timeZone: string, queued: QueuedConnectors): Promise<{ cards: string } & Counts> {
  const [row] = await sql.query<{ cards: string } & Counts>(
    `WITH ${LIVE}
     SELECT (SELECT coalesce(json_agg(t ORDER BY t."cpNo", t."connectorId"), '[]') FROM (
               SELECT cp_id AS "cpId", cp_no AS "cpNo", name AS "cpName", name_chi AS "cpNameChi", loc_id AS "locId",
                      connector_id AS "connectorId", shown AS "connectorStatus", last_status AS "lastStatusUpdateDate",
                      round(running_wh / 1000.0, 3)::float8 AS kwh, duration, tran_start AS "tranStartDate", tran_end AS "tranStopDate",
                      voltage AS voltages, ampere AS currents, soc, id_tag AS "idTag",
                      car_reg_no AS "carRegNo", bay, bay_status AS "bayStatus", queueing_pos AS "queueingPos"
                 FROM live) t)::text AS cards,
            ${COUNTS}
       FROM live`,
    liveParams(siteIds, timeZone, queued),
  );
  return row;
}

/** GET /quick_info: cp_status, acc_charging_status, refs.cp_connectors and refs.cps (each JSON text) and the counts. */
export async function v1Connectors(
  sql: Sql,
  siteIds: number[],
  timeZone: string,
  queued: QueuedConnectors,
): Promise<{ cp_status: string; acc_charging_status: string; cp_connectors: string; cps: string } & Counts> {
  const [row] = await sql.query<{ cp_status: string; acc_charging_status: string; cp_connectors: string; cps: string } & Counts>(
    `WITH ${LIVE},
     per_cp AS (
       SELECT cp_id, cp_no, name, name_chi, loc_id, online_flag,
              json_agg(json_build_object('connector_id', connector_id, 'status', shown, 'connector_status_last_updated_dt', last_status,
                                         'bay', bay, 'bayStatus', bay_status, 'bayLupdDttm', bay_lupd, 'queueing_pos', queueing_pos)
                       ORDER BY connector_id) AS connector_status
         FROM live GROUP BY cp_id, cp_no, name, name_chi, loc_id, online_flag)
     SELECT (SELECT coalesce(json_agg(t ORDER BY t.cp_no, t.cp_id), '[]')
               FROM (SELECT cp_id, cp_no, name, name_chi, loc_id, online_flag FROM per_cp) t)::text AS cps,
            (SELECT coalesce(json_agg(json_build_object('cp_id', cp_id, 'connector_status', connector_status) ORDER BY cp_no, cp_id), '[]')
               FROM per_cp)::text AS cp_status,
            coalesce(json_agg(json_build_object('cp_id', cp_id, 'connector_id', connector_id, 'connector_name', connector_name)
                              ORDER BY cp_no, connector_id), '[]')::text AS cp_connectors,
            coalesce(json_agg(json_build_object(
              'cp_id', cp_id, 'connector_id', connector_id, 'session_id', session_id, 'energy_consumed', running_wh,
              'charging_time', duration, 'voltage', voltage, 'current', ampere, 'soc', soc, 'id_tag', id_tag, 'account_id', account_id,
              'car_reg_no', car_reg_no, 'tran_start', tran_start, 'tran_end', tran_end) ORDER BY cp_no, connector_id)
              FILTER (WHERE session_id IS NOT NULL), '[]')::text AS acc_charging_status,
            ${COUNTS}
       FROM live`,
    liveParams(siteIds, timeZone, queued),
  );
  return row;
}

/**
 * Usage from the sessions started since midnight six days ago (display time zone): a range of
 * cp_sessions_start_idx, never the whole history. A session counts whole on the day it started; a running
 * one with its duration and energy so far. Kept to the session's own site (where the charger was then), so a
 * charger moved since keeps its history where it happened. perConnector: also each connector's today and
 * last 7 days, as the JSON text of V1's connector_usage.
 */
export async function usage(
  sql: Sql,
  siteIds: number[],
  timeZone: string,
  perConnector: boolean,
): Promise<{ totals: UsageTotals; perConnector: string | null }> {
  const connectors = `(SELECT coalesce(json_agg(t ORDER BY t.cp_id, t.connector_id), '[]') FROM (
      SELECT cp_id, connector_id, json_build_object('energy', today_wh, 'charging_time', today_s) AS today,
             json_build_object('energy', week_wh, 'charging_time', week_s) AS weekly FROM u) t)::text`;
  // The day bounds once (a one-row CTE), not per session: evaluated per row they cost more than the scan.
  const [row] = await sql.query<UsageTotals & { per_connector: string | null }>(
    `WITH b AS MATERIALIZED (SELECT ${midnight(0)} AS today, ${midnight(1)} AS yesterday, ${midnight(6)} AS week),
     u AS (
       SELECT ${perConnector ? 'u.cp_id, u.connector_id' : '0 AS cp_id, 0 AS connector_id'},
              coalesce(sum(u.dur) FILTER (WHERE u.st >= b.today), 0)::int8 AS today_s,
              coalesce(sum(u.wh) FILTER (WHERE u.st >= b.today), 0)::int8 AS today_wh,
              coalesce(sum(u.dur) FILTER (WHERE u.st >= b.yesterday AND u.st < b.today), 0)::int8 AS yesterday_s,
              coalesce(sum(u.wh) FILTER (WHERE u.st >= b.yesterday AND u.st < b.today), 0)::int8 AS yesterday_wh,
              coalesce(sum(u.dur), 0)::int8 AS week_s, coalesce(sum(u.wh), 0)::int8 AS week_wh
         FROM b
        CROSS JOIN LATERAL (
              SELECT cp_id, connector_id, session_start_time AS st,
                     coalesce(total_charge_time, greatest(extract(epoch FROM now() - session_start_time), 0)::int) AS dur,
                     coalesce(total_pw_consume, running_pw_consume) AS wh
                FROM cp_sessions
               WHERE session_start_time >= b.week AND loc_id = ANY($1::int[])) u
        GROUP BY ${perConnector ? 'u.cp_id, u.connector_id, ' : ''}b.today, b.yesterday)
     SELECT coalesce(sum(today_s), 0)::int8 AS today_s, coalesce(sum(today_wh), 0)::int8 AS today_wh,
            coalesce(sum(yesterday_s), 0)::int8 AS yesterday_s, coalesce(sum(yesterday_wh), 0)::int8 AS yesterday_wh,
            coalesce(sum(week_s), 0)::int8 AS week_s, coalesce(sum(week_wh), 0)::int8 AS week_wh,
            ${perConnector ? connectors : 'NULL::text'} AS per_connector
       FROM u`,
    [siteIds, timeZone],
  );
  const { per_connector, ...totals } = row;
  return { totals, perConnector: per_connector };
}
