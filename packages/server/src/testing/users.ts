import { hashPassword } from '../crypto/passwords.ts';
import type { TestServer } from './server.ts';

/**
 * Creates a role holding exactly these privileges and a user of it, kept to `sites` (or seeing
 * every site); signs the user in and answers the token.
 */
export async function userWith(s: TestServer, name: string, privileges: string[], sites: number[] | 'all' = 'all'): Promise<string> {
  const [role] = await s.db.query(`INSERT INTO roles (role, name_chi, level) VALUES ($1, $1, 5) RETURNING id`, [`role-${name}`]);
  await s.db.query(`INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, id FROM privileges WHERE name = ANY($2::text[])`, [role.id, privileges]);
  const [user] = await s.db.query(
    `INSERT INTO users (name, role_id, username, password_hash, cp_loc_flag) VALUES ($1, $2, $1, $3, $4) RETURNING id`,
    [name, role.id, await hashPassword(`${name}-password`), sites === 'all' ? 1 : 0],
  );
  for (const loc of sites === 'all' ? [] : sites) await s.db.query(`INSERT INTO user_sites (user_id, loc_id) VALUES ($1, $2)`, [user.id, loc]);
  return s.login(name, `${name}-password`);
}
