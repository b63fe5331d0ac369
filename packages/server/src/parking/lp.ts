import { ERROR_CODES, P } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { Sql } from '../db/client.ts';
import { START_STOP_KEYS } from '../ocpp/routes.ts';

/** ResCode of the licence-plate answer: 0 is a plate; the others say why there is none. */
export const LP_CODES = { OK: 0, NO_BAY: 1, VACANT: 2, NO_PLATE: 3 } as const;

/** The spec's answer (part 1 §7 getLp): status success, data a JSON string of ResCode, LPN, EntryTime, ResMsg. */
export interface LpAnswer {
  status: 'success';
  data: string;
}

/** The licence-plate answer, or the spec's refusal {status: 'error', errorCode} (10001: no such charger for the caller). */
export const LpAnswerSchema = z.union([
  z.object({
    status: z.literal('success'),
    data: z.string().describe('JSON of {ResCode (0 a plate, 1 no bay, 2 vacant, 3 no plate), LPN, EntryTime (YYYY-MM-DD HH:mm:ss, local), ResMsg}'),
  }),
  z.object({ status: z.literal('error'), errorCode: z.int() }),
]);

const answer = (ResCode: number, ResMsg: string, LPN = '', EntryTime = ''): LpAnswer => ({
  status: 'success',
  data: JSON.stringify({ ResCode, LPN, EntryTime, ResMsg }),
});

/**
 * The plate and entry time of the car in the bay of a charger's connector, for the portal's start
 * form and the parking apps alike. EntryTime is 'YYYY-MM-DD HH:mm:ss' in the sites' time zone
 * (the server's configured one: sites carry no zone of their own).
 */
export async function licencePlateAnswer(sql: Sql, cpId: number, connectorId: number, timeZone: string): Promise<LpAnswer> {
  const [bay] = await sql.query<{ status: string; licensePlate: string | null; entry: string | null }>(
    `SELECT status, "licensePlate", to_char("inTime" AT TIME ZONE $3, 'YYYY-MM-DD HH24:MI:SS') AS entry
       FROM bay WHERE "cpId" = $1 AND "connectorId" = $2 AND deleted_at IS NULL`,
    [cpId, connectorId, timeZone],
  );
  if (!bay) return answer(LP_CODES.NO_BAY, 'No parking bay at this connector');
  if (bay.status !== 'Occupied') return answer(LP_CODES.VACANT, 'The bay of this connector is vacant');
  if (!bay.licensePlate) return answer(LP_CODES.NO_PLATE, 'No licence plate was recognised for the car in the bay');
  return answer(LP_CODES.OK, 'OK', bay.licensePlate, bay.entry ?? '');
}

const int = (min: number) =>
  z.union([z.number().int(), z.string().regex(/^\d{1,10}$/).transform(Number)]).pipe(z.number().int().min(min).max(2 ** 31 - 1));
/** The connector of the query (the external API's too). */
export const lpQuery = z.strictObject({ connectorId: int(1) });
// The resources whose screens start a charge: where the start form asks for the plate.
const params = z.strictObject({ resource: z.enum(START_STOP_KEYS), id: int(1) });

/** GET /api/{resource}/getLp/{id}?connectorId=N: the charger's view asks it before a remote start (spec §7, §8). */
export function parkingRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/:resource/getLp/:id', {
    schema: { params, querystring: lpQuery, response: { 200: LpAnswerSchema } },
    config: { doc: { summary: 'The licence plate at a connector\'s bay (?connectorId=)', privileges: [P.REMOTE_START_CHARGER] } },
  }, async (req) => {
    // The same privilege and charger lookup as the remote start the answer fills in.
    const user = requirePrivileges(req, P.REMOTE_START_CHARGER);
    const { id } = req.params;
    const { connectorId } = req.query;
    const [cp] = await app.db.query<{ cp_id: number; loc_id: number }>(`SELECT cp_id, loc_id FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`, [id]);
    // Outside the user's sites it does not exist for them, as for the remote start.
    if (!cp || (!user.allSites && !user.siteIds.includes(cp.loc_id))) return { status: 'error' as const, errorCode: ERROR_CODES.CP_NOT_FOUND };
    return licencePlateAnswer(app.db, cp.cp_id, connectorId, app.config.timeZone);
  });
}
