import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { creDttm, deletedAt, lupdDttm, tz } from './platform.ts';

export const cp_locs = pgTable('cp_locs', {
  loc_id: serial('loc_id').primaryKey(),
  address: text('address').notNull(),
  address_chi: text('address_chi'),
  address_chs: text('address_chs'),
  enable_flag: smallint('enable_flag').notNull().default(1),
  provider_id: integer('provider_id'),
  mode_id: integer('mode_id'),
  district_id: integer('district_id'),
  gps_lat: doublePrecision('gps_lat'),
  gps_lang: doublePrecision('gps_lang'),
  rate_id: integer('rate_id'),
  min_charging_unit: integer('min_charging_unit'),
  max_charging_unit: integer('max_charging_unit'),
  default_charging_unit: integer('default_charging_unit'),
  free_charge_flag: smallint('free_charge_flag').notNull().default(0),
  postpaid_min_charge: integer('postpaid_min_charge'),
  postpaid_max_charge: integer('postpaid_max_charge'),
  postpaid_allowance_min: integer('postpaid_allowance_min'),
  lms_profile_id: integer('lms_profile_id'),
  enable_lms: smallint('enable_lms').notNull().default(0),
  external_loc_id: text('external_loc_id'),
  mall_id: text('mall_id'),
  station_code: text('station_code'),
  contact_number: text('contact_number'),
  remark: text('remark'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [uniqueIndex('cp_locs_address_uq').on(t.address).where(sql`deleted_at is null`)]);

export const cp_zones = pgTable('cp_zones', {
  zone_id: serial('zone_id').primaryKey(),
  loc_id: integer('loc_id').notNull().references(() => cp_locs.loc_id),
  name_chi: text('name_chi').notNull(),
  /** English name; optional (the spec's zone has only name_chi): readers of English see name_chi where it is blank. */
  name: text('name'),
  max_physical_current_limit: integer('max_physical_current_limit').notNull(),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [index('cp_zones_loc_idx').on(t.loc_id)]);

export const cp_pow = pgTable('cp_pow', {
  power_meter_type_id: serial('power_meter_type_id').primaryKey(),
  name: text('name').notNull(),
  factor: doublePrecision('factor').notNull().default(1),
  rotation_value: integer('rotation_value').notNull().default(0),
}, (t) => [uniqueIndex('cp_pow_name_uq').on(t.name)]);

export const cps = pgTable('cps', {
  cp_id: serial('cp_id').primaryKey(),
  cp_no: text('cp_no').notNull(),
  name: text('name').notNull(),
  name_chi: text('name_chi'),
  charge_box_serial_number: text('charge_box_serial_number'),
  charger_type: text('charger_type'),
  cp_type: text('cp_type'),
  loc_id: integer('loc_id').notNull().references(() => cp_locs.loc_id),
  zone_id: integer('zone_id').references(() => cp_zones.zone_id, { onDelete: 'set null' }),
  power_meter_type_id: integer('power_meter_type_id').references(() => cp_pow.power_meter_type_id),
  power_meter_factor: doublePrecision('power_meter_factor'),
  power_meter_rotation_value: integer('power_meter_rotation_value'),
  firmware_version: text('firmware_version'),
  charging_status_code: text('charging_status_code'),
  charging_status: text('charging_status'),
  connectora_status: text('connectora_status'),
  connectorb_status: text('connectorb_status'),
  online_flag: smallint('online_flag').notNull().default(0),
  online_since: tz('online_since'),
  /** When the last connection ended (at a restart: the charger's last message, the latest it is known to have been there). */
  offline_since: tz('offline_since'),
  last_message_dttm: tz('last_message_dttm'),
  last_status_dttm: tz('last_status_dttm'),
  boot_dttm: tz('boot_dttm'),
  enable_flag: smallint('enable_flag').notNull().default(1),
  max_power_output: integer('max_power_output').notNull().default(32),
  heartbeat_interval: integer('heartbeat_interval').notNull().default(30),
  private_flag: smallint('private_flag').notNull().default(0),
  ac_flag: smallint('ac_flag').notNull().default(1),
  dc_flag: smallint('dc_flag').notNull().default(0),
  mac_addr: text('mac_addr'),
  ip: text('ip'),
  port: integer('port'),
  remark: text('remark'),
  freecharge_flag: smallint('freecharge_flag').notNull().default(0),
  min_current_threshold: integer('min_current_threshold'),
  min_power_threshold: integer('min_power_threshold'),
  double_use_flag: smallint('double_use_flag').notNull().default(0),
  change_availability: text('change_availability'),
  charge_point_model: text('charge_point_model'),
  charge_point_serial_number: text('charge_point_serial_number'),
  charge_point_vendor: text('charge_point_vendor'),
  iccid: text('iccid'),
  imsi: text('imsi'),
  meter_serial_number: text('meter_serial_number'),
  meter_type: text('meter_type'),
  error_code: text('error_code'),
  mct_status_code: text('mct_status_code'),
  /** scrypt hash of the charger's HTTP Basic password (OCPP security profile 1); null = no password. */
  ocpp_password_hash: text('ocpp_password_hash'),
  /** While rotating: the hash of the password before (null: none was asked), still accepted (charger-credentials/). */
  ocpp_password_previous_hash: text('ocpp_password_previous_hash'),
  /** A new password was sent; the charger has not signed in with it yet. */
  ocpp_password_rotating: boolean('ocpp_password_rotating').notNull().default(false),
  password_changed_at: tz('password_changed_at'),
  /** The OCPP version the charger last connected with ('ocpp1.6' | 'ocpp2.0.1'); null: never connected. */
  ocpp_protocol: text('ocpp_protocol'),
  /** How a BootNotification is answered (ocpp/boot-policy.ts): 'accept', 'provision' (Pending until read) or 'reject'. */
  boot_policy: text('boot_policy').notNull().default('accept'),
  /** The last BootNotification answer when not Accepted ('Pending' | 'Rejected'); null: accepted (or never booted). */
  boot_status: text('boot_status'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [
  uniqueIndex('cps_cp_no_uq').on(t.cp_no).where(sql`deleted_at is null`),
  index('cps_loc_idx').on(t.loc_id),
  index('cps_zone_idx').on(t.zone_id),
]);

export const cp_connectors = pgTable('cp_connectors', {
  id: serial('id').primaryKey(),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  connector_id: integer('connector_id').notNull(),
  connector_name: text('connector_name'),
  status: text('status'),
  error_code: text('error_code'),
  vendor_error_code: text('vendor_error_code'),
  info: text('info'),
  last_status_dttm: tz('last_status_dttm'),
  extra: jsonb('extra'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [uniqueIndex('cp_connectors_cp_conn_uq').on(t.cp_id, t.connector_id)]);
