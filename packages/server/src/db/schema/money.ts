import { sql } from 'drizzle-orm';
import { bigint, bigserial, date, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { creDttm, deletedAt, lupdDttm, tz } from './platform.ts';
import { cp_locs, cps } from './sites.ts';

/**
 * Money and parking (spec part 2): charging rates, price schemes, campaigns and vouchers, remote
 * start requests (RSR) with their payments, parking bays and their log.
 *
 * Money is integer cents (bigint), never a float. Columns the spec names in camelCase keep its
 * name (quoted in SQL: "startTime"), so a resource definition serves them without a mapping; the
 * engine's own columns (cre_dttm, lupd_dttm, deleted_at) keep theirs and are shown under the
 * spec's names through virtual columns.
 */

export const price_scheme = pgTable('price_scheme', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Cents: the price of one unit; a Fixed scheme's session n costs n × fee. */
  fee: bigint('fee', { mode: 'number' }).notNull().default(0),
  locId: integer('locId').references(() => cp_locs.loc_id),
  /** How many sessions (units) the scheme prices. */
  maxChargingUnit: integer('maxChargingUnit').notNull().default(1),
  /** Fixed (sessions 2..n computed from session 1) or Custom (every session typed in). */
  type: text('type').notNull().default('Fixed'),
  version: integer('version').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('price_scheme_loc_idx').on(t.locId)]);

/** Per session n (1-based): what n units cost in all, in cash (cents) and in points. */
export const price_scheme_detail = pgTable('price_scheme_detail', {
  id: serial('id').primaryKey(),
  priceSchemeId: integer('priceSchemeId').notNull().references(() => price_scheme.id),
  session: integer('session').notNull(),
  cash: bigint('cash', { mode: 'number' }).notNull().default(0),
  point: integer('point').notNull().default(0),
  /** 0 once removed (a session-1 row removed marks its other-session rows 0 too). */
  enable_flag: smallint('enable_flag').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [index('price_scheme_detail_scheme_idx').on(t.priceSchemeId, t.session)]);

export const charging_rate = pgTable('charging_rate', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Options from charging_rate_type; default Time; fixed once loc_id is set. */
  type: text('type').notNull().default('Time'),
  /** Minutes after the booked units end before the penalty starts. */
  gracing_period: integer('gracing_period').notNull().default(0),
  loc_id: integer('loc_id').references(() => cp_locs.loc_id),
  max_daily_charging_session: integer('max_daily_charging_session'),
  max_charging_unit: integer('max_charging_unit'),
  max_penalty_unit: integer('max_penalty_unit'),
  /** Minutes: a member redeems points at most max_redeem_count times per redeem_period. */
  redeem_period: integer('redeem_period'),
  max_redeem_count: integer('max_redeem_count'),
  /** Minutes per charging unit (a 15-minute session: 15). */
  unit: integer('unit').notNull().default(15),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('charging_rate_loc_idx').on(t.loc_id)]);

/** A rate's time slots: which price scheme applies from startTime to endTime (HH:mm, site time). */
export const charging_rate_detail = pgTable('charging_rate_detail', {
  id: serial('id').primaryKey(),
  chargingRateId: integer('chargingRateId').notNull().references(() => charging_rate.id),
  startTime: text('startTime').notNull(),
  endTime: text('endTime').notNull(),
  peak: smallint('peak').notNull().default(0),
  maxChargingUnit: integer('maxChargingUnit'),
  penaltyUnit: integer('penaltyUnit'),
  /** Options from charging_rate_unit. */
  unit: text('unit'),
  priceSchemeId: integer('priceSchemeId').references(() => price_scheme.id),
  /** Cents per penalty unit. */
  penaltyFee: bigint('penaltyFee', { mode: 'number' }),
  /** The older time-slot row: a fee (cents) and points per unit, for some weekdays (1-7; empty: all). */
  fee: bigint('fee', { mode: 'number' }),
  point: integer('point'),
  weekday: integer('weekday').array().notNull().default(sql`'{}'::int[]`),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('charging_rate_detail_rate_idx').on(t.chargingRateId)]);

/** Which rate a charger charges at (a charger has at most one). */
export const charging_rate_cp = pgTable('charging_rate_cp', {
  cp_id: integer('cp_id').primaryKey().references(() => cps.cp_id),
  chargingRateId: integer('chargingRateId').notNull().references(() => charging_rate.id),
  cre_dttm: creDttm(),
}, (t) => [index('charging_rate_cp_rate_idx').on(t.chargingRateId)]);

export const campaign = pgTable('campaign', {
  id: serial('id').primaryKey(),
  externalCampaignId: text('externalCampaignId'),
  name: text('name').notNull(),
  nameCHT: text('nameCHT'),
  nameCHS: text('nameCHS'),
  applicableTime: text('applicableTime'),
  applicableTimeCHT: text('applicableTimeCHT'),
  applicableTimeCHS: text('applicableTimeCHS'),
  tnc: text('tnc'),
  tncCHT: text('tncCHT'),
  tncCHS: text('tncCHS'),
  /** Cents for a session charged under the campaign. */
  fee: bigint('fee', { mode: 'number' }).notNull().default(0),
  maxChargingUnit: integer('maxChargingUnit'),
  isAllCpLocFlag: smallint('isAllCpLocFlag').notNull().default(0),
  creUserName: text('creUserName'),
  /** Sites the campaign runs at when isAllCpLocFlag is 0. */
  locIds: integer('locIds').array().notNull().default(sql`'{}'::int[]`),
  /** 1: a voucher campaign (its vouchers are redeemed; the campaign is no longer editable). */
  isVoucher: smallint('isVoucher').notNull().default(0),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
});

