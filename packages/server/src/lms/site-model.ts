import type { Sql } from '../db/client.ts';
import type { Allocation, LmsMode, ZoneLimits } from './types.ts';

/** Connector statuses in which a car is plugged in and wants (or is being held from) current. */
export const WANTING: ReadonlySet<string> = new Set(['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE']);

export interface RunningTransaction {
  tranId: number;
  connectorId: number;
  sessionId: number;
  startedAt: number;
  /** Energy register at the start (Wh): the session's energy is the register minus this. */
  meterStart: number;
  /** When a remote start chose a charging time: its planned end (ms). */
  plannedEnd: number | null;
}

/** What load management knows of one charger of a managed site. */
export interface ManagedCharger {
  cpId: number;
  cpNo: string;
  locId: number;
  /** Its zone when that zone has an entry in the site's profile; null = not load-managed. */
  zoneId: number | null;
  online: boolean;
  /** connector id (> 0) → latest status. */
  connectors: Map<number, string>;
  transactions: Map<number, RunningTransaction>;
  wantsSince: number | null;
  queueSince: number | null;
  measured: { current: number | null; voltage: number | null; energy: number | null };
  /** The TxDefaultProfile limit (A) the charger last accepted; null = unknown. */
  sentDefault: number | null;
  /** transactionId → the TxProfile limit (A) the charger accepted for it. */
  sentTx: Map<number, number>;
  /** It rejected or did not answer its limit: counted at its maximum until it accepts one. */
  uncontrolled: boolean;
  /** When an uncontrolled charger is next offered a limit (ms). */
  retryAt: number;
  profileStatus: string | null;
  allocation: Allocation | null;
}

export interface ManagedSite {
  locId: number;
  profileId: number;
  mode: LmsMode;
  zones: Map<number, ZoneLimits>;
  chargers: Map<number, ManagedCharger>;
}

export function wants(c: ManagedCharger): boolean {
  if (!c.online) return false;
  if (c.transactions.size) return true;
  for (const status of c.connectors.values()) if (WANTING.has(status)) return true;
  return false;
}

/**
 * The limit the charger applies now (A), as far as we know: Infinity when we do not know
 * (never told, rebooted, uncontrolled, offline). A change of limit below this is a decrease.
 */
export function effectiveLimit(c: ManagedCharger): number {
  if (c.uncontrolled || !c.online) return Infinity;
  if (!c.transactions.size) return c.sentDefault ?? Infinity;
  let sum = 0;
  for (const tx of c.transactions.values()) sum += c.sentTx.get(tx.tranId) ?? c.sentDefault ?? Infinity;
  return sum;
}

const ms = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);

/**
 * Reads every site with load management enabled (or only `only`), with its profile, zones and
 * chargers, from the database. `known` carries what the running process already knows of a
 * charger (limits accepted, queue order), which is newer than the database.
 */
