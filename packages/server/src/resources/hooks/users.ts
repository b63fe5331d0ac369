import { hashPassword } from '../../crypto/passwords.ts';
import { revokeUserTokens } from '../../auth/session.ts';
import type { Sql } from '../../db/client.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

async function roleLevel(sql: Sql, roleId: number): Promise<number | undefined> {
  const [row] = await sql.query(`SELECT level FROM roles WHERE id = $1`, [roleId]);
  return row?.level;
}

/** Users: passwords hashed, sites kept in user_sites, sessions ended on deactivation or new password. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    loc_id: `coalesce((SELECT array_agg(s.loc_id ORDER BY s.loc_id) FROM user_sites s WHERE s.user_id = t.id), '{}'::int[])`,
  },

  async beforeWrite({ sql, user, mode, old }, data) {
    // Nobody manages a user ranked above themselves (handing out a role above one's own is refused
    // with the role option list, which offers only roles up to the user's level).
    if (old && ((await roleLevel(sql, old.role_id)) ?? 0) > user.roleLevel) throw forbidden();
    const { password, confirm_password: _confirm, loc_id: _sites, ...cols } = data;
    if (typeof password === 'string' && password !== '') cols.password_hash = await hashPassword(password);
    else if (mode === 'create') throw badRequest('password: required', { password: 'required' });
    return cols;
  },

  async afterWrite({ sql, mode, old }, id, data) {
    if (Array.isArray(data.loc_id)) {
      await sql.query(`DELETE FROM user_sites WHERE user_id = $1`, [id]);
      await sql.query(`INSERT INTO user_sites (user_id, loc_id) SELECT $1, unnest($2::int[])`, [id, data.loc_id]);
    }
    const newPassword = typeof data.password === 'string' && data.password !== '';
    const deactivated = data.active === 0 && old?.active !== 0;
    if (mode === 'update' && (newPassword || deactivated)) await revokeUserTokens(sql, id);
  },

  async beforeDelete(sql, row, user) {
    if (row.id === user.id) throw badRequest('You cannot delete your own account', { id: 'not_editable' });
    if (((await roleLevel(sql, row.role_id)) ?? 0) > user.roleLevel) throw forbidden();
    await revokeUserTokens(sql, row.id);
  },
};
