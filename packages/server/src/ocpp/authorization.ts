import type { Sql } from '../db/client.ts';
import type { Charger } from './connection.ts';

export type IdTagStatus = 'Accepted' | 'Blocked' | 'Invalid';

/** What an idTag may do at a charger, and the account it belongs to (linked to the session it starts). */
export interface IdTagAuthorization {
  status: IdTagStatus;
  accountId: number | null;
}

/** How long an idTag sent with RemoteStartTransaction is accepted in the StartTransaction that follows. */
const REMOTE_START_WINDOW_MS = 10 * 60 * 1000;

/** Card ids of a rfid_cards text, upper-cased (idTag is a CiString: case-insensitive, OCPP 1.6 §7.11). */
const CARDS = (column: string) => `regexp_split_to_array(upper(trim(${column})), '[\\s,;]+')`;

/**
 * Whether this idTag may charge at this charger. An account's card (its own or one of its
 * vehicles'): Accepted when the account (and vehicle) is active and valid at the charger's site
 * (loc_ids empty or naming it), Blocked when inactive, Invalid at another site. An auth_card:
 * Accepted when active and valid everywhere (no site, no charger), at the charger's site or for the
 * charger itself; Blocked when inactive. Anything else is Invalid. Deleted accounts and vehicles
 * hold no cards. Card numbers are unique across the three (the resources' hooks refuse a reused
 * one); should two rows still share one, Accepted wins, then Blocked.
 */
export async function cardStatus(sql: Sql, charger: Charger, idTag: string): Promise<IdTagAuthorization> {
  // An empty idTag names no card: a holder without cards (rfid_cards '') would otherwise match it.
  if (!idTag.trim()) return { status: 'Invalid', accountId: null };
  const rows = await sql.query<{ status: IdTagStatus; account_id: number | null }>(
    `WITH holders AS (
       SELECT a.acc_id AS account_id, a.acc_status = 1 AS active, a.loc_ids
         FROM accounts a
        WHERE a.deleted_at IS NULL AND upper($1) = ANY (${CARDS('a.rfid_cards')})
       UNION ALL
       SELECT a.acc_id, a.acc_status = 1 AND v.acc_status = 1, a.loc_ids
         FROM account_vehicles v JOIN accounts a ON a.acc_id = v.acc_id AND a.deleted_at IS NULL
        WHERE v.deleted_at IS NULL AND upper($1) = ANY (${CARDS('v.rfid_cards')})
     )
     SELECT status, account_id FROM (
       SELECT account_id,
              CASE WHEN NOT active THEN 'Blocked'
                   WHEN cardinality(loc_ids) = 0 OR $2::int = ANY (loc_ids) THEN 'Accepted'
                   ELSE 'Invalid' END AS status
         FROM holders
       UNION ALL
       SELECT NULL::int,
              CASE WHEN active <> 1 THEN 'Blocked'
                   WHEN (loc IS NULL AND cp IS NULL) OR loc = $2 OR cp = $3 THEN 'Accepted'
                   ELSE 'Invalid' END
         FROM auth_card
        WHERE upper($1) = ANY (${CARDS('rfid_cards')})
     ) x
     ORDER BY status = 'Accepted' DESC, status = 'Blocked' DESC
     LIMIT 1`,
    [idTag, charger.locId, charger.cpId],
  );
  return rows[0] ? { status: rows[0].status, accountId: rows[0].account_id } : { status: 'Invalid', accountId: null };
}

export type RemoteStartChange =
  | { op: 'allow'; cpId: number; idTag: string; minutes: number | null; accountId: number | null }
  | { op: 'revoke'; cpId: number; idTag: string };

/** idTags the portal sent in a RemoteStartTransaction, accepted when the charger starts with them. */
export class RemoteStarts {
  /** Told of every allow and revoke: with several nodes, the others keep the same list (cluster/node.ts). */
  onChange?: (change: RemoteStartChange) => void;

  /**
   * cp_id + idTag → until when it is accepted, the charging time the portal asked for (minutes),
   * and the account the member ID named (linked to the session).
   */
  private readonly allowed = new Map<string, { until: number; minutes: number | null; accountId: number | null }>();

  allow(cpId: number, idTag: string, minutes: number | null = null, accountId: number | null = null, now = Date.now()): void {
    for (const [k, { until }] of this.allowed) if (until < now) this.allowed.delete(k);
    this.allowed.set(key(cpId, idTag), { until: now + REMOTE_START_WINDOW_MS, minutes, accountId });
    this.onChange?.({ op: 'allow', cpId, idTag, minutes, accountId });
  }

  /** The account of the remote start this idTag follows, if its member ID named one. */
  accountOf(cpId: number, idTag: string, now = Date.now()): number | null {
    const entry = this.allowed.get(key(cpId, idTag));
    return entry && entry.until >= now ? entry.accountId : null;
  }

  /** The remote start was called off (an RSR cancelled): a StartTransaction with its idTag is no longer accepted. */
  revoke(cpId: number, idTag: string): void {
    this.allowed.delete(key(cpId, idTag));
    this.onChange?.({ op: 'revoke', cpId, idTag });
  }

  has(cpId: number, idTag: string, now = Date.now()): boolean {
    const until = this.allowed.get(key(cpId, idTag))?.until;
    return until !== undefined && until >= now;
  }

  /**
   * The duration of the remote start this StartTransaction follows, given out once: a later
   * session with the same idTag is the driver's own, not the one the portal timed.
   */
  takeMinutes(cpId: number, idTag: string, now = Date.now()): number | null {
    const entry = this.allowed.get(key(cpId, idTag));
    if (!entry || entry.until < now) return null;
    const { minutes } = entry;
    entry.minutes = null;
    return minutes;
  }
}

const key = (cpId: number, idTag: string) => `${cpId}\u0000${idTag.toUpperCase()}`;

/**
 * The account a remote start's member ID names: a member ID of digits is an account number (acc_id),
 * `refused` (spec 10014) when no account has it, or it is deleted, inactive or not valid at the
 * charger's site. Null for another member ID (a member of a third-party app, who has no account
 * here: started as before). `mobile` is the account's mobile number, digits only (null when none).
 */
export async function memberAccount(sql: Sql, memberId: unknown, locId: number | null): Promise<{ accountId: number; mobile: string | null } | null | 'refused'> {
  const text = memberId == null ? '' : String(memberId).trim();
  if (!/^\d+$/.test(text)) return null;
  if (text.length > 9) return 'refused';
  const [row] = await sql.query<{ acc_id: number; ok: boolean; mobile: string | null }>(
    `SELECT acc_id, acc_status = 1 AND (cardinality(loc_ids) = 0 OR $2::int = ANY (loc_ids)) AS ok,
            nullif(regexp_replace(coalesce(mobile_no, ''), '\\D', '', 'g'), '') AS mobile
       FROM accounts WHERE acc_id = $1 AND deleted_at IS NULL`,
    [Number(text), locId],
  );
  return row?.ok ? { accountId: row.acc_id, mobile: row.mobile } : 'refused';
}
