import { SimulatedCharger, type FirmwareOptions } from '@ev/simulator';
import type { TestServer } from '../testing/server.ts';
import { eventually } from '../testing/ocpp-support.ts';

/** Fixtures of the firmware tests: an image, a simulator quick at updating, a job's progress awaited. */

export async function addImage(s: TestServer, version: string, model: string | null = 'Sim-AC22'): Promise<number> {
  const [row] = await s.db.query(
    `INSERT INTO firmware (version, charge_point_vendor, charge_point_model, url) VALUES ($1, 'EVSim', $2, $3) RETURNING firmware_id`,
    [version, model, `https://fw.example.com/evsim-${version}.bin`],
  );
  return row.firmware_id;
}

/** A charger that updates in a few tens of milliseconds and restarts at once. */
export function quickCharger(s: TestServer, cpNo: string, firmware: FirmwareOptions = {}): SimulatedCharger {
  return new SimulatedCharger({
    url: `${s.wsUrl}/ocpp`, cpNo, connectors: 1, reconnect: false, rebootDelayMs: 20, firmwareVersion: '1.0.0', firmware: { stepMs: 20, ...firmware },
  });
}

/** Waits (up to timeoutMs) until the job's progress satisfies done, and answers it. */
export async function progressWhen(s: TestServer, token: string, jobId: number, done: (p: any) => boolean, timeoutMs = 8000): Promise<any> {
  let last: any;
  await eventually(async () => {
    last = (await s.api('GET', `/api/firmware_jobs/${jobId}/progress`, { token })).body;
    return done(last);
  }, timeoutMs);
  return last;
}
