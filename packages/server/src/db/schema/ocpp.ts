import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { creDttm, lupdDttm, tz } from './platform.ts';
import { cp_locs, cps } from './sites.ts';

/**
 * Every OCPP message in both directions. High volume: no foreign keys (each would cost a lookup
 * per row), ids are 64-bit, and each list filter has an index ending in req_id so that a filtered
 * page sorted by id descending is an index scan.
 */
export const cp_requests = pgTable('cp_requests', {
  req_id: bigserial('req_id', { mode: 'number' }).primaryKey(),
  /** Id of packages/core/src/ocpp.ts OCPP_REQUEST_TYPES. */
  request_type: smallint('request_type').notNull(),
  cp_id: integer('cp_id').notNull(),
  cp_no: text('cp_no').notNull(),
  charge_box_serial_number: text('charge_box_serial_number'),
  connector_id: integer('connector_id'),
  connector_status: text('connector_status'),
  request_data: jsonb('request_data'),
  response_data: jsonb('response_data'),
  /** The time the message speaks of (its own timestamp for offline-queued messages), else arrival. */
  cre_dttm: creDttm(),
  session_id: integer('session_id'),
  tran_id: integer('tran_id'),
  /** OCPP-J message id. */
  uuid: text('uuid'),
  /** The charger's site (cps.loc_id) when the message was handled. */
  loc: integer('loc'),
  /** Energy register in Wh, voltage in V, current in A, extracted from MeterValues and StopTransaction. */
  energy: bigint('energy', { mode: 'number' }),
  voltage: doublePrecision('voltage'),
  ampere: doublePrecision('ampere'),
  rsr_id: integer('rsr_id'),
}, (t) => [
  // Heartbeat (6) and MeterValues (11) are most of the rows and outside the list's default filter:
  // a list of them alone walks the primary key, dense with them, and each of them skips a b-tree
  // insert (issue 14). The list's IN filters without 6 and 11 are proved to fit the predicate. The same for
  // OCPP 2.0.1's Heartbeat and MeterValues (105, 106).
  index('cp_requests_type_idx').on(t.request_type, t.req_id).where(sql`request_type NOT IN (6, 11, 105, 106)`),
  index('cp_requests_cp_idx').on(t.cp_id, t.req_id),
  // Rows arrive in time order, so a BRIN index serves the date filter at a fraction of a b-tree's size
  // and insert cost (issue 14). A late offline-queued row only widens its range's summary.
  // 512 pages a range, not the default 128: each filled range asks autovacuum for its summary, and
  // autovacuum holds 256 such requests for the whole PostgreSQL server until it next visits the
  // database (a minute by default). With 128 pages that was about 9,000 MeterValues a second (16
  // rows a page); above it, every lost request put a LOG line holding the whole group-commit
  // statement into PostgreSQL's log (7 a second at the bench's 20,000/s). With 512 they keep up to
  // about 35,000 a second; a date filter reads at most 4 MB more (the last, unsummarized range).
  index('cp_requests_cre_dttm_idx').using('brin', t.cre_dttm).with({ autosummarize: true, pages_per_range: 512 }),
  index('cp_requests_session_idx').on(t.session_id, t.req_id).where(sql`session_id is not null`),
]);

