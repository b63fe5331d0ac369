import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../crypto/passwords.ts';
import type { BootPolicy } from '@ev/core';
import type { Database } from '../db/client.ts';
import type { BootState } from './boot-policy.ts';

/** Sign-ins read together: one SELECT for all the chargers connecting meanwhile (a reconnect storm). */
const MAX_SIGN_IN_BATCH = 1000;

type SignInWaiter = { resolve: (row: ChargerRow | undefined) => void; reject: (err: unknown) => void };

export interface ChargerRow {
  cp_id: number;
  cp_no: string;
  loc_id: number;
  enable_flag: number;
  ocpp_password_hash: string | null;
  /** During a rotation (charger-credentials/): the sign-in before it, still accepted (null: no password). */
  ocpp_password_previous_hash: string | null;
  ocpp_password_rotating: boolean;
  charge_box_serial_number: string | null;
  heartbeat_interval: number;
  /** What its boots are answered, and the last answer when it was not Accepted (boot-policy.ts). */
  boot_policy: BootPolicy;
  boot_status: BootState | null;
}

/** What a charger's sign-in reads: its cps row (batched across a reconnect storm) and whether its password matches. */
export class SignInLookup {
  /** cp_id → hash and password digest of the last successful sign-in: a reconnect storm costs no scrypt. */
  private readonly verified = new Map<number, { hash: string; digest: Buffer }>();
  /** Sign-ins waiting for the next batched SELECT, and whether one is running. */
  private readonly waiting = new Map<string, SignInWaiter[]>();
  private running = false;

  constructor(private readonly db: Database) {}

  /** A cached sign-in must not outlive the password it was checked against. */
  forget(cpId: number): void {
    this.verified.delete(cpId);
  }

  /**
   * The live cps row of a charger signing in, read fresh. Sign-ins arriving while a read runs are
   * read together by the next one (cp_no = ANY, through the partial unique index): a storm of
   * 15,000 costs some tens of SELECTs instead of 15,000 queued for the pool.
   */
  row(cpNo: string): Promise<ChargerRow | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(cpNo);
      if (waiting) waiting.push({ resolve, reject });
      else this.waiting.set(cpNo, [{ resolve, reject }]);
      if (!this.running) void this.readBatch();
    });
  }

  private async readBatch(): Promise<void> {
    this.running = true;
    while (this.waiting.size) {
      const batch = new Map<string, SignInWaiter[]>();
      for (const [cpNo, waiting] of this.waiting) {
        if (batch.size >= MAX_SIGN_IN_BATCH) break;
        batch.set(cpNo, waiting);
        this.waiting.delete(cpNo);
      }
      try {
        const rows = await this.db.query<ChargerRow>(
          `SELECT cp_id, cp_no, loc_id, enable_flag, ocpp_password_hash, ocpp_password_previous_hash, ocpp_password_rotating,
                  charge_box_serial_number, heartbeat_interval, boot_policy, boot_status
             FROM cps WHERE cp_no = ANY($1::text[]) AND deleted_at IS NULL`,
          [[...batch.keys()]],
        );
        const byNo = new Map(rows.map((r) => [r.cp_no, r]));
        for (const [cpNo, waiting] of batch) for (const w of waiting) w.resolve(byNo.get(cpNo));
      } catch (err) {
        for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
      }
    }
    this.running = false;
  }

  /**
   * Which of the charger's passwords the sign-in gave: its password, or during a rotation the one
   * before (or none, when it had none), which the charger uses until it reconnects with the new one.
   */
  async passwordGiven(cp: ChargerRow, password: Buffer | undefined): Promise<'current' | 'previous' | null> {
    if (password && (await this.passwordMatches(cp.cp_id, cp.ocpp_password_hash!, password))) return 'current';
    if (!cp.ocpp_password_rotating) return null;
    const previous = cp.ocpp_password_previous_hash;
    if (!previous) return password ? null : 'previous';
    return password && (await this.passwordMatches(cp.cp_id, previous, password)) ? 'previous' : null;
  }

  private async passwordMatches(cpId: number, hash: string, password: Buffer): Promise<boolean> {
    const digest = createHash('sha256').update(password).digest();
    const known = this.verified.get(cpId);
    if (known && known.hash === hash && timingSafeEqual(known.digest, digest)) return true;
    const ok = await verifyPassword(password.toString('utf8'), hash);
    if (ok) this.verified.set(cpId, { hash, digest });
    return ok;
  }
}
