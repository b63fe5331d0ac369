import { buildCatalogs, storedText, type Catalog } from '@ev/core';
import type { Sql } from '../db/client.ts';

/** One refused or failed external call, as third_party_error_log keeps it. */
export interface ExternalFailure {
  appId?: string | null;
  action: string;
  chargerId?: string | null;
  connectorId?: number | null;
  memberId?: string | null;
  mallId?: string | null;
  carparkId?: string | null;
  errorCode: string | number;
  /** A stored text (storedText) shown in the reader's language. */
  reason: string;
}

const clip = (v: unknown, max = 200): string | null => (v == null || v === '' ? null : String(v).slice(0, max));

const CATALOG = buildCatalogs().en.translation.msg as Catalog;
const ERROR_TEXTS = (CATALOG.error ?? {}) as Catalog;
const EXTERNAL_TEXTS = ((CATALOG.log as Catalog).external ?? {}) as Catalog;

/**
 * A refusal's code as a stored text: msg.error.<code> for a numeric business code, msg.log.external.<code> for a
 * named one (a parking refusal), its parameters the plain values the app sent (bayId, sessionId); the refusal's
 * own message when the code has no text.
 */
export function codeReason(code: number | string | undefined, fallback?: string, input?: unknown): string {
  if (code !== undefined && typeof ERROR_TEXTS[String(code)] === 'string') return storedText(`msg.error.${code}`);
  const text = typeof code === 'string' ? EXTERNAL_TEXTS[code] : undefined;
  if (typeof text === 'string') {
    // Only the values the text names, each clipped: the reason column must hold the whole stored text.
    const sent = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
    const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
    return storedText(`msg.log.external.${code}`, Object.fromEntries(names.map((n) => [n, clip(sent[n], 100) ?? ''])));
  }
  return fallback ?? `error ${code ?? ''}`.trim();
}

/**
 * Writes the failure with the connector's status at that moment (a charger named by cp_no; unknown
 * chargers have none). Input from the caller is clipped: the log must take whatever a caller sends.
 */
export async function logExternalFailure(sql: Sql, f: ExternalFailure): Promise<void> {
  const connectorId = Number.isSafeInteger(f.connectorId) && f.connectorId! >= 0 && f.connectorId! < 2 ** 31 ? f.connectorId! : null;
  await sql.query(
    `INSERT INTO third_party_error_log (app_id, action, charger_id, connector_id, connector_status, error_code, member_id, mall_id, carpark_id, reason)
     VALUES ($1, $2, $3, $4::int,
       (SELECT c.status FROM cp_connectors c JOIN cps p ON p.cp_id = c.cp_id WHERE p.cp_no = $3 AND p.deleted_at IS NULL AND c.connector_id = $4::int LIMIT 1),
       $5, $6, $7, $8, $9)`,
    [clip(f.appId, 100), f.action, clip(f.chargerId, 100), connectorId, String(f.errorCode), clip(f.memberId), clip(f.mallId), clip(f.carparkId), clip(f.reason, 1000)],
  );
}