/** One charging transaction; tran_id is the transactionId the charger was given. */
export const cp_sessions = pgTable('cp_sessions', {
  session_id: serial('session_id').primaryKey(),
  tran_id: integer('tran_id').notNull(),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id),
  cp_no: text('cp_no').notNull(),
  /** The site at the time of the session: a charger moved later does not move its history. */
  loc_id: integer('loc_id'),
  connector_id: integer('connector_id').notNull(),
  connector_name: text('connector_name'),
  id_tag: text('id_tag').notNull(),
  account_id: integer('account_id'),
  session_start_time: tz('session_start_time').notNull(),
  session_end_time: tz('session_end_time'),
  start_meter: bigint('start_meter', { mode: 'number' }).notNull(),
  end_meter: bigint('end_meter', { mode: 'number' }),
  /** Wh, set at stop. */
  total_pw_consume: bigint('total_pw_consume', { mode: 'number' }),
  /** Wh so far, from meter values while the session runs. */
  running_pw_consume: bigint('running_pw_consume', { mode: 'number' }).notNull().default(0),
  /** Seconds, set at stop. */
  total_charge_time: integer('total_charge_time'),
  start_soc: smallint('start_soc'),
  end_soc: smallint('end_soc'),
  stop_reason: text('stop_reason'),
  /**
   * The idTagInfo status answered at StartTransaction. A session refused there (Invalid, Blocked,
   * Expired) is closed at once: it never counts as running, whatever the charger does next.
   */
  id_tag_status: text('id_tag_status'),
  /** Why the central system closed the session itself (e.g. its StopTransaction never arrived). */
  stop_note: text('stop_note'),
  /** When a remote start asked for a duration: the session is stopped remotely at this time. */
  planned_end_dttm: tz('planned_end_dttm'),
  /** When the central system sent the RemoteStopTransaction for planned_end_dttm (sent once). */
  planned_stop_sent_dttm: tz('planned_stop_sent_dttm'),
  /**
   * When the charger showed, while the session ran, that it had ended without its StopTransaction
   * (ocpp/unconfirmed.ts): the connector reported Available, or the charger booted. Cleared by its
   * StopTransaction; kept when the operator or the auto-close closes it.
   */
  unconfirmed_since: tz('unconfirmed_since'),
  /** What showed it: 'Available' or 'Boot' (UNCONFIRMED_REASONS). */
  unconfirmed_reason: text('unconfirmed_reason'),
  /** An OCPP 2.0.1 charger's own transactionId (a string); tran_id is then ours, as for 1.6 (ocpp/v201/). */
  ocpp_transaction_id: text('ocpp_transaction_id'),
  /** Latest readings (Wh register, V, A) for live dashboards. */
  energy: bigint('energy', { mode: 'number' }),
  voltage: doublePrecision('voltage'),
  ampere: doublePrecision('ampere'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [
  // A StartTransaction replayed after a lost answer must find its first session again.
  uniqueIndex('cp_sessions_start_uq').on(t.cp_id, t.connector_id, t.id_tag, t.session_start_time),
  index('cp_sessions_tran_idx').on(t.tran_id),
  uniqueIndex('cp_sessions_ocpp_tx_uq').on(t.cp_id, t.ocpp_transaction_id).where(sql`ocpp_transaction_id is not null`),
  index('cp_sessions_cp_idx').on(t.cp_id, t.session_id),
  index('cp_sessions_loc_idx').on(t.loc_id, t.session_id),
  index('cp_sessions_start_idx').on(t.session_start_time),
  index('cp_sessions_running_idx').on(t.cp_id, t.connector_id).where(sql`session_end_time is null`),
  index('cp_sessions_planned_end_idx').on(t.planned_end_dttm)
    .where(sql`session_end_time is null and planned_end_dttm is not null and planned_stop_sent_dttm is null`),
  // The auto-close of unconfirmed sessions reads only these few.
  index('cp_sessions_unconfirmed_idx').on(t.unconfirmed_since).where(sql`session_end_time is null and unconfirmed_since is not null`),
]);

/** Meter readings per session, for the session chart (energy, voltage, current, SoC over time). */
export const cp_meter_values = pgTable('cp_meter_values', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  session_id: integer('session_id'),
  cp_id: integer('cp_id').notNull(),
  connector_id: integer('connector_id'),
  ts: tz('ts').notNull(),
  energy: bigint('energy', { mode: 'number' }),
  voltage: doublePrecision('voltage'),
  ampere: doublePrecision('ampere'),
  soc: doublePrecision('soc'),
  cre_dttm: creDttm(),
}, (t) => [
  index('cp_meter_values_session_idx').on(t.session_id, t.ts).where(sql`session_id is not null`),
  // The readings of a connector over a time range come from this index alone (index-only scan):
  // the charger view's meter chart (ocpp/meter-chart.ts) aggregates a month of one connector from it.
  index('cp_meter_values_chart_idx').on(t.cp_id, t.connector_id, t.ts, t.energy, t.voltage, t.ampere),
]);

