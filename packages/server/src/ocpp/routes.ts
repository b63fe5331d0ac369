import { CHARGING_STATUSES, ERROR_CODES, P, RESOURCES, startRefusal, type ActionResult } from '@ev/core';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { cableMissing, checkStartForm } from './start-rules.ts';
import { InvalidCommandError, maskSecrets, type CommandAction, type CommandOutcome } from './commands.ts';
import { rsrRemoteStart, type RsrFields } from '../rsr/start.ts';
import { lmsClash, ProfileInput, toOcppProfile } from '../charging-profiles/profile.ts';
import { transactionBlockingUnlock, transactionEnded } from './v201/unlock.ts';
import { chargerProtocol, require201, triggerEachEvse } from './v201/evse-targets.ts';

/** Longest charging time a remote start may ask for, in minutes (a year): beyond it is a typing mistake. */
const MAX_START_MINUTES = 366 * 24 * 60;

const int = (min: number) =>
  z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(min).max(2 ** 31 - 1));
const text = z.union([z.string().max(2000), z.number()]).nullish();

const startBody = z.object({
  connectorId: int(1),
  // Checked separately: a non-numeric duration is the business error 10003, not a 400.
  time: z.union([z.string(), z.number()]).nullish(),
  startCode: text,
  lp: text,
  entryTime: text,
  isFree: z.union([z.boolean(), z.number(), z.string()]).nullish(),
  remark: text,
  memberId: text,
  bayId: text,
  chargingProfile: ProfileInput.optional().describe('A TxProfile sent with the start (needs the charging profile privilege too)'),
}).strict();
const connectorBody = z.object({ connectorId: int(1), remark: text }).strict();
/** An optional positive id in a query string (an empty value: none). */
const optionalId = z.union([int(1), z.literal('').transform(() => undefined)]).optional();
const resetQuery = z.object({
  type: z.enum(['Hard', 'Soft']),
  evseId: optionalId.describe('OCPP 2.0.1 only: reset this EVSE (the portal\'s connector) instead of the whole station; 400 for any other charger'),
}).strict();
const diagnosticsQuery = z.object({ location: z.string().url().max(512).optional() }).strict();
const availabilityQuery = z.object({
  availabilityType: z.enum(['Operative', 'Inoperative', 'Available', 'Unavailable']),
  evseConnectorId: optionalId.describe('OCPP 2.0.1 only: one connector within the EVSE (the path\'s connector); 400 for any other charger or for connector 0'),
}).strict();
const triggerQuery = z.object({
  // Spec §7 lists the call without parameters: by itself it asks for the status of every connector.
  requestedMessage: z
    .enum(['BootNotification', 'DiagnosticsStatusNotification', 'FirmwareStatusNotification', 'Heartbeat', 'MeterValues', 'StatusNotification'])
    .default('StatusNotification'),
  connectorId: z.union([int(0), z.literal('').transform(() => undefined)]).optional(),
}).strict();

export interface ChargerRow {
  cp_id: number;
  cp_no: string;
  loc_id: number;
  enable_flag: number;
  double_use_flag: number;
}

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });

/** The answer of a remote action (core's ActionResult): HTTP 200 either way, the spec's errorCode when it did not succeed. */
export const ActionAnswer = z.object({
  status: z.enum(['success', 'error']),
  errorCode: z.number().int().optional(),
  message: z.string().optional(),
  data: z.unknown().optional().describe('The charger\'s answer, when it gave one'),
}) satisfies z.ZodType<ActionResult>;
/** A request refused before anything was done (charger not found …): the spec's errorCode alone. */
export const RefusedAnswer = z.object({ status: z.literal('error'), errorCode: z.number().int() });

/** Who sends a command, as the audit log names them: a portal user, or a third-party app (id null). */
export interface CommandActor {
  id: number | null;
  username: string;
}

