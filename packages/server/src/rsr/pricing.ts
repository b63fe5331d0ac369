import { campaignApplies, localDateTime, priceRemoteStart, type PricingCampaign, type PricingScheme, type PricingSlot, type RemoteStartPricingResult } from '@ev/core';
import type { Sql } from '../db/client.ts';

/** A charging rate as an RSR needs it (charging_rate row). */
export interface Rate {
  id: number;
  name: string;
  unit: number;
  gracing_period: number;
  max_daily_charging_session: number | null;
  max_charging_unit: number | null;
  max_penalty_unit: number | null;
  redeem_period: number | null;
  max_redeem_count: number | null;
}

/** The rate of a charger (charging_rate_cp), null when it has none: then a remote start is not an RSR. */
export async function rateOfCharger(sql: Sql, cpId: number): Promise<Rate | null> {
  const [rate] = await sql.query<Rate>(
    `SELECT r.id, r.name, r.unit, r.gracing_period, r.max_daily_charging_session, r.max_charging_unit, r.max_penalty_unit,
            r.redeem_period, r.max_redeem_count
       FROM charging_rate_cp c JOIN charging_rate r ON r.id = c."chargingRateId" AND r.deleted_at IS NULL
      WHERE c.cp_id = $1`,
    [cpId],
  );
  return rate ?? null;
}

/** Everything priceRemoteStart reads besides the booking: the rate's slots, their schemes, the campaigns. */
export interface PricingData {
  slots: PricingSlot[];
  schemes: Map<number, PricingScheme>;
  /** Price campaigns (isVoucher 0). */
  campaigns: PricingCampaign[];
  /** Voucher campaigns (isVoucher 1): their vouchers pay units. */
  voucherCampaigns: PricingCampaign[];
}

async function campaignsOf(sql: Sql): Promise<{ campaign: PricingCampaign; isVoucher: number }[]> {
  const rows = await sql.query<{ id: number; fee: number; maxChargingUnit: number | null; isAllCpLocFlag: number; locIds: number[]; isVoucher: number }>(
    `SELECT id, fee::float8 AS fee, "maxChargingUnit", "isAllCpLocFlag", "locIds", "isVoucher" FROM campaign WHERE deleted_at IS NULL ORDER BY id`,
  );
  const rules = await sql.query<{ campaignId: number; campaignRuleTypeCode: string; campaignRuleConfig: string }>(
    `SELECT "campaignId", "campaignRuleTypeCode", "campaignRuleConfig" FROM campaign_rule WHERE deleted_at IS NULL ORDER BY id`,
  );
  return rows.map((c) => ({
    isVoucher: c.isVoucher,
    campaign: {
      id: c.id,
      fee: Number(c.fee),
      maxChargingUnit: c.maxChargingUnit,
      isAllCpLocFlag: c.isAllCpLocFlag === 1 ? 1 : 0,
      locIds: c.locIds ?? [],
      rules: rules
        .filter((r) => r.campaignId === c.id)
        .map((r) => ({ campaignRuleTypeCode: r.campaignRuleTypeCode as PricingCampaign['rules'][number]['campaignRuleTypeCode'], campaignRuleConfig: r.campaignRuleConfig })),
    },
  }));
}

export async function pricingData(sql: Sql, rateId: number): Promise<PricingData> {
  const details = await sql.query(
    `SELECT id, "startTime", "endTime", peak, "maxChargingUnit", "penaltyUnit", "penaltyFee"::float8 AS "penaltyFee", "priceSchemeId", weekday
       FROM charging_rate_detail WHERE "chargingRateId" = $1 AND deleted_at IS NULL ORDER BY "startTime", id`,
    [rateId],
  );
  const slots: PricingSlot[] = details.map((d) => ({
    id: d.id,
    startTime: d.startTime,
    endTime: d.endTime,
    peak: d.peak === 1 ? 1 : 0,
    maxChargingUnit: d.maxChargingUnit,
    penaltyUnit: d.penaltyUnit,
    penaltyFee: d.penaltyFee === null ? null : Number(d.penaltyFee),
    priceSchemeId: d.priceSchemeId,
    weekday: d.weekday ?? [],
  }));
  const ids = [...new Set(slots.map((s) => s.priceSchemeId).filter((v): v is number => v !== null))];
  const schemes = new Map<number, PricingScheme>();
  if (ids.length) {
    const rows = await sql.query(`SELECT id, type, fee::float8 AS fee FROM price_scheme WHERE id = ANY($1::int[]) AND deleted_at IS NULL`, [ids]);
    const sessions = await sql.query(
      `SELECT "priceSchemeId", session, cash::float8 AS cash, point FROM price_scheme_detail WHERE "priceSchemeId" = ANY($1::int[]) AND enable_flag = 1`,
      [ids],
    );
    for (const r of rows) {
      schemes.set(r.id, {
        id: r.id,
        type: r.type === 'Custom' ? 'Custom' : 'Fixed',
        fee: Number(r.fee),
        sessions: sessions.filter((s) => s.priceSchemeId === r.id).map((s) => ({ session: s.session, cash: Number(s.cash), point: s.point })),
      });
    }
  }
  const all = await campaignsOf(sql);
  return {
    slots,
    schemes,
    campaigns: all.filter((c) => c.isVoucher !== 1).map((c) => c.campaign),
    voucherCampaigns: all.filter((c) => c.isVoucher === 1).map((c) => c.campaign),
  };
}

/** The voucher campaigns whose site and rules let them apply at this instant. */
export function applicableVoucherCampaigns(data: PricingData, locId: number, at: Date, timeZone: string): number[] {
  const local = localDateTime(at, timeZone);
  return data.voucherCampaigns.filter((c) => campaignApplies(c, locId, local)).map((c) => c.id);
}

export interface Booking {
  rate: Rate;
  data: PricingData;
  locId: number;
  units: number;
  vouchers: number;
  /** The instant the price was quoted (the RSR's cre_dttm): the same slot and campaigns every time it is priced. */
  quotedAt: Date;
  timeZone: string;
  actualFinished?: Date | null;
}

export function price(b: Booking): RemoteStartPricingResult {
  return priceRemoteStart({
    rate: { unitMinutes: b.rate.unit, gracingPeriodMinutes: b.rate.gracing_period, maxPenaltyUnit: b.rate.max_penalty_unit, maxChargingUnit: b.rate.max_charging_unit },
    slots: b.data.slots,
    schemes: b.data.schemes,
    campaigns: b.data.campaigns,
    locId: b.locId,
    units: b.units,
    redeemVoucherSessions: b.vouchers,
    start: b.quotedAt,
    timeZone: b.timeZone,
    actualFinished: b.actualFinished ?? null,
  });
}