/** RFID cards allowed to charge: everywhere (no loc, no cp), at one site, or at one charger. */
export const auth_card = pgTable('auth_card', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Card ids separated by commas, semicolons or white space. */
  rfid_cards: text('rfid_cards').notNull().default(''),
  loc: integer('loc').references(() => cp_locs.loc_id, { onDelete: 'cascade' }),
  cp: integer('cp').references(() => cps.cp_id, { onDelete: 'cascade' }),
  active: smallint('active').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
});

/**
 * A charger's configuration (spec part 1 §3 "cp config"): named settings in config_json, each
 * {Type: Selection|Range|Text, Authority: Admin|Everyone, Value, Option}. At most one per charger is
 * current: making one current sends its settings to the charger (ocpp/cp-config.ts), and what the
 * charger answered per setting is kept in last_sent.
 */
export const cp_config = pgTable('cp_config', {
  cp_config_id: serial('cp_config_id').primaryKey(),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  ip_address: text('ip_address'),
  mac_address: text('mac_address'),
  current: smallint('current').notNull().default(0),
  /** 1 while some setting of the current config has not been applied (charger offline, reboot required). */
  pending: smallint('pending').notNull().default(0),
  update_time: tz('update_time').notNull().defaultNow(),
  description: text('description'),
  fw_ver: text('fw_ver'),
  config_json: jsonb('config_json').notNull().default({}),
  /** Per setting name, the charger's answer when last sent: Accepted, Rejected, RebootRequired, NotSupported or Offline. */
  last_sent: jsonb('last_sent'),
  sent_dttm: tz('sent_dttm'),
}, (t) => [
  index('cp_config_cp_idx').on(t.cp_id, t.cp_config_id),
  uniqueIndex('cp_config_current_idx').on(t.cp_id).where(sql`current = 1`),
]);

/** Configuration templates per firmware version: a new config of a charger starts from one. */
export const fw_ver_config = pgTable('fw_ver_config', {
  fw_ver: text('fw_ver').primaryKey(),
  config_json: jsonb('config_json').notNull(),
  description: text('description'),
});

/**
 * A charger's own configuration keys as it last answered GetConfiguration (issue 29), one row per key: a
 * read of named keys replaces those, a read of all keys replaces the charger's rows. known false: the charger
 * said it does not know the key (unknownKey).
 */
export const cp_config_keys = pgTable('cp_config_keys', {
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  known: boolean('known').notNull(),
  readonly: boolean('readonly'),
  value: text('value'),
  read_at: tz('read_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.cp_id, t.key] })]);

/**
 * An OCPP 2.0.1 charger's device model as its last base report (NotifyReport) gave it (issue 31): one row
 * per component, EVSE, variable and attribute. A new report replaces the charger's rows once complete.
 */
export const cp_device_variables = pgTable('cp_device_variables', {
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id, { onDelete: 'cascade' }),
  component: text('component').notNull(),
  component_instance: text('component_instance').notNull().default(''),
  /** 0: not an EVSE's component. */
  evse_id: integer('evse_id').notNull().default(0),
  connector_id: integer('connector_id').notNull().default(0),
  variable: text('variable').notNull(),
  variable_instance: text('variable_instance').notNull().default(''),
  /** Actual, Target, MinSet, MaxSet. */
  attribute_type: text('attribute_type').notNull().default('Actual'),
  value: text('value'),
  /** ReadOnly, WriteOnly, ReadWrite. */
  mutability: text('mutability'),
  data_type: text('data_type'),
  unit: text('unit'),
  values_list: text('values_list'),
  read_at: tz('read_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.cp_id, t.component, t.component_instance, t.evse_id, t.connector_id, t.variable, t.variable_instance, t.attribute_type] })]);

/** The base report a 2.0.1 charger was last asked for (GetBaseReport) and whether all its NotifyReport parts came. */
export const cp_device_reports = pgTable('cp_device_reports', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id, { onDelete: 'cascade' }),
  request_id: integer('request_id').notNull(),
  report_base: text('report_base').notNull(),
  requested_at: tz('requested_at').notNull().defaultNow(),
  /** Parts received so far; done when the last (tbc false) came. */
  parts: integer('parts').notNull().default(0),
  completed_at: tz('completed_at'),
});
