import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { creDttm, lupdDttm, tz } from './platform.ts';
import { cps } from './sites.ts';

/**
 * OCPP 1.6 reservations (issue 29, reservations/): one row per ReserveNow sent, the row id being its
 * reservationId. status: Pending until the charger answers, then its answer (Accepted, Faulted, Occupied,
 * Rejected, Unavailable), and for an Accepted one how it ended (Cancelled, Used, Expired).
 */
export const reservations = pgTable('reservations', {
  reservation_id: serial('reservation_id').primaryKey(),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  /** 0: any connector of the charger. */
  connector_id: integer('connector_id').notNull().default(0),
  id_tag: text('id_tag').notNull(),
  parent_id_tag: text('parent_id_tag'),
  expiry_dttm: tz('expiry_dttm').notNull(),
  status: text('status').notNull().default('Pending'),
  /** The charger's answer as it gave it, or why none came (offline, timeout). */
  answer: text('answer'),
  /** The portal user who made it (username, as the action log names them). */
  created_by: text('created_by'),
  /** The session that used it (StartTransaction with its reservationId). */
  session_id: integer('session_id'),
  ended_dttm: tz('ended_dttm'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [
  index('reservations_cp_id_idx').on(t.cp_id, t.reservation_id),
  index('reservations_open_expiry_idx').on(t.expiry_dttm).where(sql`${t.status} IN ('Pending', 'Accepted')`),
]);