export const campaign_rule = pgTable('campaign_rule', {
  id: serial('id').primaryKey(),
  campaignId: integer('campaignId').notNull().references(() => campaign.id),
  /** DateExclude, TimeInclude or DayInclude. */
  campaignRuleTypeCode: text('campaignRuleTypeCode').notNull(),
  ruleName: text('ruleName'),
  /** A JSON string: dates, time ranges or weekdays, as the type says. */
  campaignRuleConfig: text('campaignRuleConfig').notNull().default('[]'),
  description: text('description'),
  descriptionCht: text('descriptionCht'),
  descriptionChs: text('descriptionChs'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('campaign_rule_campaign_idx').on(t.campaignId)]);

export const voucher = pgTable('voucher', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: text('memberId').notNull(),
  campaignId: integer('campaignId').notNull().references(() => campaign.id),
  voucherExpireDate: date('voucherExpireDate', { mode: 'string' }).notNull(),
  /** The RSR that redeemed it. */
  rsrId: integer('rsrId'),
  /** Valid, Redeemed, Expired. */
  status: text('status').notNull().default('Valid'),
  creUserName: text('creUserName'),
  redeemDttm: tz('redeemDttm'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [index('voucher_member_idx').on(t.memberId, t.status), index('voucher_campaign_idx').on(t.campaignId)]);

export const bay = pgTable('bay', {
  id: serial('id').primaryKey(),
  /** The parking system's id of the bay; its events name it. */
  bayId: text('bayId').notNull(),
  bayName: text('bayName'),
  /** Code; Tesla bays are managed by the parking system (not editable here). */
  type: text('type').notNull().default('Normal'),
  /** The car park (parking system's id). */
  cpLocId: text('cpLocId'),
  mallId: text('mallId'),
  locId: integer('locId').references(() => cp_locs.loc_id),
  cpId: integer('cpId').references(() => cps.cp_id),
  connectorId: integer('connectorId'),
  brand: text('brand'),
  licensePlate: text('licensePlate'),
  inTime: tz('inTime'),
  outTime: tz('outTime'),
  autoDownloadFlag: smallint('autoDownloadFlag').notNull().default(0),
  /** Vacant or Occupied. */
  status: text('status').notNull().default('Vacant'),
  penaltyMode: text('penaltyMode'),
  image: text('image'),
  urlGetBayInfo: text('urlGetBayInfo'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [
  uniqueIndex('bay_bay_id_uq').on(t.bayId).where(sql`deleted_at IS NULL`),
  index('bay_cp_idx').on(t.cpId, t.connectorId),
]);

export const bay_log = pgTable('bay_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The parking system's session of the car (one car in, then out). */
  sessionId: text('sessionId'),
  /** In or Out. */
  status: text('status'),
  /** Accepted, or Refused with errorCode. */
  requestStatus: text('requestStatus'),
  bayUpdateStatus: text('bayUpdateStatus'),
  relatedRsr: integer('relatedRsr'),
  /** bay.id */
  bayId: integer('bayId'),
  brand: text('brand'),
  licensePlate: text('licensePlate'),
  imageLocalPath: text('imageLocalPath'),
  locId: integer('locId'),
  mallId: text('mallId'),
  inTime: tz('inTime'),
  outTime: tz('outTime'),
  errorCode: text('errorCode'),
  response: text('response'),
  cre_dttm: creDttm(),
}, (t) => [index('bay_log_bay_idx').on(t.bayId, t.id)]);

export const cp_rsr = pgTable('cp_rsr', {
  rsr_id: serial('rsr_id').primaryKey(),
  /** The member (mobile app account) who asked; vouchers and point redemption are per member. */
  external_account_id: text('external_account_id'),
  cp_id: integer('cp_id').notNull().references(() => cps.cp_id),
  connector_id: integer('connector_id').notNull(),
  bay_id: integer('bay_id').references(() => bay.id),
  charging_rate_id: integer('charging_rate_id').references(() => charging_rate.id),
  campaign_id: integer('campaign_id').references(() => campaign.id),
  /** RemoteStarted, Charging, Finished, UnderPenalty, Unsettled, Settled, Cancelled, Failed. */
  status: text('status').notNull(),
  /** Unsettled, Settled (null until the session is priced). */
  payment_status: text('payment_status'),
  penalty_mode: text('penalty_mode'),
  current_unit_session: integer('current_unit_session').notNull().default(0),
  max_charging_unit: integer('max_charging_unit').notNull(),
  /** Cents. */
  charging_fee: bigint('charging_fee', { mode: 'number' }).notNull().default(0),
  penalty_fee: bigint('penalty_fee', { mode: 'number' }).notNull().default(0),
  point: integer('point').notNull().default(0),
  redeem_voucher_sessions: integer('redeem_voucher_sessions').notNull().default(0),
  /** The charging session (cp_sessions.session_id) and the OCPP transaction id. */
  session_id: integer('session_id'),
  tran_id: integer('tran_id'),
  payment_result_id: integer('payment_result_id'),
  /** Minutes booked. */
  duration: integer('duration').notNull(),
  stop_type: text('stop_type'),
  stop_reason: text('stop_reason'),
  start_time: tz('start_time'),
  /** Planned end: start_time + the booked units. */
  end_time: tz('end_time'),
  actual_end_time: tz('actual_end_time'),
  actual_finished_time: tz('actual_finished_time'),
  gracing_period_end_dttm: tz('gracing_period_end_dttm'),
  cancel_time: tz('cancel_time'),
  settled_time: tz('settled_time'),
  start_code: text('start_code'),
  lp: text('lp'),
  unit_in_minutes: integer('unit_in_minutes').notNull(),
  /** The rate as priced at the start (name and slot), for the record. */
  rate: text('rate'),
  uuid: uuid('uuid').notNull().defaultRandom(),
  mall_id: text('mall_id'),
  carpark_id: text('carpark_id'),
  lprs_session_id: text('lprs_session_id'),
  lprs_out_session_id: text('lprs_out_session_id'),
  brand_in: text('brand_in'),
  lp_in: text('lp_in'),
  brand_out: text('brand_out'),
  lp_out: text('lp_out'),
  in_time: tz('in_time'),
  out_time: tz('out_time'),
  ev_disconnect_time: tz('ev_disconnect_time'),
  remarks: text('remarks'),
  /** Y: no fee and no penalty. */
  is_free: text('is_free').notNull().default('N'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [
  index('cp_rsr_cp_idx').on(t.cp_id, t.status),
  index('cp_rsr_member_idx').on(t.external_account_id, t.cre_dttm),
  index('cp_rsr_session_idx').on(t.session_id),
]);

/** Every exchange of an RSR with a charger (start, stop, unlock): what was sent and answered. */
export const cp_rsr_request = pgTable('cp_rsr_request', {
  rsr_req_id: bigserial('rsr_req_id', { mode: 'number' }).primaryKey(),
  rsr_id: integer('rsr_id'),
  cp_no: text('cp_no'),
  request_data: jsonb('request_data'),
  response_data: jsonb('response_data'),
  cre_dttm: creDttm(),
}, (t) => [index('cp_rsr_request_rsr_idx').on(t.rsr_id)]);

/** Every call to or from an outside system about RSRs (external API, payment gateway). */
export const cp_rsr_api_log = pgTable('cp_rsr_api_log', {
  api_log_id: bigserial('api_log_id', { mode: 'number' }).primaryKey(),
  api_log_type: text('api_log_type').notNull(),
  rsr_id: integer('rsr_id'),
  url: text('url'),
  request_data: jsonb('request_data'),
  response_data: jsonb('response_data'),
  cre_dttm: creDttm(),
});

/** One per priced RSR: what is owed and whether it is settled. */
export const payment_result = pgTable('payment_result', {
  id: serial('id').primaryKey(),
  rsr_id: integer('rsr_id').notNull().references(() => cp_rsr.rsr_id),
  /** Unsettled or Settled. */
  status: text('status').notNull().default('Unsettled'),
  /** Cents. */
  amount: bigint('amount', { mode: 'number' }).notNull(),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [uniqueIndex('payment_result_rsr_uq').on(t.rsr_id)]);

/** Every payment attempt of a payment_result (auto pay, retry, manual settlement). */
export const payment_result_detail = pgTable('payment_result_detail', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  resultId: integer('resultId').notNull().references(() => payment_result.id),
  referenceMemberId: text('referenceMemberId'),
  paymentType: text('paymentType'),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  startTime: tz('startTime'),
  endTime: tz('endTime'),
  autoPaymentExpiredTime: tz('autoPaymentExpiredTime'),
  gracingPeriodEndDttm: tz('gracingPeriodEndDttm'),
  actualFinishedTime: tz('actualFinishedTime'),
  /** Minutes past the grace period. */
  penaltyDuration: integer('penaltyDuration'),
  point: integer('point'),
  redeemVoucherSessions: integer('redeemVoucherSessions'),
  /** Pending, Success, Error. */
  status: text('status').notNull(),
  /** AutoPay, Retry, Manual. */
  actionType: text('actionType').notNull(),
  requestReference: text('requestReference'),
  transactionReference: text('transactionReference'),
  currentUnitSession: integer('currentUnitSession'),
  shkOrderReferenceNum: text('shkOrderReferenceNum'),
  shkHeader: text('shkHeader'),
  /** Why the gateway did not approve the attempt ("Insufficient funds", a timeout …), or its note on an approval. */
  gatewayMessage: text('gatewayMessage'),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [index('payment_result_detail_result_idx').on(t.resultId)]);
