import { ERROR_CODES, P, readPrivilege } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { RefusedAnswer } from './routes.ts';

/** At most this many points per chart: the server downsamples, the browser draws what it gets. */
export const MAX_CHART_POINTS = 500;
/** Longest range a chart may ask for, in seconds. */
export const MAX_CHART_RANGE = 400 * 24 * 3600;

const uint = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(0).max(2 ** 31 - 1));
const query = z.object({ connector_id: uint.pipe(z.number().min(1)), from: uint, to: uint }).strict();
const ChartAnswer = z.object({
  status: z.literal('success'),
  data: z.object({
    step: z.number().describe('Bucket width, seconds'),
    points: z.array(z.object({
      t: z.number().describe('Start of the bucket, unix seconds'),
      kwh: z.number().nullable().describe('Highest energy register reading in the bucket'),
      v: z.number().nullable().describe('Average voltage'),
      a: z.number().nullable().describe('Average current'),
    }) satisfies z.ZodType<MeterChartPoint>),
  }),
});

export interface MeterChartPoint {
  /** Start of the bucket, unix seconds. */
  t: number;
  /** Highest energy register reading in the bucket, kWh. */
  kwh: number | null;
  /** Average voltage, V. */
  v: number | null;
  /** Average current, A. */
  a: number | null;
}

const round = (x: number | null, digits: number) => (x == null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/**
 * Bucket width in seconds for a range: the smallest width giving at most MAX_CHART_POINTS buckets,
 * rounded up to a whole minute once it is a minute or more (bucket starts then fall on readable times).
 */
export function chartStep(from: number, to: number): number {
  const step = Math.max(1, Math.ceil((to - from) / MAX_CHART_POINTS));
  return step >= 60 ? Math.ceil(step / 60) * 60 : step;
}

/**
 * GET /api/cps/:id/meter_chart?connector_id=&from=&to= — a connector's stored meter values over
 * [from, to) (unix seconds), grouped on the server into at most MAX_CHART_POINTS buckets of `step`
 * seconds counted from `from`: energy is the bucket's highest register reading, voltage and current
 * its averages. Buckets without readings are left out (the chart draws a gap-free line over them).
 * The charger view's Charts tab (spec part 1 §2) reads it; the index cp_meter_values_chart_idx
 * (cp_id, connector_id, ts, energy, voltage, ampere) makes each bucket an index-only range scan.
 */
export function meterChartRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/cps/:id/meter_chart', {
    schema: { params: idParams, querystring: query, response: { 200: z.union([ChartAnswer, RefusedAnswer]) } },
    config: { doc: { summary: 'A connector\'s meter values between two times, for the chart', privileges: [readPrivilege('cps'), P.CP_CONNECTOR] } },
  }, async (req) => {
    // Spec part 1 §6: READ_CP_CONNECTOR gates the connectors; a connector's readings are theirs.
    const user = requirePrivileges(req, readPrivilege('cps'), P.CP_CONNECTOR);
    const { id } = req.params;
    const q = req.query;
    if (q.from > q.to) throw badRequest('to: must not be before from', { to: 'invalid' });
    if (q.to - q.from > MAX_CHART_RANGE) throw badRequest('to: the range is longer than 400 days', { to: 'invalid' });

    const [cp] = await app.db.query<{ loc_id: number }>(`SELECT loc_id FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`, [id]);
    // Outside the user's sites the charger does not exist for them, as in the other charger routes.
    if (!cp || (!user.allSites && !user.siteIds.includes(cp.loc_id))) return { status: 'error' as const, errorCode: ERROR_CODES.CP_NOT_FOUND };

    const step = chartStep(q.from, q.to);
    const buckets = Math.ceil((q.to - q.from) / step);
    // One aggregate per bucket, each over an index-only range scan of cp_meter_values_chart_idx:
    // no sort of the whole range (a GROUP BY of a computed bucket would sort every reading).
    const rows = await app.db.query<{ b: number; wh: number | null; v: number | null; a: number | null }>(
      `SELECT g.b, m.wh, m.v, m.a
         FROM generate_series(0, $5::int - 1) AS g(b)
        CROSS JOIN LATERAL (
          SELECT max(energy)::float8 AS wh, avg(voltage)::float8 AS v, avg(ampere)::float8 AS a, count(*) AS n
            FROM cp_meter_values
           WHERE cp_id = $1 AND connector_id = $2
             AND ts >= to_timestamp($3::bigint + g.b * $6::int)
             AND ts < to_timestamp(least($3::bigint + (g.b + 1) * $6::int, $4::bigint))) m
        WHERE m.n > 0
        ORDER BY g.b`,
      [id, q.connector_id, q.from, q.to, buckets, step],
    );
    const points: MeterChartPoint[] = rows.map((r) => ({
      t: q.from + r.b * step,
      kwh: r.wh == null ? null : round(r.wh / 1000, 3),
      v: round(r.v, 2),
      a: round(r.a, 2),
    }));
    return { status: 'success' as const, data: { step, points } };
  });
}
