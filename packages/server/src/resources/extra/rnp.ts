import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, readPrivilege, SUPER_ADMIN_ROLE } from '@ev/core';
import { requirePrivileges } from '../../auth/guard.ts';
import { badRequest, notFound, notPermitted } from '../../http/errors.ts';
import { recordId } from '../../http/schema.ts';
import { writeAudit } from '../audit.ts';

const RnpBody = z.strictObject({ privileges: z.array(z.string().min(1).max(100)).max(2000) });
const RnpAnswer = z.object({
  roles: z.array(z.object({ id: z.int(), role: z.string(), name_chi: z.string(), level: z.int() })),
  privileges: z.array(z.object({ id: z.int(), name: z.string() })),
  /** By role id. */
  rolePrivileges: z.record(z.string(), z.array(z.string())).describe('the privilege names of each role, by role id'),
});

/** Role and permission settings (/rnp): the privileges each role holds, edited as one list. */
export function rnpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/rnp', { schema: { response: { 200: RnpAnswer } }, config: { doc: { summary: 'Roles and the privileges each holds', privileges: [readPrivilege('rnp')] } } }, async (req) => {
    requirePrivileges(req, readPrivilege('rnp'));
    const [roles, privileges, grants] = await Promise.all([
      app.db.query<{ id: number; role: string; name_chi: string; level: number }>(`SELECT id, role, name_chi, level FROM roles ORDER BY level DESC, id`),
      app.db.query<{ id: number; name: string }>(`SELECT id, name FROM privileges WHERE enable_flag = 1 ORDER BY name`),
      app.db.query(`SELECT rp.role_id, p.name FROM role_privileges rp JOIN privileges p ON p.id = rp.privilege_id`),
    ]);
    const rolePrivileges: Record<number, string[]> = Object.fromEntries(roles.map((r) => [r.id, []]));
    for (const g of grants) rolePrivileges[g.role_id]?.push(g.name);
    return { roles, privileges, rolePrivileges };
  });

  app.put('/api/rnp/:roleId', {
    schema: { params: z.strictObject({ roleId: recordId }), body: RnpBody, response: { 200: z.object({ status: z.literal('success') }) } },
    config: { doc: { summary: 'Set the privileges of a role (one of a lower level than the user\'s)', privileges: [editPrivilege('rnp')] } },
  }, async (req) => {
    const user = requirePrivileges(req, editPrivilege('rnp'));
    const { roleId } = req.params;
    const { privileges } = req.body;
    return app.db.tx(async (sql) => {
      const [role] = await sql.query(`SELECT id, role, level FROM roles WHERE id = $1 FOR UPDATE`, [roleId]);
      if (!role) throw notFound(`Role ${roleId} does not exist`);
      if (role.role === SUPER_ADMIN_ROLE) throw badRequest('The super_admin role always holds every privilege', { privileges: 'not_editable' });
      if (role.level > user.roleLevel) throw notPermitted('privileges');
      const wanted = [...new Set(privileges)];
      const known = await sql.query(`SELECT id, name FROM privileges WHERE name = ANY($1::text[])`, [wanted]);
      const unknown = wanted.filter((n) => !known.some((k) => k.name === n));
      if (unknown.length) throw badRequest(`Unknown privileges: ${unknown.join(', ')}`, { privileges: 'invalid' });
      const before = (await sql.query(
        `SELECT p.name FROM role_privileges rp JOIN privileges p ON p.id = rp.privilege_id WHERE rp.role_id = $1 ORDER BY p.name`,
        [roleId],
      )).map((r) => r.name as string);
      // Nobody grants or withdraws a privilege they do not hold themselves.
      const changed = [...wanted.filter((n) => !before.includes(n)), ...before.filter((n) => !wanted.includes(n))];
      const notHeld = changed.find((n) => !user.privileges.has(n));
      if (notHeld) throw badRequest(`Not permitted to grant or withdraw ${notHeld}`, { privileges: 'not_permitted' });
      await sql.query(`DELETE FROM role_privileges WHERE role_id = $1`, [roleId]);
      await sql.query(`INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, unnest($2::int[])`, [roleId, known.map((k) => k.id)]);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'rnp', targetId: roleId, oldData: { privileges: before }, newData: { privileges: wanted.sort() } });
      return { status: 'success' as const };
    });
  });
}
