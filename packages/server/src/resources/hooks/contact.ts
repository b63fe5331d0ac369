import { badRequest } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/** Contacts: one contact per e-mail address (any case); a deleted contact leaves its groups. */
export const hooks: ResourceHooks = {
  async beforeWrite({ sql, old }, data) {
    const cols = { ...data };
    if (typeof cols.email === 'string') {
      cols.email = cols.email.trim();
      const [hit] = await sql.query(
        `SELECT 1 FROM contact WHERE lower(email) = lower($1) AND contact_id <> $2 AND deleted_at IS NULL LIMIT 1`,
        [cols.email, old?.contact_id ?? 0],
      );
      if (hit) throw badRequest('email: duplicate', { email: 'duplicate' });
    }
    return cols;
  },

  async beforeDelete(sql, row) {
    await sql.query(`UPDATE contact_group SET contact_ids = array_remove(contact_ids, $1), lupd_dttm = now() WHERE $1 = ANY(contact_ids)`, [row.contact_id]);
  },
};
