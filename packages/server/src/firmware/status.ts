import type { Sql } from '../db/client.ts';
import type { MessageHandler } from '../ocpp/handler-types.ts';

/**
 * What chargers say about firmware and diagnostics (issue 29): each charger's last
 * FirmwareStatusNotification and DiagnosticsStatusNotification (cp_firmware_status), and the state of
 * its row in the firmware job that last sent it UpdateFirmware (firmware_job_chargers).
 */

/** Rows waiting for the charger's word: sent (or being sent: the charger may answer quicker than the runner notes it) and not at an end. */
const WAITING = `(j.state IN ('Sent', 'Downloading', 'Downloaded', 'Installing', 'Installed') OR (j.state = 'Queued' AND j.claimed_at IS NOT NULL))`;
/** FirmwareStatusNotification statuses that are job states too (Idle is not). */
const JOB_STATUSES = new Set(['Downloading', 'Downloaded', 'DownloadFailed', 'Installing', 'Installed', 'InstallationFailed']);

/**
 * Moves a job row (j) to its next state (n.next), keeping when it came in its history. A row still Queued
 * was being sent: the charger's word came before the runner noted its answer, so Sent is noted too.
 */
const MOVE = `state = n.next, state_at = now(), history = j.history
  || CASE WHEN j.state = 'Queued' THEN jsonb_build_array(jsonb_build_object('state', 'Sent', 'at', now())) ELSE '[]'::jsonb END
  || jsonb_build_array(jsonb_build_object('state', n.next, 'at', now()))`;

async function remember(sql: Sql, cpId: number, kind: 'firmware' | 'diagnostics', status: string): Promise<void> {
  await sql.query(
    `INSERT INTO cp_firmware_status (cp_id, ${kind}_status, ${kind}_status_at) VALUES ($1, $2, now())
     ON CONFLICT (cp_id) DO UPDATE SET ${kind}_status = EXCLUDED.${kind}_status, ${kind}_status_at = EXCLUDED.${kind}_status_at`,
    [cpId, status],
  );
}

/**
 * A FirmwareStatusNotification: Installed after the charger already booted with a version is judged
 * at once (OCTT TC_044_1: the charger boots, then says Installed), else the next boot judges it.
 */
export async function firmwareStatus(sql: Sql, cpId: number, status: string): Promise<void> {
  await remember(sql, cpId, 'firmware', status);
  if (!JOB_STATUSES.has(status)) return;
  await sql.query(
    `WITH r AS (
       SELECT j.id, j.reported_version, f.version
         FROM firmware_job_chargers j JOIN firmware_jobs fj USING (firmware_job_id) JOIN firmware f USING (firmware_id)
        WHERE j.cp_id = $1 AND ${WAITING} ORDER BY j.sent_at DESC NULLS LAST LIMIT 1),
     n AS (SELECT r.id, CASE WHEN $2 = 'Installed' AND r.reported_version IS NOT NULL
                             THEN CASE WHEN r.reported_version = r.version THEN 'Verified' ELSE 'Mismatch' END
                             ELSE $2 END AS next FROM r)
     UPDATE firmware_job_chargers j SET ${MOVE} FROM n WHERE j.id = n.id`,
    [cpId, status],
  );
}

/** A BootNotification: the version the charger now runs judges its job row (Verified or Mismatch). */
export async function firmwareBooted(sql: Sql, cpId: number, version: string | undefined): Promise<void> {
  if (!version) return;
  // Installed: judged now. Downloaded / Installing with the image's version: it installed and rebooted
  // before saying so. Otherwise the version is kept for the Installed to come.
  await sql.query(
    `WITH r AS (
       SELECT j.id, j.state, f.version
         FROM firmware_job_chargers j JOIN firmware_jobs fj USING (firmware_job_id) JOIN firmware f USING (firmware_id)
        WHERE j.cp_id = $1 AND ${WAITING} ORDER BY j.sent_at DESC NULLS LAST LIMIT 1),
     n AS (SELECT r.id, CASE WHEN $2 = r.version AND r.state NOT IN ('Queued', 'Sent') THEN 'Verified'
                             WHEN r.state = 'Installed' THEN 'Mismatch' END AS next FROM r)
     UPDATE firmware_job_chargers j SET reported_version = $2,
            state = COALESCE(n.next, j.state), state_at = CASE WHEN n.next IS NULL THEN j.state_at ELSE now() END,
            history = CASE WHEN n.next IS NULL THEN j.history ELSE j.history || jsonb_build_array(jsonb_build_object('state', n.next, 'at', now())) END
       FROM n WHERE j.id = n.id`,
    [cpId, version],
  );
}

export const firmwareStatusNotification: MessageHandler = async ({ cs, conn }, p) => {
  await firmwareStatus(cs.db, conn.charger.cpId, String(p.status));
  return { response: {} };
};

export const diagnosticsStatusNotification: MessageHandler = async ({ cs, conn }, p) => {
  await remember(cs.db, conn.charger.cpId, 'diagnostics', String(p.status));
  return { response: {} };
};
