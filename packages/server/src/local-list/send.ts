import { ERROR_CODES, type ActionResult } from '@ev/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sendCommand, type ChargerRow, type CommandActor } from '../ocpp/routes.ts';
import { differences, fullList, listRow, storeReported, storeSent, wantedList } from './list.ts';

export type UpdateType = 'Full' | 'Differential';
/** SendLocalList's answers (OCPP 1.6 §6.46). */
export const LIST_ANSWERS = ['Accepted', 'Failed', 'NotSupported', 'VersionMismatch'] as const;
export type ListAnswer = (typeof LIST_ANSWERS)[number];

/** What the charger answered to a SendLocalList. */
export interface SendOutcome {
  updateType: UpdateType;
  listVersion: number;
  answer: ListAnswer;
  /** Entries sent: the whole list (Full) or the changes (Differential). */
  entries: number;
  /** The charger answered VersionMismatch to a Differential: this is the Full list sent after it. */
  fallbackFrom?: 'Differential';
}

/** Sends made by the portal itself (a card changed, a charger came back) are audited under this name. */
export const SYSTEM_ACTOR: CommandActor = { id: null, username: 'system' };

const isListAnswer = (v: unknown): v is ListAnswer => LIST_ANSWERS.includes(v as ListAnswer);

/**
 * Sends the charger its list: Full (every entry) or Differential (the changes since the last list it
 * Accepted). The version is one above both the one the portal expects and the one the charger last
 * reported, so that the charger takes a Differential. A VersionMismatch to a Differential is followed
 * by a Full list. The charger's answer is stored (Failed, NotSupported included); a command that got
 * no answer (offline, timeout) is answered with its error code and leaves the stored state as it was.
 * `skipEmpty`: a Differential without changes is not sent (the pending mark goes).
 */
export async function sendList(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  actor: CommandActor,
  cp: ChargerRow,
  updateType: UpdateType,
  opts: { skipEmpty?: boolean } = {},
): Promise<SendOutcome | ActionResult | null> {
  const startedAt = new Date();
  const row = await listRow(app.db, cp.cp_id);
  const wanted = await wantedList(app.db, cp.cp_id);
  const listVersion = Math.max(row?.expected_version ?? 0, row?.reported_version ?? 0) + 1;
  const list = updateType === 'Full' ? fullList(wanted) : differences(row?.entries ?? {}, wanted);
  if (opts.skipEmpty && updateType === 'Differential' && list.length === 0) {
    await app.db.query(`UPDATE cp_local_list SET pending_since = NULL WHERE cp_id = $1 AND pending_since <= $2`, [cp.cp_id, startedAt]);
    return null;
  }
  const result = await sendCommand(app, log, actor, cp, 'SendLocalList', { listVersion, updateType, localAuthorizationList: list });
  const status = (result.data as { status?: unknown } | undefined)?.status;
  // A CALLERROR (NotImplemented …) is the charger's answer too: kept by its error name.
  const callError = result.status === 'error' && result.errorCode === ERROR_CODES.CP_REJECTED && status === undefined
    ? (result.message ?? '').split(':')[0] || 'Error'
    : null;
  const answer = result.status === 'success' ? 'Accepted' : isListAnswer(status) ? status : callError;
  if (!answer) return result;
  await storeSent(app.db, { cpId: cp.cp_id, updateType, version: listVersion, answer, wanted, startedAt });
  if (!isListAnswer(answer)) return result;
  if (answer === 'VersionMismatch' && updateType === 'Differential') {
    const full = await sendList(app, log, actor, cp, 'Full');
    return full && 'answer' in full ? { ...full, fallbackFrom: 'Differential' } : full;
  }
  return { updateType, listVersion, answer, entries: list.length };
}

/** GetLocalListVersion: the version the charger holds (0 empty, -1 no local list), stored with the time. */
export async function checkVersion(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  actor: CommandActor,
  cp: ChargerRow,
): Promise<{ listVersion: number; reportedAt: string } | ActionResult> {
  const result = await sendCommand(app, log, actor, cp, 'GetLocalListVersion', {});
  const listVersion = (result.data as { listVersion?: unknown } | undefined)?.listVersion;
  if (result.status !== 'success' || typeof listVersion !== 'number') return result;
  const reportedAt = await storeReported(app.db, cp.cp_id, listVersion);
  return { listVersion, reportedAt: new Date(reportedAt).toISOString() };
}

/** The charger row sendCommand needs, for a send the portal makes by itself. */
async function chargerRow(app: FastifyInstance, cpId: number): Promise<ChargerRow | null> {
  const [cp] = await app.db.query<ChargerRow>(
    `SELECT cp_id, cp_no, loc_id, enable_flag, double_use_flag FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`,
    [cpId],
  );
  return cp ?? null;
}

/**
 * Sends pending card changes as a Differential to chargers connected to this node that hold a list
 * (each node does its own chargers). One send per charger at a time: a call while one runs makes it
 * run once more after, for a card written after it read the cards.
 */
export class PendingSender {
  private readonly running = new Set<number>();
  private readonly again = new Set<number>();

  constructor(private readonly app: FastifyInstance) {}

  /** Every connected charger with pending changes (a card was written). */
  async flushConnected(): Promise<void> {
    const ids = this.app.ocpp.central.connectedIds();
    if (!ids.length) return;
    const rows = await this.app.db.query<{ cp_id: number }>(
      `SELECT cp_id FROM cp_local_list WHERE pending_since IS NOT NULL AND expected_version > 0 AND cp_id = ANY($1::int[])`,
      [ids],
    );
    await Promise.all(rows.map((r) => this.flush(r.cp_id)));
  }

  /** One charger (it connected or booted): its pending changes, if any. */
  async flush(cpId: number): Promise<void> {
    if (this.running.has(cpId)) {
      this.again.add(cpId);
      return;
    }
    if (!this.app.ocpp.central.connection(cpId)) return;
    this.running.add(cpId);
    try {
      const row = await listRow(this.app.db, cpId);
      if (!row?.pending_since || row.expected_version === 0) return;
      const cp = await chargerRow(this.app, cpId);
      if (cp) await sendList(this.app, this.app.log, SYSTEM_ACTOR, cp, 'Differential', { skipEmpty: true });
    } finally {
      this.running.delete(cpId);
    }
    if (this.again.delete(cpId)) await this.flush(cpId);
  }
}
