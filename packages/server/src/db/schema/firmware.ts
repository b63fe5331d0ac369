import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { creDttm, deletedAt, lupdDttm, tz } from './platform.ts';
import { cps } from './sites.ts';

/** A firmware image chargers download (resource `firmware`); vendor / model name the chargers it fits, as cps does. */
export const firmware = pgTable('firmware', {
  firmware_id: serial('firmware_id').primaryKey(),
  version: text('version').notNull(),
  charge_point_vendor: text('charge_point_vendor'),
  charge_point_model: text('charge_point_model'),
  /** Where the chargers download it from (http, https or ftp). */
  url: text('url').notNull(),
  checksum: text('checksum'),
  notes: text('notes'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
});

/** An update job (resource `firmware_jobs`): UpdateFirmware sent in waves to its chargers (packages/server/src/firmware/). */
export const firmware_jobs = pgTable('firmware_jobs', {
  firmware_job_id: serial('firmware_job_id').primaryKey(),
  firmware_id: integer('firmware_id').notNull().references(() => firmware.firmware_id),
  /** site | zone | chargers: what target_ids are. */
  target_kind: text('target_kind').notNull(),
  target_ids: integer('target_ids').array().notNull(),
  retrieve_date: tz('retrieve_date').notNull(),
  retries: integer('retries'),
  retry_interval: integer('retry_interval'),
  /** Failed chargers (% of the job's chargers) at which the job stops sending. */
  max_failure_pct: integer('max_failure_pct').notNull().default(100),
  /** Chargers updating at the same time. */
  wave_size: integer('wave_size').notNull().default(5),
  /** Running | Finished | Stopped */
  status: text('status').notNull().default('Running'),
  /** user | failures, when Stopped. */
  stop_reason: text('stop_reason'),
  total: integer('total').notNull().default(0),
  created_by: integer('created_by'),
  created_by_name: text('created_by_name'),
  finished_at: tz('finished_at'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, () => [index('firmware_jobs_running_idx').on(sql`status`).where(sql`"firmware_jobs"."status" = 'Running'`)]);

/** One target charger of a job: its state (core FIRMWARE_JOB_STATES) and when each state came ([{state, at}]). */
export const firmware_job_chargers = pgTable('firmware_job_chargers', {
  id: serial('id').primaryKey(),
  firmware_job_id: integer('firmware_job_id').notNull().references(() => firmware_jobs.firmware_job_id, { onDelete: 'cascade' }),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  cp_no: text('cp_no').notNull(),
  state: text('state').notNull().default('Queued'),
  state_at: tz('state_at').notNull().defaultNow(),
  /** Taken by a node's runner for sending (several nodes share the jobs). */
  claimed_at: tz('claimed_at'),
  sent_at: tz('sent_at'),
  /** The firmwareVersion of the charger's first BootNotification after the send. */
  reported_version: text('reported_version'),
  history: jsonb('history').notNull().default(sql`'[]'::jsonb`),
}, (t) => [
  uniqueIndex('firmware_job_chargers_job_cp_uq').on(t.firmware_job_id, t.cp_id),
  index('firmware_job_chargers_cp_idx').on(t.cp_id, t.id),
]);

/** A charger's last FirmwareStatusNotification and DiagnosticsStatusNotification, and when. */
export const cp_firmware_status = pgTable('cp_firmware_status', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id, { onDelete: 'cascade' }),
  firmware_status: text('firmware_status'),
  firmware_status_at: tz('firmware_status_at'),
  diagnostics_status: text('diagnostics_status'),
  diagnostics_status_at: tz('diagnostics_status_at'),
});
