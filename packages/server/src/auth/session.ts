import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/client.ts';

/** The signed-in user as every route sees it. */
export interface AuthUser {
  id: number;
  username: string;
  name: string;
  role: string;
  roleLevel: number;
  privileges: Set<string>;
  /** True when the user may see every site (cp_loc_flag 1). */
  allSites: boolean;
  /** The sites the user is restricted to when allSites is false. */
  siteIds: number[];
  tokenId: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(sql: Sql, userId: number, ip: string, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql.query(
    `INSERT INTO login_tokens (user_id, token_hash, ip, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))`,
    [userId, hashToken(token), ip, ttlHours],
  );
  return token;
}

/** Resolves a bearer token to its user, or null when unknown, expired, revoked or the user is inactive. */
export async function resolveToken(sql: Sql, token: string, ttlHours: number): Promise<AuthUser | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const rows = await sql.query(
    `SELECT t.id AS token_id, t.last_used_dttm < now() - interval '1 minute' AS stale,
            u.id, u.username, u.name, u.cp_loc_flag, r.role, r.level,
            coalesce((SELECT array_agg(p.name) FROM role_privileges rp JOIN privileges p ON p.id = rp.privilege_id
                      WHERE rp.role_id = r.id AND p.enable_flag = 1), '{}') AS privileges,
            coalesce((SELECT array_agg(s.loc_id) FROM user_sites s WHERE s.user_id = u.id), '{}') AS site_ids
       FROM login_tokens t JOIN users u ON u.id = t.user_id JOIN roles r ON r.id = u.role_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()
        AND u.active = 1 AND u.deleted_at IS NULL`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.stale) {
    // Sliding expiry, written at most once a minute per token to keep reads cheap.
    await sql.query(
      `UPDATE login_tokens SET last_used_dttm = now(), expires_at = now() + make_interval(hours => $2) WHERE id = $1`,
      [row.token_id, ttlHours],
    );
  }
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    role: row.role,
    roleLevel: row.level,
    privileges: new Set(row.privileges),
    allSites: row.cp_loc_flag === 1,
    siteIds: row.site_ids,
    tokenId: row.token_id,
  };
}

export async function revokeToken(sql: Sql, tokenId: number): Promise<void> {
  await sql.query(`UPDATE login_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [tokenId]);
}

/** Ends every session of a user (deactivation, password change). */
export async function revokeUserTokens(sql: Sql, userId: number): Promise<void> {
  await sql.query(`UPDATE login_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
}

export async function writeUserLog(
  sql: Sql,
  entry: { type: 'LOGIN' | 'LOGIN_FAILED' | 'LOGOUT'; username: string; userId?: number | null; ip: string; msg: string },
): Promise<void> {
  await sql.query(`INSERT INTO user_log (type, username, user_id, ip, msg) VALUES ($1, $2, $3, $4, $5)`, [
    entry.type,
    entry.username,
    entry.userId ?? null,
    entry.ip,
    entry.msg,
  ]);
}
