import { SUPER_ADMIN_ROLE } from '@ev/core';
import { badRequest, forbidden, HttpError } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/** Roles: nobody creates or removes a role ranked above their own; a role in use cannot go. */
export const hooks: ResourceHooks = {
  async beforeWrite({ user }, data) {
    if (data.level !== undefined && Number(data.level) > user.roleLevel) {
      throw badRequest('level: max', { level: 'max' });
    }
    return data;
  },

  async checkDelete(sql, id) {
    const [{ n }] = await sql.query(`SELECT count(*)::int AS n FROM users WHERE role_id = $1 AND deleted_at IS NULL`, [id]);
    return n > 0 ? 'role_in_use' : undefined;
  },

  async beforeDelete(sql, row, user) {
    if (row.role === SUPER_ADMIN_ROLE) throw badRequest('The super_admin role cannot be deleted', { role: 'not_editable' });
    if (row.level > user.roleLevel) throw forbidden();
    const [{ n }] = await sql.query(`SELECT count(*)::int AS n FROM users WHERE role_id = $1`, [row.id]);
    if (n > 0) throw new HttpError(409, { errors: ['role_in_use'], fields: {}, message: 'Users still have this role' });
  },
};
