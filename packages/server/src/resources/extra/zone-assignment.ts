import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/session.ts';
import type { Sql } from '../../db/client.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { recordId } from '../../http/schema.ts';
import { writeAudit } from '../audit.ts';

const AssignBody = z
  .array(z.strictObject({ cp_id: z.number().int().positive(), action: z.enum(['add', 'remove']) }))
  .max(5000);
const Checklist = z.object({
  dataset: z.object({
    content: z.array(z.object({ cp_id: z.int(), cp_no: z.string(), name: z.string(), zone_id: z.int().nullable(), assigned: z.literal([0, 1]) })),
    totalElements: z.int(),
    totalPages: z.int(),
  }),
});

async function zoneOf(sql: Sql, zoneId: number, user: AuthUser) {
  const [zone] = await sql.query(`SELECT zone_id, loc_id FROM cp_zones WHERE zone_id = $1`, [zoneId]);
  if (!zone) throw notFound(`Zone ${zoneId} does not exist`);
  if (!user.allSites && !user.siteIds.includes(zone.loc_id)) throw forbidden();
  return zone as { zone_id: number; loc_id: number };
}

/** The zone view's charger checklist: the chargers of the zone's site, ticked when in the zone. */
export function zoneAssignmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/cps/loc_id/:loc/zone_id/:zone/zone_assignment', {
    schema: { params: z.strictObject({ loc: recordId, zone: recordId }), response: { 200: Checklist } },
    config: { doc: { summary: 'The chargers of the zone\'s site, ticked when in the zone', privileges: [readPrivilege('cp_zones')] } },
  }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('cp_zones'));
    const zone = await zoneOf(app.db, req.params.zone, user);
    if (zone.loc_id !== req.params.loc) throw badRequest('The zone is not at that site', { loc: 'invalid' });
    const content = await app.db.query<z.infer<typeof Checklist>['dataset']['content'][number]>(
      `SELECT cp_id, cp_no, name, zone_id, (zone_id IS NOT DISTINCT FROM $2)::int AS assigned
         FROM cps WHERE loc_id = $1 AND deleted_at IS NULL ORDER BY cp_no`,
      [zone.loc_id, zone.zone_id],
    );
    return { dataset: { content, totalElements: content.length, totalPages: 1 } };
  });

  app.put('/api/cps/assign_zone/:zone_id', {
    schema: { params: z.strictObject({ zone_id: recordId }), body: AssignBody, response: { 200: z.object({ status: z.literal('success') }) } },
    config: { doc: { summary: 'Add chargers to a zone or remove them', privileges: [editPrivilege('cp_zones')] } },
  }, async (req) => {
    const user = requirePrivileges(req, editPrivilege('cp_zones'));
    const changes = req.body;
    const zoneId = req.params.zone_id;
    const result = await app.db.tx(async (sql) => {
      const zone = await zoneOf(sql, zoneId, user);
      const ids = changes.map((c) => c.cp_id);
      const chargers = await sql.query(`SELECT cp_id, loc_id, zone_id FROM cps WHERE cp_id = ANY($1::int[]) AND deleted_at IS NULL`, [ids]);
      const foreign = ids.filter((id) => !chargers.some((c) => c.cp_id === id && c.loc_id === zone.loc_id));
      if (foreign.length) throw badRequest(`Chargers not at the zone's site: ${foreign.join(', ')}`, { cp_id: 'invalid' });
      const add = changes.filter((c) => c.action === 'add').map((c) => c.cp_id);
      const remove = changes.filter((c) => c.action === 'remove').map((c) => c.cp_id);
      await sql.query(`UPDATE cps SET zone_id = $1, lupd_dttm = now() WHERE cp_id = ANY($2::int[])`, [zoneId, add]);
      await sql.query(`UPDATE cps SET zone_id = NULL, lupd_dttm = now() WHERE cp_id = ANY($2::int[]) AND zone_id = $1`, [zoneId, remove]);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'cp_zones', targetId: zoneId, remark: 'zone assignment', newData: { add, remove } });
      return { status: 'success' as const };
    });
    // Load management follows chargers moving between zones.
    app.bus.emit('resourceChanged', { key: 'cp_zones', action: 'UPDATE', id: zoneId, changed: ['cp_ids'] });
    return result;
  });
}
