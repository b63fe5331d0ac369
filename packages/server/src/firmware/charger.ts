import { FIRMWARE_JOB_STATES } from '@ev/core';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';

/** A charger's firmware as the charger view shows it (issue 29). */
export const ChargerFirmwareAnswer = z.object({
  installedVersion: z.string().nullable().describe('The firmwareVersion of its last BootNotification'),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  firmwareStatus: z.string().nullable().describe('Its last FirmwareStatusNotification'),
  firmwareStatusAt: z.iso.datetime().nullable(),
  diagnosticsStatus: z.string().nullable().describe('Its last DiagnosticsStatusNotification'),
  diagnosticsStatusAt: z.iso.datetime().nullable(),
  history: z.array(z.object({
    jobId: z.number(),
    version: z.string(),
    state: z.enum(FIRMWARE_JOB_STATES),
    stateAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    reportedVersion: z.string().nullable(),
  })),
});
export type ChargerFirmware = z.infer<typeof ChargerFirmwareAnswer>;

const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

export async function chargerFirmware(sql: Sql, cpId: number): Promise<ChargerFirmware> {
  const [row] = await sql.query<{
    firmware_version: string | null; charge_point_vendor: string | null; charge_point_model: string | null;
    firmware_status: string | null; firmware_status_at: Date | null; diagnostics_status: string | null; diagnostics_status_at: Date | null;
  }>(
    `SELECT c.firmware_version, c.charge_point_vendor, c.charge_point_model, s.firmware_status, s.firmware_status_at, s.diagnostics_status, s.diagnostics_status_at
       FROM cps c LEFT JOIN cp_firmware_status s USING (cp_id) WHERE c.cp_id = $1`,
    [cpId],
  );
  const history = await sql.query<{
    firmware_job_id: number; version: string; state: ChargerFirmware['history'][number]['state']; state_at: Date; sent_at: Date | null; reported_version: string | null;
  }>(
    `SELECT j.firmware_job_id, f.version, j.state, j.state_at, j.sent_at, j.reported_version
       FROM firmware_job_chargers j JOIN firmware_jobs fj USING (firmware_job_id) JOIN firmware f USING (firmware_id)
      WHERE j.cp_id = $1 ORDER BY j.id DESC LIMIT 50`,
    [cpId],
  );
  return {
    installedVersion: row?.firmware_version ?? null,
    vendor: row?.charge_point_vendor ?? null,
    model: row?.charge_point_model ?? null,
    firmwareStatus: row?.firmware_status ?? null,
    firmwareStatusAt: iso(row?.firmware_status_at ?? null),
    diagnosticsStatus: row?.diagnostics_status ?? null,
    diagnosticsStatusAt: iso(row?.diagnostics_status_at ?? null),
    history: history.map((h) => ({
      jobId: h.firmware_job_id, version: h.version, state: h.state, stateAt: iso(h.state_at)!, sentAt: iso(h.sent_at), reportedVersion: h.reported_version,
    })),
  };
}
