import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { successText } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';

const READ = readPrivilege('charging_rate');
const EDIT = editPrivilege('charging_rate');
const Id = z.number().int().positive().max(2_147_483_647);
const GroupBody = z.strictObject({ chargingRateId: Id, cpIds: z.array(Id).max(20_000) });
const idList = z.array(z.number());
const GroupsAnswer = z
  .object({ cpIds: idList.describe('Every charger with a rate, ascending') })
  .catchall(idList)
  .describe('Each live charging rate of the user\'s sites by its id (as a key), with the ids of its chargers');
/** The assignment answers the text Success, as the spec's call does. */

/** The live rate within the user's sites (locked for a write): 404 when there is none, 403 when it is another site's. */
async function rateOf(sql: Sql, id: number, user: AuthUser) {
  const [rate] = await sql.query<{ id: number; loc_id: number | null }>(
    `SELECT id, loc_id FROM charging_rate WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
    [id],
  );
  if (!rate) throw notFound(`charging_rate ${id} does not exist`);
  if (!user.allSites && (rate.loc_id === null || !user.siteIds.includes(rate.loc_id))) throw forbidden();
  return rate;
}

/**
 * Spec part 2 §7: which chargers charge at which rate. A charger has at most one rate
 * (charging_rate_cp.cp_id is the key), and only a charger of the rate's site may have it.
 */
export function chargingRateRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** { [rateId]: cpIds, cpIds: every charger with a rate }, over the live rates of the user's sites. */
  app.get('/api/charging_rate_detail_cp_group', { schema: { response: { 200: GroupsAnswer } }, config: { doc: { summary: 'The chargers of each charging rate', privileges: [READ] } } }, async (req) => {
    const user = requirePrivileges(req, READ);
    const rows = await app.db.query<{ id: number; cp_ids: number[] }>(
      `SELECT r.id, coalesce(array_agg(c.cp_id ORDER BY c.cp_id) FILTER (WHERE c.cp_id IS NOT NULL), '{}') AS cp_ids
         FROM charging_rate r
         LEFT JOIN charging_rate_cp c ON c."chargingRateId" = r.id
         LEFT JOIN cps p ON p.cp_id = c.cp_id
        WHERE r.deleted_at IS NULL AND ($1::boolean OR r.loc_id = ANY($2::int[])) AND (c.cp_id IS NULL OR p.deleted_at IS NULL)
        GROUP BY r.id ORDER BY r.id`,
      [user.allSites, user.siteIds],
    );
    const groups: Record<string, number[]> = {};
    for (const r of rows) groups[String(r.id)] = r.cp_ids;
    return { ...groups, cpIds: rows.flatMap((r) => r.cp_ids).sort((a, b) => a - b) };
  });

  /** The rate's chargers become exactly cpIds: a charger of another rate moves to this one. Body text Success. */
  app.post('/api/charging_rate_detail_cp_group', { schema: { body: GroupBody, response: { 200: successText } }, config: { doc: { summary: 'Set the chargers of a charging rate', privileges: [EDIT] } } }, async (req, reply) => {
    const user = requirePrivileges(req, EDIT);
    const { chargingRateId, cpIds } = req.body;
    const wanted = [...new Set(cpIds)].sort((a, b) => a - b);
    await app.db.tx(async (sql) => {
      const rate = await rateOf(sql, chargingRateId, user);
      const here = await sql.query<{ cp_id: number }>(
        `SELECT cp_id FROM cps WHERE cp_id = ANY($1::int[]) AND loc_id = $2 AND deleted_at IS NULL`,
        [wanted, rate.loc_id],
      );
      const elsewhere = wanted.filter((id) => !here.some((c) => c.cp_id === id));
      if (elsewhere.length) throw badRequest(`Chargers not at the rate's site: ${elsewhere.join(', ')}`, { cpIds: 'cp_not_in_site' });
      const before = await sql.query<{ cp_id: number; chargingRateId: number }>(
        `SELECT cp_id, "chargingRateId" FROM charging_rate_cp WHERE "chargingRateId" = $1 OR cp_id = ANY($2::int[]) ORDER BY cp_id`,
        [chargingRateId, wanted],
      );
      await sql.query(`DELETE FROM charging_rate_cp WHERE "chargingRateId" = $1 AND NOT (cp_id = ANY($2::int[]))`, [chargingRateId, wanted]);
      await sql.query(
        `INSERT INTO charging_rate_cp (cp_id, "chargingRateId") SELECT unnest($2::int[]), $1
           ON CONFLICT (cp_id) DO UPDATE SET "chargingRateId" = EXCLUDED."chargingRateId", cre_dttm = now()`,
        [chargingRateId, wanted],
      );
      const moved = Object.fromEntries(before.filter((b) => b.chargingRateId !== chargingRateId).map((b) => [b.cp_id, b.chargingRateId]));
      await writeAudit(sql, user, {
        action: 'UPDATE', target: 'charging_rate', targetId: chargingRateId, remark: 'charger assignment',
        oldData: { cpIds: before.filter((b) => b.chargingRateId === chargingRateId).map((b) => b.cp_id) },
        newData: { cpIds: wanted, ...(Object.keys(moved).length ? { movedFrom: moved } : {}) },
      });
    });
    return reply.type('text/plain; charset=utf-8').send('Success');
  });
}
