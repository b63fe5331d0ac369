import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tz } from './platform.ts';
import { cps } from './sites.ts';

/**
 * The charging profiles the server set on each charger (issue 29), by load management and by hand:
 * one row per profile id (a charger replaces a profile of the same id), removed when the charger
 * clears it or its transaction ends (TxProfile).
 */
export const cp_charging_profiles = pgTable('cp_charging_profiles', {
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  connector_id: integer('connector_id').notNull(),
  charging_profile_id: integer('charging_profile_id').notNull(),
  /** ChargePointMaxProfile, TxDefaultProfile or TxProfile. */
  purpose: text('purpose').notNull(),
  stack_level: integer('stack_level').notNull(),
  /** Absolute, Recurring or Relative; recurrency Daily or Weekly for Recurring. */
  kind: text('kind').notNull(),
  recurrency: text('recurrency'),
  valid_from: tz('valid_from'),
  valid_to: tz('valid_to'),
  transaction_id: integer('transaction_id'),
  /** The profile's chargingSchedule as sent. */
  schedule: jsonb('schedule').notNull(),
  /** 'lms' (load management's stack level) or 'manual'. */
  source: text('source').notNull(),
  set_at: tz('set_at').notNull().defaultNow(),
  /** The portal user who set it; null for load management. */
  set_by: text('set_by'),
}, (t) => [primaryKey({ columns: [t.cp_id, t.charging_profile_id] })]);
