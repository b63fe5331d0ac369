import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { creDttm, deletedAt, lupdDttm, tz } from './platform.ts';
import { cps } from './sites.ts';

/**
 * Customers and operations (spec part 2): accounts and what hangs off them, opening hours,
 * contacts and alerts, third-party access, data rotation. Money is integer cents.
 */

export const accounts = pgTable('accounts', {
  acc_id: serial('acc_id').primaryKey(),
  first_name: text('first_name'),
  last_name: text('last_name'),
  mobile_no: text('mobile_no'),
  email: text('email'),
  /** Balance in cents. */
  acc_bal: bigint('acc_bal', { mode: 'number' }).notNull().default(0),
  /** The first 3 characters of the HKID only (spec part 2 §3). */
  hkid: text('hkid'),
  birthday: date('birthday', { mode: 'string' }),
  /** 1 active, 0 inactive: an inactive account's cards are refused. */
  acc_status: smallint('acc_status').notNull().default(1),
  default_lang: text('default_lang'),
  tnc_flag: smallint('tnc_flag').notNull().default(0),
  /** Card ids separated by commas; unique across accounts and auth_card. */
  rfid_cards: text('rfid_cards').notNull().default(''),
  address: text('address'),
  reg_dttm: tz('reg_dttm').notNull().defaultNow(),
  car_reg_no: text('car_reg_no'),
  /** Sites the account may charge at; empty = every site. */
  loc_ids: integer('loc_ids').array().notNull().default(sql`'{}'::int[]`),
  master_flag: smallint('master_flag').notNull().default(0),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('accounts_mobile_idx').on(t.mobile_no)]);

export const account_vehicles = pgTable('account_vehicles', {
  id: serial('id').primaryKey(),
  acc_id: integer('acc_id').notNull().references(() => accounts.acc_id),
  /** The charger the vehicle is registered to (a private bay), if any. */
  cp: integer('cp').references(() => cps.cp_id),
  car_reg_no: text('car_reg_no').notNull(),
  rfid_cards: text('rfid_cards').notNull().default(''),
  acc_status: smallint('acc_status').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('account_vehicles_acc_idx').on(t.acc_id)]);

export const service_plans = pgTable('service_plans', {
  plan_id: serial('plan_id').primaryKey(),
  name: text('name').notNull(),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
});

export const account_service_plans = pgTable('account_service_plans', {
  asp_id: serial('asp_id').primaryKey(),
  acc_id: integer('acc_id').notNull().references(() => accounts.acc_id),
  plan_id: integer('plan_id').notNull().references(() => service_plans.plan_id),
  cp_id: integer('cp_id').references(() => cps.cp_id),
  start_date: date('start_date', { mode: 'string' }).notNull(),
  end_date: date('end_date', { mode: 'string' }),
  /** Cents. */
  plan_total: bigint('plan_total', { mode: 'number' }).notNull().default(0),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('account_service_plans_acc_idx').on(t.acc_id)]);

export const opening_hour = pgTable('opening_hour', {
  opening_hour_id: serial('opening_hour_id').primaryKey(),
  name: text('name').notNull(),
  /** HH:mm in APP_TIMEZONE. */
  start_time: text('start_time').notNull(),
  end_time: text('end_time').notNull(),
  /** 1: the operator chose an overnight span, end_time is on the next day (and before start_time); 0: end after start. */
  ends_next_day: smallint('ends_next_day').notNull().default(0),
  /** Weekdays 1 (Monday) to 7; empty = no limit. */
  weekday: integer('weekday').array().notNull().default(sql`'{}'::int[]`),
  /** yyyy-MM-dd dates the hours apply on; empty = every date. */
  date_list: text('date_list').array().notNull().default(sql`'{}'::text[]`),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
});

/** A charger's opening hours (one set per charger) and what the scheduler last applied to it. */
export const cp_opening_hour = pgTable('cp_opening_hour', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id, { onDelete: 'cascade' }),
  opening_hour_id: integer('opening_hour_id').notNull().references(() => opening_hour.opening_hour_id, { onDelete: 'cascade' }),
  /** open | closed: the availability last sent, so a restart does not send it again. */
  applied_state: text('applied_state'),
  applied_dttm: tz('applied_dttm'),
  cre_dttm: creDttm(),
}, (t) => [index('cp_opening_hour_oh_idx').on(t.opening_hour_id)]);

