import type { Sql } from '../db/client.ts';
import type { Charger } from './connection.ts';

export type IdTagStatus = 'Accepted' | 'Invalid';

/** How long an idTag sent with RemoteStartTransaction is accepted in the StartTransaction that follows. */
const REMOTE_START_WINDOW_MS = 10 * 60 * 1000;

/**
 * Whether an auth_card holds this idTag and is valid at this charger: active, and either valid
 * everywhere (no site, no charger), or for the charger's site, or for the charger itself.
 * idTag is a CiString (case-insensitive, OCPP 1.6 §7.11).
 */
export async function cardStatus(sql: Sql, charger: Charger, idTag: string): Promise<IdTagStatus> {
  const rows = await sql.query(
    `SELECT 1 FROM auth_card
      WHERE active = 1
        AND ((loc IS NULL AND cp IS NULL) OR loc = $2 OR cp = $3)
        AND upper($1) = ANY (regexp_split_to_array(upper(trim(rfid_cards)), '[\\s,;]+'))
      LIMIT 1`,
    [idTag, charger.locId, charger.cpId],
  );
  return rows.length ? 'Accepted' : 'Invalid';
}

/** idTags the portal sent in a RemoteStartTransaction, accepted when the charger starts with them. */
export class RemoteStarts {
  /** cp_id + idTag → until when it is accepted, and the charging time the portal asked for (minutes). */
  private readonly allowed = new Map<string, { until: number; minutes: number | null }>();

  allow(cpId: number, idTag: string, minutes: number | null = null, now = Date.now()): void {
    for (const [k, { until }] of this.allowed) if (until < now) this.allowed.delete(k);
    this.allowed.set(key(cpId, idTag), { until: now + REMOTE_START_WINDOW_MS, minutes });
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
