import type { Sql } from '../db/client.ts';

/**
 * The demo's firmware (npm run demo, issue 29): the image the simulated chargers run (EVSim 1.0.0) and a
 * finished job that installed it on the chargers of the first site, each Verified by its boot. Added once.
 */
export async function addDemoFirmware(sql: Sql, cpIds: number[]): Promise<void> {
  if (!cpIds.length || (await sql.query(`SELECT 1 FROM firmware WHERE notes = 'demo'`)).length) return;
  const [{ firmware_id }] = await sql.query<{ firmware_id: number }>(
    `INSERT INTO firmware (version, charge_point_vendor, charge_point_model, url, checksum, notes)
     VALUES ('1.0.0', 'EVSim', 'Sim-AC22', 'https://firmware.example.com/evsim/evsim-1.0.0.bin', 'sha256:demo', 'demo') RETURNING firmware_id`,
  );
  await sql.query(
    `INSERT INTO firmware (version, charge_point_vendor, charge_point_model, url, notes)
     VALUES ('1.1.0', 'EVSim', 'Sim-AC22', 'https://firmware.example.com/evsim/evsim-1.1.0.bin', 'Next release: start a job for a site to see the chargers update')`,
  );
  const [{ firmware_job_id }] = await sql.query<{ firmware_job_id: number }>(
    `INSERT INTO firmware_jobs (firmware_id, target_kind, target_ids, retrieve_date, max_failure_pct, wave_size, status, total, created_by_name, finished_at, cre_dttm)
     VALUES ($1, 'chargers', $2, now() - interval '1 day', 20, 2, 'Finished', $3, 'demo', now() - interval '23 hours', now() - interval '1 day')
     RETURNING firmware_job_id`,
    [firmware_id, cpIds, cpIds.length],
  );
  // Each charger's way through the update, a minute per step, a wave of two every ten minutes.
  await sql.query(
    `WITH c AS (
       SELECT cp_id, cp_no, now() - interval '1 day' + ((row_number() OVER (ORDER BY cp_no) - 1) / 2) * interval '10 minutes' AS t0
         FROM cps WHERE cp_id = ANY($2::int[]))
     INSERT INTO firmware_job_chargers (firmware_job_id, cp_id, cp_no, state, state_at, claimed_at, sent_at, reported_version, history)
     SELECT $1, c.cp_id, c.cp_no, 'Verified', c.t0 + interval '5 minutes', c.t0, c.t0, '1.0.0',
            (SELECT jsonb_agg(jsonb_build_object('state', x.s, 'at', c.t0 + (x.i - 1) * interval '1 minute') ORDER BY x.i)
               FROM unnest(ARRAY['Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Verified']) WITH ORDINALITY AS x(s, i))
       FROM c`,
    [firmware_job_id, cpIds],
  );
}