export const contact = pgTable('contact', {
  contact_id: serial('contact_id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  status: smallint('status').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
});

export const contact_group = pgTable('contact_group', {
  contact_group_id: serial('contact_group_id').primaryKey(),
  name: text('name').notNull(),
  status: smallint('status').notNull().default(1),
  /** Receiving frequency: mailed when an alert's level reaches 1, 5 or 10 continuous detections. */
  level: smallint('level').notNull().default(1),
  contact_ids: integer('contact_ids').array().notNull().default(sql`'{}'::int[]`),
  loc_ids: integer('loc_ids').array().notNull().default(sql`'{}'::int[]`),
  error_ids: text('error_ids').array().notNull().default(sql`'{}'::text[]`),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [check('contact_group_level_ck', sql`${t.level} IN (1, 5, 10)`)]);

export const alert = pgTable('alert', {
  alert_id: bigserial('alert_id', { mode: 'number' }).primaryKey(),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  cp_no: text('cp_no').notNull(),
  /** The OCPP ChargePointErrorCode (or 'Offline' for a charger that went away). */
  error_id: text('error_id').notNull(),
  loc_id: integer('loc_id'),
  location: text('location'),
  message: text('message'),
  last_date: tz('last_date').notNull().defaultNow(),
  /** Continuous detections so far. */
  level: integer('level').notNull().default(1),
  /** 1 once the charger reported the error cleared (or came back). */
  is_fixes: smallint('is_fixes').notNull().default(0),
  fixed_dttm: tz('fixed_dttm'),
  tran_id: integer('tran_id'),
  cre_dttm: creDttm(),
}, (t) => [
  // One open alert per charger and error, however many messages repeat it.
  uniqueIndex('alert_open_uq').on(t.cp_id, t.error_id).where(sql`is_fixes = 0`),
  index('alert_loc_idx').on(t.loc_id, t.alert_id),
]);

/** Which group was mailed for which alert at which level: each level is mailed once. */
export const alert_notification = pgTable('alert_notification', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  alert_id: bigint('alert_id', { mode: 'number' }).notNull().references(() => alert.alert_id, { onDelete: 'cascade' }),
  contact_group_id: integer('contact_group_id').notNull().references(() => contact_group.contact_group_id, { onDelete: 'cascade' }),
  level: integer('level').notNull(),
  sent_dttm: tz('sent_dttm'),
  error: text('error'),
  cre_dttm: creDttm(),
}, (t) => [uniqueIndex('alert_notification_uq').on(t.alert_id, t.contact_group_id, t.level)]);

export const third_party_conf = pgTable('third_party_conf', {
  id: serial('id').primaryKey(),
  key_name: text('key_name').notNull(),
  app_id: text('app_id').notNull(),
  /** Who the key was given to. */
  assigned: text('assigned'),
  /** The one privilege the app's calls are limited to. */
  privilege_key: text('privilege_key').notNull(),
  /** scrypt hash of the api_key; the key itself is shown once, at creation. */
  api_key_hash: text('api_key_hash'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [uniqueIndex('third_party_conf_app_uq').on(t.app_id).where(sql`deleted_at is null`)]);

export const third_party_error_log = pgTable('third_party_error_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  app_id: text('app_id'),
  rsr_id: integer('rsr_id'),
  action: text('action'),
  carpark_id: text('carpark_id'),
  member_id: text('member_id'),
  charger_id: text('charger_id'),
  connector_id: integer('connector_id'),
  connector_status: text('connector_status'),
  error_code: text('error_code'),
  mall_id: text('mall_id'),
  reason: text('reason'),
  error_time: tz('error_time').notNull().defaultNow(),
});

/** Retention per kind of data (cp_request, cp_session, cp_meter_value, transaction), in months. */
export const data_rotation_setup = pgTable('data_rotation_setup', {
  id: serial('id').primaryKey(),
  item: text('item').notNull(),
  period_month: integer('period_month').notNull().default(12),
  is_enabled: smallint('is_enabled').notNull().default(0),
  last_run_dttm: tz('last_run_dttm'),
  last_deleted: bigint('last_deleted', { mode: 'number' }),
  lupd_dttm: lupdDttm(),
}, (t) => [uniqueIndex('data_rotation_setup_item_uq').on(t.item)]);

/** Application settings with their authority (Admin or Everyone); home_screen is one of them. */
export const app_config = pgTable('app_config', {
  id: serial('id').primaryKey(),
  config_key: text('config_key').notNull(),
  config_value: text('config_value').notNull(),
  authority: text('authority').notNull().default('Admin'),
  description: text('description'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [uniqueIndex('app_config_key_uq').on(t.config_key)]);
