import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';

/** Writes one row of portal_action_log: who did what to which record, with the data before and after. */
export async function writeAudit(
  sql: Sql,
  user: Pick<AuthUser, 'id' | 'username'> | undefined,
  entry: { action: 'CREATE' | 'UPDATE' | 'DELETE' | 'COMMAND'; target: string; targetId?: string | number | null; oldData?: unknown; newData?: unknown; remark?: string },
): Promise<void> {
  await sql.query(
    `INSERT INTO portal_action_log (action, target, target_id, old_data, new_data, remark, cre_user, user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      entry.action,
      entry.target,
      entry.targetId == null ? null : String(entry.targetId),
      entry.oldData === undefined ? null : JSON.stringify(entry.oldData),
      entry.newData === undefined ? null : JSON.stringify(entry.newData),
      entry.remark ?? null,
      user?.username ?? null,
      user?.id ?? null,
    ],
  );
}
