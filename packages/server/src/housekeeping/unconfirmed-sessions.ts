import type { FastifyInstance } from 'fastify';
import { closeSession } from '../ocpp/unconfirmed.ts';
import { getSetting } from '../settings.ts';

/** How often sessions past the auto-close time are looked for. */
const CHECK_INTERVAL_MS = 5 * 60_000;
/** Sessions closed per check; more wait for the next one. */
const BATCH = 100;

/**
 * Closes, with stop reason ClosedUnconfirmed, the running sessions flagged unconfirmed (ocpp/unconfirmed.ts)
 * at least app_config unconfirmed_auto_close_hours ago; 0, the default, is off. Answers how many it closed.
 * Several nodes may run it at once: a session is closed once (closeSession closes only a running one).
 */
export async function autoCloseUnconfirmed(app: FastifyInstance, now = new Date()): Promise<number> {
  const hours = Number(await getSetting(app.db, 'unconfirmed_auto_close_hours'));
  if (!hours) return 0;
  const due = await app.db.query<{ session_id: number; unconfirmed_reason: string }>(
    `SELECT session_id, unconfirmed_reason FROM cp_sessions
      WHERE session_end_time IS NULL AND unconfirmed_since IS NOT NULL AND unconfirmed_since <= $1
      ORDER BY unconfirmed_since LIMIT ${BATCH}`,
    [new Date(now.getTime() - hours * 3_600_000).toISOString()],
  );
  let closed = 0;
  for (const s of due) {
    const note = `No StopTransaction received: closed ${hours} h after the session became unconfirmed (${s.unconfirmed_reason})`;
    if (await closeSession(app, s.session_id, { reason: 'ClosedUnconfirmed', note })) closed++;
  }
  if (closed) app.log.info({ closed, hours }, 'unconfirmed sessions closed automatically');
  return closed;
}

/** Runs the auto-close every few minutes while the server is up; a check still running is not doubled. */
export function unconfirmedAutoClose(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= autoCloseUnconfirmed(app)
        .catch((err: unknown) => app.log.warn({ err }, 'unconfirmed sessions not auto-closed; the next check tries again'))
        .finally(() => (running = null));
    }, CHECK_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
