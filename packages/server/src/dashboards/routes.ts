import {
  P,
  type CpLocQuickInfoDTO, type CpSummaryByDayRangeQuickInfoDTO, type CpUsageDTO, type QuickInfoAnswer, type UsageSummary, type V1Info,
  type V1QuickInfoAnswer, type V1SiteUsage, type V1Usage,
} from '@ev/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { queuedConnectors } from '../lms/status.ts';
import { dashboardSites, quickInfoCards, usage, v1Connectors, type UsageTotals } from './queries.ts';

/** A site id, or nothing (or empty: the selector's All) for every site of the user. */
const siteParam = z
  .union([z.literal('').transform(() => undefined), z.string().regex(/^\d{1,9}$/, 'must be a site id').transform(Number)])
  .optional();
const v2Query = z.object({ locId: siteParam }).strict();
const v1Query = z.object({ loc_id: siteParam }).strict();

/**
 * The answers, exactly as core declares them (what the portal reads). The handlers send JSON text, which the type
 * provider does not compare with the schema; `satisfies` alone would let a schema leave out a null core allows.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exactly = <T>() => <S extends z.ZodType<T>>(schema: S, ..._differs: Same<z.output<S>, T> extends true ? [] : [never]) => schema;
const text = z.string().nullable();
const num = z.number().nullable();
const v2UsageSchema = z.object({ duration: z.number().describe('Seconds'), kwh: z.number() });
const V2Answer = exactly<QuickInfoAnswer>()(z.object({
  cpLocQuickInfoDTOS: z.array(z.object({ locId: z.number(), address: z.string(), addressChi: text })).describe('Every site the user may see, whatever locId asked'),
  cpQuickInfoDTOS: z.array(z.object({
    cpId: z.number(), cpNo: z.string(), cpName: z.string(), cpNameChi: text, locId: z.number(), connectorId: z.number(),
    connectorStatus: z.string().describe('As shown: an OCPP status, Offline or N/A'), lastStatusUpdateDate: text,
    kwh: num, duration: num, tranStartDate: text, tranStopDate: text, voltages: num, currents: num, soc: num, idTag: text,
    carRegNo: text, bay: text, bayStatus: text, queueingPos: num.describe('Place in the load-management queue, 1 = next'),
  })),
  cpSummaryByDayRangeQuickInfoDTO: z.object({ todaySummary: v2UsageSchema, yesterdaySummary: v2UsageSchema, last7daysSummary: v2UsageSchema })
    .nullable().describe('null without READ_DASHBOARD_SUMMARY'),
  cpUsage: z.object({ noOfAvailableConnectors: z.number(), noOfChargingConnectors: z.number(), noOfUnAvailableConnectors: z.number(), noOfQueueingConnectors: z.number() }),
}));
const v1UsageSchema = z.object({ energy: z.number().describe('Wh'), charging_time: z.number().describe('Seconds') });
const V1Answer = exactly<V1QuickInfoAnswer>()(z.object({ response: z.object({ info: z.object({
  refs: z.object({
    cp_locs: z.array(z.object({ loc_id: z.number(), address: z.string(), address_chi: text })),
    cp_connectors: z.array(z.object({ cp_id: z.number(), connector_id: z.number(), connector_name: text })),
    cps: z.array(z.object({ cp_id: z.number(), cp_no: z.string(), name: z.string(), name_chi: text, loc_id: z.number(), online_flag: z.number() })),
  }),
  cp_status: z.array(z.object({
    cp_id: z.number(),
    connector_status: z.array(z.object({
      connector_id: z.number(), status: z.string().describe('As shown: an OCPP status, Offline or N/A'), connector_status_last_updated_dt: text,
      bay: text, bayStatus: text, bayLupdDttm: text, queueing_pos: num,
    })),
  })),
  acc_charging_status: z.array(z.object({
    cp_id: z.number(), connector_id: z.number(), session_id: z.number(), energy_consumed: z.number().describe('Wh'),
    charging_time: z.number().describe('Seconds'), voltage: num, current: num, soc: num, id_tag: z.string(), account_id: num,
    car_reg_no: text, tran_start: z.string(), tran_end: text,
  })).describe('The running sessions'),
  site_usage: z.object({ available: z.number(), charging: z.number(), unavailable: z.number(), queueing: z.number() }),
  summary: z.object({ today: v1UsageSchema, weekly: v1UsageSchema }).nullable().describe('null without READ_DASHBOARD_SUMMARY'),
  connector_usage: z.array(z.object({ cp_id: z.number(), connector_id: z.number(), today: v1UsageSchema, weekly: v1UsageSchema }))
    .nullable().describe('null without READ_DASHBOARD_SUMMARY'),
}) }) }));

type Period = 'today' | 'yesterday' | 'week';
const v2Summary = (t: UsageTotals, p: Period): UsageSummary => ({ duration: t[`${p}_s`], kwh: Math.round(t[`${p}_wh`]) / 1000 });
const v1Usage = (t: UsageTotals, p: Period): V1Usage => ({ energy: t[`${p}_wh`], charging_time: t[`${p}_s`] });

/**
 * An answer whose long lists arrive as JSON text from PostgreSQL (queries.ts): the small parts are
 * serialised here and the lists spliced in, each `"key": raw` in place of a placeholder string.
 * `Raw<T>` keeps the answer's type checked against core's DTO while the lists travel as text.
 */
