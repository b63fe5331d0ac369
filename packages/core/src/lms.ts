/**
 * Load-management profiles as the API answers them (spec part 1 §3, §7): the zone entries of a
 * profile (GET/PUT /api/zone_lms_profiles) and the LMS overview (GET /api/lms_info). Currents in A.
 */

/** A profile's mode, fixed once the profile is created. */
export const LMS_MODES = ['QUEUEING', 'DISTRIBUTION', 'MIXED'] as const;
export type LmsMode = (typeof LMS_MODES)[number];

/** In QUEUEING mode a charger gets its maximum or nothing: min is locked to max (spec part 1 §4). */
export const minLockedToMax = (mode: string | null | undefined): boolean => mode === 'QUEUEING';

/** One zone of the profile's site with its entry; the three currents are null while the zone has none. */
export interface ZoneLmsEntry {
  zone_id: number;
  /** The zone's name (cp_zones.name_chi, as the spec names it). */
  zone_name: string;
  /** Its English name (cp_zones.name), null where none was given. */
  zone_name_en: string | null;
  /** Upper bound of zone_max_available_current (spec part 1 §5). */
  max_physical_current_limit: number;
  zone_max_available_current: number | null;
  max_charging_current: number | null;
  min_charging_current: number | null;
}

/** GET /api/zone_lms_profiles?lms_profile_id=: one row per zone of the profile's site, by zone name. */
export interface ZoneLmsProfilesAnswer {
  lms_profile_id: number;
  mode: LmsMode;
  cp_loc: number;
  dataset: { content: ZoneLmsEntry[]; totalElements: number; totalPages: number };
}

/** One entry of PUT /api/zone_lms_profiles; in QUEUEING mode min_charging_current may be left out (it is set to max). */
export interface ZoneLmsEntryInput {
  zone_id: number;
  zone_max_available_current: number;
  max_charging_current: number;
  min_charging_current?: number | null;
}

/**
 * PUT /api/zone_lms_profiles: the profile's whole set of zone entries. Zones not listed lose their
 * entry; field errors name the row (`zones.{i}.{field}`).
 */
export interface ZoneLmsProfilesBody {
  lms_profile_id: number;
  zones: ZoneLmsEntryInput[];
}

export interface LmsInfoSite {
  loc_id: number;
  address: string;
  address_chi: string | null;
  lms_profile_id: number | null;
}

/** A zone of an LMS site with its limit and the entry of the site's profile (nulls without one). */
export interface LmsInfoZone {
  zone_id: number;
  loc_id: number;
  /** English name, null where none was given (shown then as name_chi). */
  name: string | null;
  name_chi: string;
  max_physical_current_limit: number;
  zone_max_available_current: number | null;
  max_charging_current: number | null;
  min_charging_current: number | null;
}

export interface LmsInfoCharger {
  cp_id: number;
  cp_no: string;
  name: string;
  loc_id: number;
  zone_id: number | null;
  enable_flag: number;
}

export interface LmsInfoProfile {
  lms_profile_id: number;
  name: string;
  mode: LmsMode;
}

/**
 * GET /api/lms_info: the sites of the user with load management enabled, keys being loc_id /
 * zone_id as strings (JSON object keys).
 */
export interface LmsInfo {
  /** loc_id → the mode of its profile; UNKNOWN when the site has no live profile (the dashboard's "unknown"). */
  mode: Record<string, LmsMode | 'UNKNOWN'>;
  cp_locs: LmsInfoSite[];
  cp_zones: LmsInfoZone[];
  /** Live chargers of those sites, in a zone or not. */
  cps: LmsInfoCharger[];
  relation: {
    /** loc_id → its zone ids and charger ids. */
    loc: Record<string, { zones: number[]; cps: number[] }>;
  };
  profile: {
    /** loc_id → its profile (absent when it has none). */
    location: Record<string, LmsInfoProfile>;
  };
}

export interface LmsInfoAnswer {
  lms_info: LmsInfo;
}