export async function loadSites(
  sql: Sql,
  isOnline: (cpId: number) => boolean,
  known: (cpId: number) => ManagedCharger | undefined,
  only?: number[],
): Promise<Map<number, ManagedSite>> {
  const sites = await sql.query<{ loc_id: number; lms_profile_id: number; mode: LmsMode }>(
    `SELECT l.loc_id, p.lms_profile_id, p.mode
       FROM cp_locs l JOIN lms_profiles p ON p.lms_profile_id = l.lms_profile_id AND p.cp_loc = l.loc_id AND p.deleted_at IS NULL
      WHERE l.enable_lms = 1 AND l.deleted_at IS NULL AND ($1::int[] IS NULL OR l.loc_id = ANY($1::int[]))`,
    [only ?? null],
  );
  const out = new Map<number, ManagedSite>();
  if (!sites.length) return out;
  const locIds = sites.map((s) => s.loc_id);
  for (const s of sites) out.set(s.loc_id, { locId: s.loc_id, profileId: s.lms_profile_id, mode: s.mode, zones: new Map(), chargers: new Map() });

  const zones = await sql.query<{ zone_id: number; loc_id: number; max_available: number; min_c: number; max_c: number }>(
    `SELECT z.zone_id, z.loc_id, least(e.zone_max_available_current, z.max_physical_current_limit) AS max_available,
            e.min_charging_current AS min_c, e.max_charging_current AS max_c
       FROM zone_lms_profiles e JOIN cp_zones z ON z.zone_id = e.zone_id
      WHERE e.lms_profile_id = ANY($1::int[]) AND z.loc_id = ANY($2::int[])`,
    [sites.map((s) => s.lms_profile_id), locIds],
  );
  for (const z of zones) {
    const site = out.get(z.loc_id)!;
    // In QUEUEING every charger charges at the one fixed current (spec §4: min locked to max).
    const min = site.mode === 'QUEUEING' ? z.max_c : z.min_c;
    site.zones.set(z.zone_id, { zoneId: z.zone_id, maxAvailable: Number(z.max_available), minPerCharger: min, maxPerCharger: z.max_c });
  }

  const [cps, connectors, sessions, saved] = await Promise.all([
    sql.query<{ cp_id: number; cp_no: string; loc_id: number; zone_id: number | null }>(
      `SELECT cp_id, cp_no, loc_id, zone_id FROM cps WHERE loc_id = ANY($1::int[]) AND deleted_at IS NULL AND enable_flag = 1`,
      [locIds],
    ),
    sql.query<{ cp_id: number; connector_id: number; status: string | null }>(
      `SELECT c.cp_id, c.connector_id, c.status FROM cp_connectors c JOIN cps ON cps.cp_id = c.cp_id
        WHERE cps.loc_id = ANY($1::int[]) AND c.connector_id > 0`,
      [locIds],
    ),
    sql.query<{ cp_id: number; tran_id: number; session_id: number; connector_id: number; session_start_time: Date; start_meter: number; energy: number | null; voltage: number | null; ampere: number | null; planned_end_dttm: Date | null }>(
      `SELECT s.cp_id, s.tran_id, s.session_id, s.connector_id, s.session_start_time, s.start_meter, s.energy, s.voltage, s.ampere, s.planned_end_dttm
         FROM cp_sessions s
        WHERE s.loc_id = ANY($1::int[]) AND s.session_end_time IS NULL AND coalesce(s.id_tag_status, 'Accepted') = 'Accepted'`,
      [locIds],
    ),
    sql.query<{ cp_id: number; wants_since: Date | null; start_queueing_at: Date | null; accepted_current: number | null; uncontrolled: number; profile_status: string | null }>(
      `SELECT a.cp_id, a.wants_since, a.start_queueing_at, a.accepted_current, a.uncontrolled, a.profile_status
         FROM lms_allocations a WHERE a.loc_id = ANY($1::int[])`,
      [locIds],
    ),
  ]);
  const savedOf = new Map(saved.map((r) => [r.cp_id, r]));
  const chargerOf = new Map<number, ManagedCharger>();
  for (const cp of cps) {
    const site = out.get(cp.loc_id)!;
    const prior = known(cp.cp_id);
    const row = savedOf.get(cp.cp_id);
    const charger: ManagedCharger = {
      cpId: cp.cp_id,
      cpNo: cp.cp_no,
      locId: cp.loc_id,
      zoneId: cp.zone_id !== null && site.zones.has(cp.zone_id) ? cp.zone_id : null,
      online: isOnline(cp.cp_id),
      connectors: new Map(),
      transactions: new Map(),
      wantsSince: prior?.wantsSince ?? ms(row?.wants_since),
      queueSince: prior?.queueSince ?? ms(row?.start_queueing_at),
      measured: prior?.measured ?? { current: null, voltage: null, energy: null },
      // Limits a previous process sent are not trusted for transactions (their TxProfiles are
      // unknown here): only the idle default is kept, and everything else is sent again.
      sentDefault: prior ? prior.sentDefault : row?.accepted_current ?? null,
      sentTx: prior?.sentTx ?? new Map(),
      uncontrolled: prior?.uncontrolled ?? row?.uncontrolled === 1,
      retryAt: prior?.retryAt ?? 0,
      profileStatus: prior?.profileStatus ?? row?.profile_status ?? null,
      allocation: prior?.allocation ?? null,
    };
    site.chargers.set(cp.cp_id, charger);
    chargerOf.set(cp.cp_id, charger);
  }
  for (const c of connectors) {
    const charger = chargerOf.get(c.cp_id);
    if (charger && c.status) charger.connectors.set(c.connector_id, c.status);
  }
  for (const s of sessions) {
    const charger = chargerOf.get(s.cp_id);
    if (!charger) continue;
    charger.transactions.set(s.tran_id, {
      tranId: s.tran_id,
      connectorId: s.connector_id,
      sessionId: s.session_id,
      startedAt: ms(s.session_start_time)!,
      meterStart: Number(s.start_meter),
      plannedEnd: ms(s.planned_end_dttm),
    });
    if (charger.measured.current === null) {
      charger.measured = { current: s.ampere, voltage: s.voltage, energy: s.energy === null ? null : Number(s.energy) };
    }
  }
  for (const site of out.values()) {
    for (const c of site.chargers.values()) {
      if (wants(c)) c.wantsSince ??= Math.min(...[...c.transactions.values()].map((t) => t.startedAt), Date.now());
      else c.wantsSince = null;
    }
  }
  return out;
}