/** What a remote start asks for once the charger is known (the portal's form, a third-party app's call). */
export interface RemoteStart extends RsrFields {
  connectorId: number;
  /** Minutes of charging after which the session is stopped (more than 0: startMinutes). */
  minutes: number;
  memberId?: string | number | null;
  startCode?: string | number | null;
  remark?: unknown;
  /** The OCPP TxProfile sent with the start (charging-profiles/profile.ts toOcppProfile). */
  chargingProfile?: Record<string, unknown>;
}

/**
 * The charging time of a remote start in minutes, or null for the spec's 10003 (missing, not a
 * number, 0, too long): every start has an end, on every charger.
 */
export function startMinutes(time: unknown): number | null {
  if (time == null || !/^\d+(\.\d+)?$/.test(String(time).trim())) return null;
  const minutes = Number(String(time).trim());
  return minutes > 0 && minutes <= MAX_START_MINUTES ? minutes : null;
}

/**
 * Spec code 10008 (connector error) for a connector the charger has not reported (StatusNotification):
 * refused here rather than sent and answered Rejected. A charger that reported none yet is not judged.
 */
async function unknownConnector(app: FastifyInstance, cp: ChargerRow, connectorId: number): Promise<ActionResult | null> {
  const known = await app.db.query<{ connector_id: number }>(`SELECT connector_id FROM cp_connectors WHERE cp_id = $1 AND connector_id > 0`, [cp.cp_id]);
  return known.length && !known.some((c) => c.connector_id === connectorId) ? refused(ERROR_CODES.CONNECTOR_ERROR) : null;
}

/** The charger is connected to this node, or to another one as cps.online_flag says (the dispatcher forwards there). */
export async function connected(app: FastifyInstance, cpId: number): Promise<boolean> {
  if (app.ocpp.central.connection(cpId)) return true;
  const [row] = await app.db.query<{ online_flag: number }>(`SELECT online_flag FROM cps WHERE cp_id = $1`, [cpId]);
  return row?.online_flag === 1;
}

/** Sends one command, audits it with its outcome and answers it as {status, errorCode}. */
export async function sendCommand(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  actor: CommandActor,
  cp: ChargerRow,
  action: CommandAction,
  params: Record<string, unknown>,
  remark?: unknown,
): Promise<ActionResult> {
  let outcome: CommandOutcome;
  try {
    outcome = await app.ocpp.commands.send(cp.cp_id, action, params);
  } catch (err) {
    if (err instanceof InvalidCommandError) throw badRequest(err.message);
    throw err;
  }
  // writeAudit keeps a missing user id as null: an app has no user row, its name says who it was.
  await writeAudit(app.db, actor as Pick<AuthUser, 'id' | 'username'>, {
    action: 'COMMAND',
    target: 'cps',
    targetId: cp.cp_id,
    newData: { command: action, params: maskSecrets(action, params), outcome },
    remark: remark == null ? undefined : String(remark),
  });
  log.info({ cpNo: cp.cp_no, action, status: outcome.status, user: actor.username }, 'OCPP command from the portal or a third-party app');
  if (outcome.status === 'success') return { status: 'success', data: outcome.result };
  // The charger's own answer, when it gave one (Rejected, UnlockFailed …), goes with the code.
  return { status: 'error', errorCode: outcome.errorCode, message: outcome.message, ...(outcome.result ? { data: outcome.result } : {}) };
}

