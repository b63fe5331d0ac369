import { SimulatedCharger } from '@ev/simulator';
import type { ConfigJson, ConfigSendResult } from '@ev/core';
import type { Sql } from '../db/client.ts';
import { addCharger } from './ocpp-support.ts';
import type { TestServer } from './server.ts';

/**
 * Chargers with a configuration to read back (issue 29), shared by the read-back, fleet and
 * conformance tests: a simulator charger over a real WebSocket and its current configuration.
 */

/**
 * A current configuration that wants a 30 s sample interval (the simulator has 60: drift), the session
 * ended on unplug (the simulator does so: no drift), and a vendor setting that goes as DataTransfer.
 */
export const DRIFT_CONFIG: ConfigJson = {
  'Meter Value Sample Interval (s)': { Type: 'Range', Authority: 'Everyone', Value: 30, Option: [5, 900, 5] },
  'End upon state A': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
  'Network Timeout (ms)': { Type: 'Range', Authority: 'Everyone', Value: 5000, Option: [500, 30000, 500] },
};

/** Makes config the charger's current configuration, with what the charger last answered per setting. */
export async function setCurrentConfig(
  sql: Sql,
  cpId: number,
  config: ConfigJson = DRIFT_CONFIG,
  lastSent: Record<string, ConfigSendResult> = { 'Network Timeout (ms)': 'Accepted' },
): Promise<void> {
  await sql.query(`INSERT INTO cp_config (cp_id, current, config_json, last_sent, sent_dttm) VALUES ($1, 1, $2, $3, now())`, [
    cpId,
    JSON.stringify(config),
    JSON.stringify(lastSent),
  ]);
}

/** A charger of the site with DRIFT_CONFIG as its configuration, connected as a simulator (stop it in afterAll). */
export async function startConfiguredCharger(
  s: TestServer,
  cpNo: string,
  opts: { locId: number; password?: string; config?: ConfigJson; connect?: boolean },
): Promise<{ cpId: number; sim: SimulatedCharger }> {
  const password = opts.password ?? `${cpNo.toLowerCase()}-pass`;
  const cpId = await addCharger(s.db, cpNo, { locId: opts.locId, password });
  await setCurrentConfig(s.db, cpId, opts.config ?? DRIFT_CONFIG);
  const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo, password, connectors: 2, reconnect: false, meterIntervalSec: 60 });
  if (opts.connect !== false) await sim.start();
  return { cpId, sim };
}