type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: RawJson | Extract<T[P], null> };
class RawJson {
  constructor(readonly text: string) {}
}

function sendWithRaw(reply: FastifyReply, answer: object): FastifyReply {
  const raws: string[] = [];
  const text = JSON.stringify(answer, (_key, value: unknown) => (value instanceof RawJson ? `\u0000${raws.push(value.text) - 1}` : value));
  // The placeholder is serialised as "\u0000N": no other string reads so, since every string here comes from
  // PostgreSQL, whose text never holds a NUL (a typed backslash is serialised doubled, "\\u0000").
  return reply.type('application/json; charset=utf-8').send(text.replace(/"\\u0000(\d+)"/g, (_m, i: string) => raws[Number(i)]));
}

/**
 * The live dashboards of spec part 1 §2 and §7: GET /api/v2/quickInfo?locId= (Quick info, READ_V2_DASHBOARD)
 * and GET /api/quick_info?loc_id= (V1 dashboard, READ_V1_DASHBOARD). Both are kept to the user's sites; the
 * usage summaries are computed and sent only with READ_DASHBOARD_SUMMARY (null otherwise). Connectors this
 * node's load management holds in its queue are counted and marked queueing (lms/status.ts queuedConnectors).
 */
export function dashboardRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const mayReadUsage = (user: AuthUser) => user.privileges.has(P.DASHBOARD_SUMMARY);

  app.get('/api/v2/quickInfo', { schema: { querystring: v2Query, response: { 200: V2Answer } }, config: { doc: { summary: 'Dashboard v2: live chargers and usage (usage needs READ_DASHBOARD_SUMMARY)', privileges: [P.V2_DASHBOARD] } } }, async (req, reply) => {
    const user = requirePrivileges(req, P.V2_DASHBOARD);
    const q = req.query;
    const { all, asked } = await dashboardSites(app.db, user, { param: 'locId', locId: q.locId });
    const tz = app.config.timeZone;
    const [live, used] = await Promise.all([
      quickInfoCards(app.db, asked, tz, queuedConnectors(app.lms, asked)),
      mayReadUsage(user) ? usage(app.db, asked, tz, false) : null,
    ]);
    const cpUsage: CpUsageDTO = {
      noOfAvailableConnectors: live.available,
      noOfChargingConnectors: live.charging,
      noOfUnAvailableConnectors: live.unavailable,
      noOfQueueingConnectors: live.queueing,
    };
    const summary: CpSummaryByDayRangeQuickInfoDTO | null = used && {
      todaySummary: v2Summary(used.totals, 'today'),
      yesterdaySummary: v2Summary(used.totals, 'yesterday'),
      last7daysSummary: v2Summary(used.totals, 'week'),
    };
    const answer: Raw<QuickInfoAnswer, 'cpQuickInfoDTOS'> = {
      cpLocQuickInfoDTOS: all.map((s): CpLocQuickInfoDTO => ({ locId: s.loc_id, address: s.address, addressChi: s.address_chi })),
      cpQuickInfoDTOS: new RawJson(live.cards),
      cpSummaryByDayRangeQuickInfoDTO: summary,
      cpUsage,
    };
    return sendWithRaw(reply, answer);
  });

  app.get('/api/quick_info', { schema: { querystring: v1Query, response: { 200: V1Answer } }, config: { doc: { summary: 'Dashboard v1: connectors and usage (usage needs READ_DASHBOARD_SUMMARY)', privileges: [P.V1_DASHBOARD] } } }, async (req, reply) => {
    const user = requirePrivileges(req, P.V1_DASHBOARD);
    const q = req.query;
    const { all, asked } = await dashboardSites(app.db, user, { param: 'loc_id', locId: q.loc_id });
    const tz = app.config.timeZone;
    const [live, used] = await Promise.all([v1Connectors(app.db, asked, tz, queuedConnectors(app.lms, asked)), mayReadUsage(user) ? usage(app.db, asked, tz, true) : null]);
    const siteUsage: V1SiteUsage = { available: live.available, charging: live.charging, unavailable: live.unavailable, queueing: live.queueing };
    const info: Omit<Raw<V1Info, 'cp_status' | 'acc_charging_status' | 'connector_usage'>, 'refs'> & {
      refs: Raw<V1Info['refs'], 'cp_connectors' | 'cps'>;
    } = {
      refs: { cp_locs: all, cp_connectors: new RawJson(live.cp_connectors), cps: new RawJson(live.cps) },
      cp_status: new RawJson(live.cp_status),
      acc_charging_status: new RawJson(live.acc_charging_status),
      site_usage: siteUsage,
      summary: used && { today: v1Usage(used.totals, 'today'), weekly: v1Usage(used.totals, 'week') },
      // usage(…, true) always answers the per-connector list; null only without the privilege.
      connector_usage: used && new RawJson(used.perConnector ?? '[]'),
    };
    const answer: Omit<V1QuickInfoAnswer, 'response'> & { response: { info: typeof info } } = { response: { info } };
    return sendWithRaw(reply, answer);
  });
}
