import type { Sql } from '../db/client.ts';
import type { LmsMode } from '../lms/types.ts';
import { addCharger, addSite } from './ocpp-support.ts';

/** A site with load management on: one zone of `zoneA` amperes, chargers of min..max A each. */
export async function addLmsSite(
  sql: Sql,
  opts: { mode: LmsMode; zoneA: number; minA: number; maxA: number; chargers: string[] },
): Promise<{ locId: number; zoneId: number; profileId: number; cpIds: number[] }> {
  const locId = await addSite(sql);
  const [{ zone_id: zoneId }] = await sql.query(
    `INSERT INTO cp_zones (loc_id, name_chi, max_physical_current_limit) VALUES ($1, 'Z', $2) RETURNING zone_id`, [locId, opts.zoneA]);
  const [{ lms_profile_id: profileId }] = await sql.query(
    `INSERT INTO lms_profiles (name, cp_loc, mode) VALUES ('P', $1, $2) RETURNING lms_profile_id`, [locId, opts.mode]);
  await sql.query(
    `INSERT INTO zone_lms_profiles (lms_profile_id, zone_id, zone_max_available_current, max_charging_current, min_charging_current)
     VALUES ($1, $2, $3, $4, $5)`, [profileId, zoneId, opts.zoneA, opts.maxA, opts.minA]);
  await sql.query(`UPDATE cp_locs SET enable_lms = 1, lms_profile_id = $2 WHERE loc_id = $1`, [locId, profileId]);
  const cpIds: number[] = [];
  for (const cpNo of opts.chargers) {
    const cpId = await addCharger(sql, cpNo, { locId });
    await sql.query(`UPDATE cps SET zone_id = $2 WHERE cp_id = $1`, [cpId, zoneId]);
    cpIds.push(cpId);
  }
  return { locId, zoneId, profileId, cpIds };
}
