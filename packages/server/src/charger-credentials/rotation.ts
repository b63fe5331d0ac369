import type { Database, Sql } from '../db/client.ts';

/** What the portal shows of a charger's password: never the password or its hash. */
export interface PasswordState {
  set: boolean;
  changedAt: string | null;
  rotating: boolean;
  online: boolean;
}

/** The columns a rotation changes, as they were before it: put back when the charger refused it. */
interface Before {
  ocpp_password_hash: string | null;
  ocpp_password_previous_hash: string | null;
  ocpp_password_rotating: boolean;
  password_changed_at: Date | null;
}

export async function passwordState(db: Sql, cpId: number): Promise<PasswordState> {
  const [row] = await db.query<{ set: boolean; changed_at: Date | null; rotating: boolean; online_flag: number }>(
    `SELECT ocpp_password_hash IS NOT NULL AS set, password_changed_at AS changed_at, ocpp_password_rotating AS rotating, online_flag
       FROM cps WHERE cp_id = $1`,
    [cpId],
  );
  return { set: row.set, changedAt: row.changed_at ? new Date(row.changed_at).toISOString() : null, rotating: row.rotating, online: row.online_flag === 1 };
}

/**
 * Starts a rotation: the new hash is the charger's password from now on, the one before (or none) is
 * still accepted while ocpp_password_rotating. Stored before the command goes out, so that a charger
 * reconnecting the moment it accepted is let in. A rotation over an unfinished one keeps the password
 * the charger last accepted, the newest, as the one before.
 */
export async function startRotation(db: Database, cpId: number, hash: string): Promise<Before> {
  return db.tx(async (sql) => {
    const [before] = await sql.query<Before>(
      `SELECT ocpp_password_hash, ocpp_password_previous_hash, ocpp_password_rotating, password_changed_at FROM cps WHERE cp_id = $1 FOR UPDATE`,
      [cpId],
    );
    await sql.query(
      `UPDATE cps SET ocpp_password_previous_hash = ocpp_password_hash, ocpp_password_hash = $2, ocpp_password_rotating = true,
              password_changed_at = now() WHERE cp_id = $1`,
      [cpId, hash],
    );
    return before;
  });
}

/** The charger refused the new password: the columns are put back, unless another change came meanwhile. */
export async function undoRotation(db: Sql, cpId: number, hash: string, before: Before): Promise<void> {
  await db.query(
    `UPDATE cps SET ocpp_password_hash = $3, ocpp_password_previous_hash = $4, ocpp_password_rotating = $5, password_changed_at = $6
      WHERE cp_id = $1 AND ocpp_password_hash = $2`,
    [cpId, hash, before.ocpp_password_hash, before.ocpp_password_previous_hash, before.ocpp_password_rotating, before.password_changed_at],
  );
}

/** The charger signed in with its new password (central-system.ts): the one before is accepted no more. */
export async function rotationDone(db: Sql, cpId: number, hash: string): Promise<void> {
  await db.query(
    `UPDATE cps SET ocpp_password_previous_hash = NULL, ocpp_password_rotating = false
      WHERE cp_id = $1 AND ocpp_password_hash = $2 AND ocpp_password_rotating`,
    [cpId, hash],
  );
}
