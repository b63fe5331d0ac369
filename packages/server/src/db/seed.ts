import { allPrivilegeNames, retiredPrivilegeNames, SUPER_ADMIN_ROLE } from '@ev/core';
import type { Database } from './client.ts';
import { generatePassword, hashPassword } from '../crypto/passwords.ts';
import { seedSettings } from '../settings.ts';

export interface SeedResult {
  /** Set only when the admin user was created now with a generated password (print it once). */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

/**
 * Runs at every start: adds privileges that the code knows and the database does not, removes the
 * retired ones that granted nothing, keeps super_admin holding all of them, writes the known settings
 * missing from app_config with their defaults, and on an empty database creates the admin user.
 */
export async function seed(db: Database, adminPassword?: string): Promise<SeedResult> {
  return db.tx(async (sql) => {
    const names = allPrivilegeNames();
    await sql.query(
      `INSERT INTO privileges (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`,
      [names],
    );
    // Their grants go with them (role_privileges cascades).
    await sql.query(`DELETE FROM privileges WHERE name = ANY($1::text[])`, [retiredPrivilegeNames()]);
    await sql.query(
      `INSERT INTO roles (role, name_chi, level) VALUES ($1, '超級管理員', 1000) ON CONFLICT (role) DO NOTHING`,
      [SUPER_ADMIN_ROLE],
    );
    await sql.query(
      `INSERT INTO role_privileges (role_id, privilege_id)
       SELECT r.id, p.id FROM roles r CROSS JOIN privileges p WHERE r.role = $1
       ON CONFLICT DO NOTHING`,
      [SUPER_ADMIN_ROLE],
    );
    await seedSettings(sql);
    const [{ n }] = await sql.query(`SELECT count(*)::int AS n FROM users`);
    if (n > 0) return { adminCreated: false };
    const password = adminPassword ?? generatePassword();
    await sql.query(
      `INSERT INTO users (name, role_id, username, password_hash, active, cp_loc_flag)
       SELECT 'Administrator', id, 'admin', $2, 1, 1 FROM roles WHERE role = $1`,
      [SUPER_ADMIN_ROLE, await hashPassword(password)],
    );
    return { adminCreated: true, generatedAdminPassword: adminPassword ? undefined : password };
  });
}
