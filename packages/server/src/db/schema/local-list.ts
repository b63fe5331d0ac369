import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from './platform.ts';
import { cps } from './sites.ts';

/**
 * A charger's OCPP local authorization list (issue 29, local-list/): the version the portal expects
 * (last sent and Accepted) with the entries it then held, the version the charger last reported
 * (GetLocalListVersion), card changes not yet sent, and the last SendLocalList and its answer.
 */
export const cp_local_list = pgTable('cp_local_list', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id, { onDelete: 'cascade' }),
  /** The version of the last list sent and Accepted; 0 before any. */
  expected_version: integer('expected_version').notNull().default(0),
  /** idTag (upper case) → idTagInfo status, as the charger holds it after the last Accepted send. */
  entries: jsonb('entries').notNull().default({}),
  reported_version: integer('reported_version'),
  reported_at: tz('reported_at'),
  /** Set when a card change has not reached the charger yet (sent when it next connects). */
  pending_since: tz('pending_since'),
  /** Full or Differential. */
  last_update_type: text('last_update_type'),
  last_version: integer('last_version'),
  /** Accepted, Failed, NotSupported, VersionMismatch, or Offline / Timeout / Error when no answer came. */
  last_answer: text('last_answer'),
  sent_at: tz('sent_at'),
});