/** A remote start on a charger the caller may command (spec §7 rsrStartCharger after the charger lookup). */
export async function remoteStart(app: FastifyInstance, log: FastifyBaseLogger, actor: CommandActor, cp: ChargerRow, start: RemoteStart): Promise<ActionResult> {
  if (cp.enable_flag !== 1) return refused(ERROR_CODES.CP_ACTIVATION);
  if (await app.openingHours.closedNow(cp.cp_id)) return refused(ERROR_CODES.OUTSIDE_OPENING_HOURS);
  const missing = await unknownConnector(app, cp, start.connectorId);
  if (missing) return missing;
  // What a charger that is not connected last reported is no longer true: it is not judged by it, and the
  // dispatcher answers the start 10030 without sending it (a rated start's RSR is then Failed).
  const connectors = !(await connected(app, cp.cp_id)) ? [] : await app.db.query<{ connector_id: number; status: string | null }>(
    `SELECT connector_id, status FROM cp_connectors WHERE cp_id = $1`,
    [cp.cp_id],
  );
  // Only where a start can work (core's startRefusal): not sent to be refused by the charger.
  const target = connectors.find((c) => c.connector_id === start.connectorId)?.status ?? null;
  const refusal = startRefusal(target);
  if (refusal) return refused(refusal);
  if (await cableMissing(app.db, cp.cp_id, target)) return refused(ERROR_CODES.CABLE_NOT_CONNECTED);
  const otherCharging = connectors.some(
    (c) => c.connector_id > 0 && c.connector_id !== start.connectorId && c.status && CHARGING_STATUSES.includes(c.status),
  );
  if (otherCharging && cp.double_use_flag !== 1) return refused(ERROR_CODES.ONE_CONNECTOR_AT_A_TIME);
  // One check of the form whether or not the charger has a rate; a member ID that is an account number starts for that account.
  const form = await checkStartForm(app.db, cp, start, app.config.timeZone);
  if ('errorCode' in form) return refused(form.errorCode);
  // The idTag the session will carry: the member, else the start code, else the portal itself.
  const idTag = String(start.memberId || start.startCode || 'PORTAL').slice(0, 20);
  const send = (minutes: number) => {
    app.ocpp.central.remoteStarts.allow(cp.cp_id, idTag, minutes, form.accountId);
    const profile = start.chargingProfile ? { chargingProfile: start.chargingProfile } : {};
    return sendCommand(app, log, actor, cp, 'RemoteStartTransaction', { connectorId: start.connectorId, idTag, ...profile }, start.remark);
  };
  // A charger with a charging rate: the start is a remote start request (rsr/start.ts), priced and followed.
  return (await rsrRemoteStart(app, cp, { ...start, inTime: form.inTime }, idTag, send)) ?? send(start.minutes);
}

/** A remote stop of the connector's running session (spec §7 rsrStopCharger after the charger lookup). */
export async function remoteStop(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  actor: CommandActor,
  cp: ChargerRow,
  connectorId: number,
  remark?: unknown,
): Promise<ActionResult> {
  const missing = await unknownConnector(app, cp, connectorId);
  if (missing) return missing;
  const [running] = await app.db.query(
    `SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = $2 AND session_end_time IS NULL
      ORDER BY session_id DESC LIMIT 1`,
    [cp.cp_id, connectorId],
  );
  if (!running) return refused(ERROR_CODES.NO_TRANSACTION);
  return sendCommand(app, log, actor, cp, 'RemoteStopTransaction', { transactionId: running.tran_id }, remark);
}

/** The resources whose screens send start, stop and unlock: the chargers' and the RSR screens (chargerCommands). */
export const START_STOP_KEYS = Object.values(RESOURCES).filter((d) => d.commandable || d.chargerCommands).map((d) => d.key) as [string, ...string[]];
/** The chargers' resources (commandable), whose screens send the other commands. */
const COMMANDABLE_KEYS = Object.values(RESOURCES).filter((d) => d.commandable).map((d) => d.key) as [string, ...string[]];

const startStopParams = z.strictObject({ resource: z.enum(START_STOP_KEYS), id: int(1) });
const commandParams = z.strictObject({ resource: z.enum(COMMANDABLE_KEYS), id: int(1) });
const availabilityParams = z.strictObject({ resource: z.enum(COMMANDABLE_KEYS), id: int(1), connectorId: int(0) });
const idParams = z.strictObject({ id: int(1) });

