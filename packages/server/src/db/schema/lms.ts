import { check, doublePrecision, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { creDttm, deletedAt, lupdDttm, tz } from './platform.ts';
import { cp_locs, cp_zones, cps } from './sites.ts';

/** A site's load-management profile. Mode and site are fixed once created (spec part 1 §2). */
export const lms_profiles = pgTable('lms_profiles', {
  lms_profile_id: serial('lms_profile_id').primaryKey(),
  name: text('name').notNull(),
  cp_loc: integer('cp_loc').notNull().references(() => cp_locs.loc_id),
  mode: text('mode').notNull(),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [
  index('lms_profiles_loc_idx').on(t.cp_loc),
  check('lms_profiles_mode_ck', sql`${t.mode} IN ('QUEUEING', 'DISTRIBUTION', 'MIXED')`),
]);

/** Per zone of a profile's site: what the zone may draw in all and each charger's bounds, in A. */
export const zone_lms_profiles = pgTable('zone_lms_profiles', {
  id: serial('id').primaryKey(),
  lms_profile_id: integer('lms_profile_id').notNull().references(() => lms_profiles.lms_profile_id, { onDelete: 'cascade' }),
  zone_id: integer('zone_id').notNull().references(() => cp_zones.zone_id, { onDelete: 'cascade' }),
  zone_max_available_current: integer('zone_max_available_current').notNull(),
  max_charging_current: integer('max_charging_current').notNull(),
  min_charging_current: integer('min_charging_current').notNull(),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [
  uniqueIndex('zone_lms_profiles_uq').on(t.lms_profile_id, t.zone_id),
  check('zone_lms_profiles_bounds_ck', sql`${t.min_charging_current} >= 0 AND ${t.min_charging_current} <= ${t.max_charging_current}`),
]);

/**
 * What load management last decided for each managed charger and what the charger answered:
 * the queue order and the limits chargers were told survive a restart.
 */
export const lms_allocations = pgTable('lms_allocations', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id, { onDelete: 'cascade' }),
  loc_id: integer('loc_id').notNull(),
  zone_id: integer('zone_id'),
  /** available | charging | queueing | disconnected */
  state: text('state').notNull(),
  /** The limit the allocator decided (A); 0 while queueing. */
  distributed_current: doublePrecision('distributed_current').notNull().default(0),
  queueing_pos: integer('queueing_pos'),
  /** When the charger began to want current: the queue order. */
  wants_since: tz('wants_since'),
  start_queueing_at: tz('start_queueing_at'),
  start_tran_at: tz('start_tran_at'),
  /** The limit the charger last accepted (A), null = never or unknown. */
  accepted_current: doublePrecision('accepted_current'),
  /** Accepted | Rejected | NoAnswer: the answer to the last SetChargingProfile. */
  profile_status: text('profile_status'),
  /** 1 while the charger is counted at its maximum because it did not accept its limit. */
  uncontrolled: smallint('uncontrolled').notNull().default(0),
  lupd_dttm: lupdDttm(),
}, (t) => [index('lms_allocations_loc_idx').on(t.loc_id)]);
