import type { Database } from '../../db/client.ts';

/** How long an unlock waits for the transaction it stopped to end (the station's TransactionEvent Ended). */
const END_WAIT_MS = 15_000;

/**
 * The transaction (our tran_id) running on a 2.0.1 station's connector, if any. Such a station keeps the
 * cable locked during a transaction and answers an unlock OngoingAuthorizedTransaction (OCPP 2.0.1 F05),
 * where a 1.6 charger ends the transaction and unlocks: the portal's unlock stops it first, so the same
 * button does the same on both.
 */
export async function transactionBlockingUnlock(db: Database, cpId: number, connectorId: number): Promise<number | null> {
  const [row] = await db.query<{ tran_id: number }>(
    `SELECT s.tran_id FROM cp_sessions s JOIN cps c ON c.cp_id = s.cp_id
      WHERE s.cp_id = $1 AND s.connector_id = $2 AND s.session_end_time IS NULL AND c.ocpp_protocol = 'ocpp2.0.1'
      ORDER BY s.session_id DESC LIMIT 1`,
    [cpId, connectorId],
  );
  return row?.tran_id ?? null;
}

/** Waits until the station's Ended event closed the transaction; false if it did not within END_WAIT_MS. */
export async function transactionEnded(db: Database, cpId: number, tranId: number): Promise<boolean> {
  const until = Date.now() + END_WAIT_MS;
  while (Date.now() < until) {
    const [row] = await db.query<{ ended: boolean }>(
      `SELECT session_end_time IS NOT NULL AS ended FROM cp_sessions WHERE cp_id = $1 AND tran_id = $2 ORDER BY session_id DESC LIMIT 1`,
      [cpId, tranId],
    );
    if (!row || row.ended) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