/** The charger a user may command: it exists, is not deleted, and is in one of the user's sites. */
export async function commandableCharger(app: FastifyInstance, user: AuthUser, id: number): Promise<ChargerRow | null> {
  const [cp] = await app.db.query<ChargerRow>(
    `SELECT cp_id, cp_no, loc_id, enable_flag, double_use_flag FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`,
    [id],
  );
  // Outside the user's sites it does not exist for them (a 403 would sign the portal user out, spec §8).
  if (!cp || (!user.allSites && !user.siteIds.includes(cp.loc_id))) return null;
  return cp;
}

/** The remote-action calls of spec §7 (charger view buttons), each answered {status, errorCode}. */
export function commandRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The resource in the path is already one whose screens send the command (the params schemas' enums).
  const charger = (user: AuthUser, id: number) => commandableCharger(app, user, id);

  const command = (req: FastifyRequest, user: AuthUser, cp: ChargerRow, action: CommandAction, params: Record<string, unknown>, remark?: unknown) =>
    sendCommand(app, req.log, user, cp, action, params, remark);

  app.post('/api/:resource/rsrStartCharger/:id', { schema: { params: startStopParams, body: startBody, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Remote start a connector', privileges: [P.REMOTE_START_CHARGER] } } }, async (req) => {
    const user = requirePrivileges(req, P.REMOTE_START_CHARGER);
    const { id } = req.params;
    const body = req.body;
    const minutes = startMinutes(body.time);
    if (minutes === null) return refused(ERROR_CODES.INVALID_DURATION);
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const profile = body.chargingProfile;
    if (profile) {
      requirePrivileges(req, P.CHARGING_PROFILE);
      const clash = lmsClash(profile);
      if (clash) throw badRequest(`chargingProfile.${clash.field}: ${clash.message}`, { [`chargingProfile.${clash.field}`]: 'load_management' });
    }
    return remoteStart(app, req.log, user, cp, { ...body, minutes, chargingProfile: profile && toOcppProfile(profile, 'TxProfile') });
  });

  app.post('/api/:resource/rsrStopCharger/:id', { schema: { params: startStopParams, body: connectorBody, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Remote stop a connector', privileges: [P.REMOTE_START_CHARGER] } } }, async (req) => {
    const user = requirePrivileges(req, P.REMOTE_START_CHARGER);
    const { id } = req.params;
    const body = req.body;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return remoteStop(app, req.log, user, cp, body.connectorId, body.remark);
  });

  app.post('/api/:resource/unlockCharger/:id', { schema: { params: startStopParams, body: connectorBody, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Unlock a connector', privileges: [P.REMOTE_START_CHARGER] } } }, async (req) => {
    const user = requirePrivileges(req, P.REMOTE_START_CHARGER);
    const { id } = req.params;
    const body = req.body;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const missing = await unknownConnector(app, cp, body.connectorId);
    if (missing) return missing;
    const running = await transactionBlockingUnlock(app.db, cp.cp_id, body.connectorId);
    if (running !== null) {
      const stopped = await command(req, user, cp, 'RemoteStopTransaction', { transactionId: running }, body.remark);
      if (stopped.status !== 'success') return stopped;
      // Unlocked too soon, the station still has the transaction: its answer then says so (UnlockFailed).
      await transactionEnded(app.db, cp.cp_id, running);
    }
    const result = await command(req, user, cp, 'UnlockConnector', { connectorId: body.connectorId }, body.remark);
    // UnlockFailed is the connector's own failure: the spec's connector error, not a refused request.
    const unlockFailed = (result.data as { status?: string } | undefined)?.status === 'UnlockFailed';
    return unlockFailed ? { ...result, errorCode: ERROR_CODES.CONNECTOR_ERROR_2 } : result;
  });

  app.get('/api/:resource/rsrResetCharger/:id', { schema: { params: commandParams, querystring: resetQuery, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Reset a charger (Hard or Soft), or one EVSE of an OCPP 2.0.1 charger', privileges: [P.REMOTE_RESET_CHARGER] } } }, async (req) => {
    const user = requirePrivileges(req, P.REMOTE_RESET_CHARGER);
    const { id } = req.params;
    const { type, evseId } = req.query;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    if (evseId === undefined) return command(req, user, cp, 'Reset', { type });
    // One EVSE: 2.0.1 only (1.6 Reset has no connector), one the station reported.
    await require201(app, cp.cp_id, 'evseId', 'an EVSE is reset');
    return (await unknownConnector(app, cp, evseId)) ?? command(req, user, cp, 'Reset', { type, connectorId: evseId });
  });

  app.get('/api/:resource/getDiagnostics/:id', { schema: { params: commandParams, querystring: diagnosticsQuery, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Ask a charger to upload its diagnostics', privileges: [P.GET_DIAGNOSTICS] } } }, async (req) => {
    const user = requirePrivileges(req, P.GET_DIAGNOSTICS);
    const { id } = req.params;
    const { location } = req.query;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return command(req, user, cp, 'GetDiagnostics', { location: location ?? app.config.diagnosticsUrl });
  });

  app.get('/api/:resource/clearCache/:id', { schema: { params: commandParams, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Clear a charger\'s authorization cache', privileges: [P.CLEAR_CACHE] } } }, async (req) => {
    const user = requirePrivileges(req, P.CLEAR_CACHE);
    const cp = await charger(user, req.params.id);
    return cp ? command(req, user, cp, 'ClearCache', {}) : refused(ERROR_CODES.CP_NOT_FOUND);
  });

  app.get('/api/:resource/change_availability/:id/:connectorId', { schema: { params: availabilityParams, querystring: availabilityQuery, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Change a connector\'s availability (connector 0: the charger)', privileges: [P.CHANGE_AVAILABILITY] } } }, async (req) => {
    const user = requirePrivileges(req, P.CHANGE_AVAILABILITY);
    const { id, connectorId } = req.params;
    const { availabilityType, evseConnectorId } = req.query;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    if (evseConnectorId !== undefined) {
      if (connectorId === 0) throw badRequest('evseConnectorId: a connector is within an EVSE: connectorId (the EVSE) must be 1 or more', { evseConnectorId: 'needs_evse' });
      await require201(app, cp.cp_id, 'evseConnectorId', 'a connector within an EVSE is changed');
    }
    if (connectorId > 0) {
      const missing = await unknownConnector(app, cp, connectorId);
      if (missing) return missing;
    }
    // The portal's buttons say Available / Unavailable; OCPP says Operative / Inoperative.
    const type = availabilityType === 'Available' ? 'Operative' : availabilityType === 'Unavailable' ? 'Inoperative' : availabilityType;
    const result = await command(req, user, cp, 'ChangeAvailability', { connectorId, type, ...(evseConnectorId !== undefined ? { evseConnectorId } : {}) });
    if (result.status === 'success') await app.db.query(`UPDATE cps SET change_availability = $2 WHERE cp_id = $1`, [cp.cp_id, type]);
    return result;
  });

  app.get('/api/cps/triggerMessage/:id', { schema: { params: idParams, querystring: triggerQuery, response: { 200: ActionAnswer } }, config: { doc: { summary: 'Ask a charger to send a message', privileges: [P.TRIGGER_MESSAGE] } } }, async (req) => {
    const user = requirePrivileges(req, P.TRIGGER_MESSAGE);
    const { id } = req.params;
    const { requestedMessage, connectorId } = req.query;
    const cp = await charger(user, id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const send = (n?: number) => command(req, user, cp, 'TriggerMessage', n === undefined ? { requestedMessage } : { requestedMessage, connectorId: n });
    // A 2.0.1 station's StatusNotification is asked per EVSE (F06.FR.13); connector 0 is the station there.
    if (requestedMessage === 'StatusNotification' && !connectorId && (await chargerProtocol(app, cp.cp_id)) === 'ocpp2.0.1') {
      return triggerEachEvse(app, cp.cp_id, send);
    }
    return send(connectorId);
  });
}
