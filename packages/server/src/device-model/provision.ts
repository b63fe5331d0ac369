import type { FastifyInstance } from 'fastify';
import { readDone } from '../ocpp/boot-policy.ts';
import { storeRead, templateOf } from '../ocpp/config-readback.ts';
import { beginReport, restoreRequest } from './store.ts';

/** How long a Pending station's base report may take before it is accepted without it (tests shorten it). */
export const PROVISIONING = { reportTimeoutMs: 120_000 };

/**
 * A station answered Pending under the provision boot policy (ocpp/boot-policy.ts) is read, then triggered to
 * boot again, which is accepted: a 2.0.1 station's device model (GetBaseReport FullInventory, until its last
 * NotifyReport), a 1.6 charger's keys (GetConfiguration). A read that fails or times out still ends in the
 * trigger: the station is accepted without it. Commands go through the dispatcher, logged in cp_requests.
 */
export function bootProvisioning(app: FastifyInstance): void {
  const running = new Set<number>();
  app.bus.on('chargerMessage', ({ cpId, action, response }) => {
    // A Pending station booting again while its read runs (its interval passed) waits for that read.
    if (action !== 'BootNotification' || response.status !== 'Pending' || running.has(cpId)) return;
    running.add(cpId);
    // After the event, so that the BootNotification is answered before the read goes.
    setTimeout(() => {
      provision(app, cpId)
        .catch((err) => app.log.error({ err, cpId }, 'Pending charger not provisioned'))
        .finally(() => running.delete(cpId));
    }, 0);
  });
}

async function provision(app: FastifyInstance, cpId: number): Promise<void> {
  const conn = app.ocpp.central.connection(cpId);
  if (!conn) return;
  if (conn.charger.protocol === 'ocpp2.0.1') await readReport(app, cpId);
  else await readKeys(app, cpId);
  // Gone or replaced meanwhile: its next boot starts over.
  if (app.ocpp.central.connection(cpId) !== conn) return;
  readDone(conn.charger);
  const trigger = await app.ocpp.commands.send(cpId, 'TriggerMessage', { requestedMessage: 'BootNotification' });
  if (trigger.status !== 'success') app.log.warn({ cpId, trigger }, 'Pending charger not triggered to boot: accepted when it boots again');
}

async function readKeys(app: FastifyInstance, cpId: number): Promise<void> {
  const read = await app.ocpp.commands.send(cpId, 'GetConfiguration', {});
  if (read.status !== 'success') return;
  const template = await templateOf(app.db, cpId);
  await app.db.tx((sql) => storeRead(sql, cpId, undefined, read.result as Parameters<typeof storeRead>[3], template));
}

async function readReport(app: FastifyInstance, cpId: number): Promise<void> {
  const request = await beginReport(app.db, cpId, 'FullInventory');
  const complete = reportEnd(app, cpId, request.requestId);
  try {
    const asked = await app.ocpp.commands.send(cpId, 'GetBaseReport', { requestId: request.requestId, reportBase: 'FullInventory' });
    if (asked.status === 'success') await complete.done;
    else await restoreRequest(app.db, cpId, request.requestId, request.before);
  } finally {
    complete.stop();
  }
}

/** Resolves at the report's last part (tbc false), the charger's disconnect, or the timeout. */
function reportEnd(app: FastifyInstance, cpId: number, requestId: number): { done: Promise<void>; stop(): void } {
  let stop = () => {};
  const done = new Promise<void>((resolve) => {
    const onMessage = ({ cpId: from, action, params }: { cpId: number; action: string; params: any }) => {
      if (from === cpId && action === 'NotifyReport' && params?.requestId === requestId && !params.tbc) stop();
    };
    const onPresence = ({ cpId: from, online }: { cpId: number; online: boolean }) => {
      if (from === cpId && !online) stop();
    };
    const timer = setTimeout(() => stop(), PROVISIONING.reportTimeoutMs);
    stop = () => {
      clearTimeout(timer);
      app.bus.off('chargerMessage', onMessage);
      app.bus.off('chargerPresence', onPresence);
      resolve();
    };
    app.bus.on('chargerMessage', onMessage);
    app.bus.on('chargerPresence', onPresence);
  });
  return { done, stop: () => stop() };
}
