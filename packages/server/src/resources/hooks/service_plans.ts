import type { ResourceHooks } from './types.ts';

/** Service plans: a plan accounts still subscribe to is not deleted from under them. */
export const hooks: ResourceHooks = {
  async checkDelete(sql, id) {
    const [row] = await sql.query(`SELECT 1 FROM account_service_plans WHERE plan_id = $1 AND deleted_at IS NULL LIMIT 1`, [id]);
    return row ? 'service_plan_in_use' : undefined;
  },
};
