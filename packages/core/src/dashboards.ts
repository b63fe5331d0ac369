/**
 * The live dashboards (spec part 1 §2 Quick info and V1 dashboard, §7 GET /v2/quickInfo and GET /quick_info):
 * their answers, shared by the server and the portal, and the one rule that turns a connector's status
 * into a dashboard count.
 *
 * Units: v2 answers kWh (its names say so) with seconds for durations; v1 answers Wh (energy_consumed,
 * energy) like the other charging lists, and the portal divides by 1000 (spec §9). Datetimes are
 * 'YYYY-MM-DD HH:mm:ss' in the server's time zone (APP_TIMEZONE).
 */
import { CHARGING_STATUSES } from './options.ts';

/** The counts of a dashboard: the three of spec part 1 §2, and the cars load management holds in its queue. */
export type DashboardGroup = 'available' | 'charging' | 'queueing' | 'unavailable';

/**
 * Which count a shown status falls in (the server counts with the same CHARGING_STATUSES). The status shown
 * (spec part 1 §4) is Offline while the charger is not connected, N/A for a connector that never reported,
 * else the connector's own. Charging, SuspendedEV and SuspendedEVSE are charging (the §4 rule
 * of the remote-action buttons, so a car paused by either side still counts as occupied by a session);
 * only Available is available; everything else (Offline, N/A, Faulted, Unavailable, Preparing, Finishing,
 * Reserved) is unavailable to a new driver. A connector whose car load management holds at 0 A in its queue
 * (`queued`: the LMS dashboard's queueing, as the server answers it) is queueing whatever its status.
 */
export function dashboardGroup(shownStatus: string, queued = false): DashboardGroup {
  if (queued) return 'queueing';
  if (shownStatus === 'Available') return 'available';
  return CHARGING_STATUSES.includes(shownStatus) ? 'charging' : 'unavailable';
}

// ---- GET /api/v2/quickInfo?locId= ----

export interface CpLocQuickInfoDTO {
  locId: number;
  address: string;
  /** The site's Chinese address, for the zh-TW portal (null when not entered). */
  addressChi: string | null;
}

export interface CpQuickInfoDTO {
  cpId: number;
  cpNo: string;
  /** The charger's name (its Chinese name in cpNameChi). */
  cpName: string;
  cpNameChi: string | null;
  locId: number;
  connectorId: number;
  /** As shown: an OCPP status, Offline or N/A. */
  connectorStatus: string;
  lastStatusUpdateDate: string | null;
  /** Energy of the running session so far, kWh; null with no running session. */
  kwh: number | null;
  /** Seconds the running session has lasted. */
  duration: number | null;
  tranStartDate: string | null;
  /** The planned end of the running session (a remote start with a duration), else null. */
  tranStopDate: string | null;
  /** Latest reading of the running session: V, A, SoC %. */
  voltages: number | null;
  currents: number | null;
  soc: number | null;
  idTag: string | null;
  /** The running session's car: its remote start request's plate, else the plate in the connector's occupied bay. */
  carRegNo: string | null;
  /** The connector's parking bay: its name (bayId when unnamed) and status (Vacant, Occupied); null without a bay. */
  bay: string | null;
  bayStatus: string | null;
  /** Its place in the load-management queue (1 = next) while its car is held at 0 A; null when not queued. */
  queueingPos: number | null;
}

export interface UsageSummary {
  /** Seconds. */
  duration: number;
  kwh: number;
}

export interface CpSummaryByDayRangeQuickInfoDTO {
  todaySummary: UsageSummary;
  yesterdaySummary: UsageSummary;
  last7daysSummary: UsageSummary;
}

export interface CpUsageDTO {
  noOfAvailableConnectors: number;
  noOfChargingConnectors: number;
  noOfUnAvailableConnectors: number;
  /** Cars held at 0 A in the load-management queue (not in the other three). */
  noOfQueueingConnectors: number;
}

export interface QuickInfoAnswer {
  /** Every site the user may see (the location selector), whatever locId asked. */
  cpLocQuickInfoDTOS: CpLocQuickInfoDTO[];
  cpQuickInfoDTOS: CpQuickInfoDTO[];
  /** null without READ_DASHBOARD_SUMMARY. */
  cpSummaryByDayRangeQuickInfoDTO: CpSummaryByDayRangeQuickInfoDTO | null;
  cpUsage: CpUsageDTO;
}

// ---- GET /api/quick_info?loc_id= ----

export interface V1Loc {
  loc_id: number;
  address: string;
  address_chi: string | null;
}
export interface V1Cp {
  cp_id: number;
  cp_no: string;
  name: string;
  name_chi: string | null;
  loc_id: number;
  online_flag: number;
}
export interface V1Connector {
  cp_id: number;
  connector_id: number;
  connector_name: string | null;
}

export interface V1ConnectorStatus {
  connector_id: number;
  /** As shown: an OCPP status, Offline or N/A. */
  status: string;
  connector_status_last_updated_dt: string | null;
  /** The connector's parking bay: name (bayId when unnamed), status (Vacant, Occupied), last change; null without a bay. */
  bay: string | null;
  bayStatus: string | null;
  bayLupdDttm: string | null;
  /** Its place in the load-management queue (1 = next) while its car is held at 0 A; null when not queued. */
  queueing_pos: number | null;
}

export interface V1CpStatus {
  cp_id: number;
  connector_status: V1ConnectorStatus[];
}

/** The running session of a connector. */
export interface V1ChargingStatus {
  cp_id: number;
  connector_id: number;
  session_id: number;
  /** Wh so far. */
  energy_consumed: number;
  /** Seconds so far. */
  charging_time: number;
  voltage: number | null;
  current: number | null;
  soc: number | null;
  id_tag: string;
  /** The fleet account charging, when it is one (the tile's user). */
  account_id: number | null;
  /** The car: its remote start request's plate, else the plate in the connector's occupied bay. */
  car_reg_no: string | null;
  tran_start: string;
  /** Planned end of a timed remote start, else null. */
  tran_end: string | null;
}

export interface V1Usage {
  /** Wh. */
  energy: number;
  /** Seconds. */
  charging_time: number;
}

/** One connector's usage, for the flip side of its tile. */
export interface V1ConnectorUsage {
  cp_id: number;
  connector_id: number;
  today: V1Usage;
  weekly: V1Usage;
}

export interface V1SiteUsage {
  available: number;
  charging: number;
  unavailable: number;
  /** Cars held at 0 A in the load-management queue (not in the other three). */
  queueing: number;
}

export interface V1Info {
  refs: { cp_locs: V1Loc[]; cp_connectors: V1Connector[]; cps: V1Cp[] };
  cp_status: V1CpStatus[];
  acc_charging_status: V1ChargingStatus[];
  site_usage: V1SiteUsage;
  /** Today and the last 7 days (today included); null without READ_DASHBOARD_SUMMARY. */
  summary: { today: V1Usage; weekly: V1Usage } | null;
  /** Per connector, for the tiles' flip side; null without READ_DASHBOARD_SUMMARY. */
  connector_usage: V1ConnectorUsage[] | null;
}

export interface V1QuickInfoAnswer {
  response: { info: V1Info };
}
