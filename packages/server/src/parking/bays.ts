import type { Sql } from '../db/client.ts';

/** RSR states in which the RSR still holds its connector (booked, charging, or past its grace period with the car still there), as rsr/ counts them. */
export const ACTIVE_RSR_STATUSES = ['RemoteStarted', 'Charging', 'UnderPenalty'];

/** The bay row as the parking code reads it. */
export interface BayRow {
  id: number;
  bayId: string;
  type: string;
  status: string;
  locId: number | null;
  mallId: string | null;
  cpId: number | null;
  connectorId: number | null;
  licensePlate: string | null;
  brand: string | null;
  inTime: string | null;
  outTime: string | null;
  image: string | null;
}

export const BAY_COLUMNS = `id, "bayId", type, status, "locId", "mallId", "cpId", "connectorId", "licensePlate", brand, "inTime", "outTime", image`;

/** The active RSR of a connector (read only: cp_rsr is written by the RSR code), null when none. */
export async function activeRsr(sql: Sql, cpId: number | null, connectorId: number | null): Promise<{ rsr_id: number; bay_id: number | null } | null> {
  if (cpId === null || connectorId === null) return null;
  const [rsr] = await sql.query<{ rsr_id: number; bay_id: number | null }>(
    `SELECT rsr_id, bay_id FROM cp_rsr WHERE cp_id = $1 AND connector_id = $2 AND status = ANY($3::text[]) ORDER BY rsr_id DESC LIMIT 1`,
    [cpId, connectorId, ACTIVE_RSR_STATUSES],
  );
  return rsr ?? null;
}

/**
 * Whether the bay's connector is held through another bay (spec 40006): its active RSR was booked
 * for another bay (the connector was remapped, or that bay removed, while the RSR runs). A
 * connector has at most one live bay (hooks/bay.ts), so an RSR is the only way to hold it otherwise.
 */
export async function occupiedByAnotherBay(sql: Sql, bay: BayRow): Promise<boolean> {
  const rsr = await activeRsr(sql, bay.cpId, bay.connectorId);
  return rsr !== null && rsr.bay_id !== null && rsr.bay_id !== bay.id;
}
