import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES, P, readPrivilege, requestTypeId, storedText, type OcppDirection, type OcppProtocol, type StoredRequest, type TesterAnswer, type TesterMessage,
} from '@ev/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { InvalidCommandError, type CommandAction } from './commands.ts';
import { action201 } from './v201/commands.ts';
import type { Charger } from './connection.ts';
import type { ChargerContext } from './handler-types.ts';
import { CHARGER_ACTIONS, injectOn, type InjectResult } from './handlers.ts';
import type { CentralSystem } from './central-system.ts';
import { schemaError, schemaProblem } from './protocol.ts';
import { CHARGER_ACTIONS_201, SIMULATOR_MESSAGES_201, TESTER_MESSAGES_201, simulatorTemplates201, testerTemplates201 } from './tester-201.ts';
import { SHARED_TEMPLATES } from './tester-shared.ts';

/**
 * The charger message tester of spec part 1 §2 (/test/cp_request): its whitelist of message types.
 * in: the portal sends it as the charger, through the central system's own handling;
 * out: the central system sends it to the connected charger. DataTransfer is in the list once: as
 * the charger's (the tester is about what chargers send).
 */
export const TESTER_MESSAGES: readonly { action: string; direction: OcppDirection }[] = [
  { action: 'Authorize', direction: 'in' },
  { action: 'BootNotification', direction: 'in' },
  { action: 'Heartbeat', direction: 'in' },
  { action: 'MeterValues', direction: 'in' },
  { action: 'StartTransaction', direction: 'in' },
  { action: 'StatusNotification', direction: 'in' },
  { action: 'StopTransaction', direction: 'in' },
  { action: 'ChangeAvailability', direction: 'out' },
  { action: 'SetChargingProfile', direction: 'out' },
  { action: 'TriggerMessage', direction: 'out' },
  { action: 'DataTransfer', direction: 'in' },
];

/** A schema-valid example payload per whitelisted message, for the tester's editor. */
export function testerTemplates(now = new Date()): Record<string, Record<string, unknown>> {
  const timestamp = now.toISOString();
  return {
    Authorize: { idTag: 'TESTTAG' },
    BootNotification: { chargePointVendor: 'Tester', chargePointModel: 'Tester' },
    Heartbeat: {},
    MeterValues: {
      connectorId: 1,
      meterValue: [{
        timestamp,
        sampledValue: [
          { value: '1000', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          { value: '230', measurand: 'Voltage', unit: 'V' },
          { value: '16', measurand: 'Current.Import', unit: 'A' },
        ],
      }],
    },
    StartTransaction: { connectorId: 1, idTag: 'TESTTAG', meterStart: 0, timestamp },
    // No timestamp: the report is taken as of now, so sending it again still applies.
    StatusNotification: { connectorId: 1, errorCode: 'NoError', status: 'Available' },
    StopTransaction: { transactionId: 1, meterStop: 1000, timestamp, reason: 'Local' },
    ...SHARED_TEMPLATES,
  };
}

/** The tester needs a privilege of its own (READ_TEST_CP_REQUEST, which also shows it in the menu) or cstDebug. */
export const TESTER_PRIVILEGES = [readPrivilege('test/cp_request'), P.CST_DEBUG];

/**
 * The charger simulator of spec part 1 §2 (/lms/cp_simulator, "the same tester with a different
 * message-type set"): every charger-initiated action the central system handles, injected as the
 * tester does, with templates for a charger's side of load management. StatusNotification comes
 * twice (Charging and SuspendedEVSE, the states load management moves a connector between).
 */
export const SIMULATOR_MESSAGES: readonly TesterMessage[] = [
  { name: 'BootNotification', action: 'BootNotification', direction: 'in' },
  { name: 'StatusNotification: Charging', action: 'StatusNotification', direction: 'in' },
  { name: 'StatusNotification: SuspendedEVSE', action: 'StatusNotification', direction: 'in' },
  { name: 'Heartbeat', action: 'Heartbeat', direction: 'in' },
  { name: 'Authorize', action: 'Authorize', direction: 'in' },
  { name: 'StartTransaction', action: 'StartTransaction', direction: 'in' },
  { name: 'MeterValues', action: 'MeterValues', direction: 'in' },
  { name: 'StopTransaction', action: 'StopTransaction', direction: 'in' },
  { name: 'DataTransfer', action: 'DataTransfer', direction: 'in' },
  { name: 'DiagnosticsStatusNotification', action: 'DiagnosticsStatusNotification', direction: 'in' },
  { name: 'FirmwareStatusNotification', action: 'FirmwareStatusNotification', direction: 'in' },
];

/** The simulator's own privilege (READ_LMS_CP_SIMULATOR, which also shows it in the menu) or cstDebug. */
export const SIMULATOR_PRIVILEGES = [readPrivilege('lms/cp_simulator'), P.CST_DEBUG];

/** Schema-valid LMS templates per simulator entry name: per-phase current and power, a charging connector. */
export function simulatorTemplates(now = new Date()): Record<string, Record<string, unknown>> {
  const timestamp = now.toISOString();
  const phases = ['L1', 'L2', 'L3'] as const;
  return {
    ...testerTemplates(now),
    BootNotification: { chargePointVendor: 'Simulator', chargePointModel: 'LMS-3P-32A' },
    'StatusNotification: Charging': { connectorId: 1, errorCode: 'NoError', status: 'Charging' },
    'StatusNotification: SuspendedEVSE': { connectorId: 1, errorCode: 'NoError', status: 'SuspendedEVSE' },
    MeterValues: {
      connectorId: 1,
      transactionId: 1,
      meterValue: [{
        timestamp,
        sampledValue: [
          { value: '1000', context: 'Sample.Periodic', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          ...phases.flatMap((phase) => [
            { value: '16', context: 'Sample.Periodic', measurand: 'Current.Import', phase, unit: 'A' },
            { value: '3680', context: 'Sample.Periodic', measurand: 'Power.Active.Import', phase, unit: 'W' },
            { value: '230', context: 'Sample.Periodic', measurand: 'Voltage', phase: `${phase}-N`, unit: 'V' },
          ]),
          { value: '32', context: 'Sample.Periodic', measurand: 'Current.Offered', unit: 'A' },
        ],
      }],
    },
    DiagnosticsStatusNotification: { status: 'Uploaded' },
    FirmwareStatusNotification: { status: 'Installed' },
  };
}

type Templates = (now?: Date) => Record<string, Record<string, unknown>>;

/** A message set the tester screen and route serve: the tester's or the simulator's, for each OCPP version. */
export interface TesterSet {
  /** The menu key and route: /{key} in the portal, /api/{key} on the server. */
  key: 'test/cp_request' | 'lms/cp_simulator';
  /** For a 1.6 charger (and one that never connected) and for a 2.0.1 station (tester-201.ts). */
  versions: Record<OcppProtocol, { messages: readonly TesterMessage[]; templates: Templates }>;
  privileges: readonly string[];
}

export const TESTER_SETS: readonly TesterSet[] = [
  {
    key: 'test/cp_request',
    versions: {
      'ocpp1.6': { messages: TESTER_MESSAGES.map((m) => ({ name: m.action, ...m })), templates: testerTemplates },
      'ocpp2.0.1': { messages: TESTER_MESSAGES_201, templates: testerTemplates201 },
    },
    privileges: TESTER_PRIVILEGES,
  },
  {
    key: 'lms/cp_simulator',
    versions: {
      'ocpp1.6': { messages: SIMULATOR_MESSAGES, templates: simulatorTemplates },
      'ocpp2.0.1': { messages: SIMULATOR_MESSAGES_201, templates: simulatorTemplates201 },
    },
    privileges: SIMULATOR_PRIVILEGES,
  },
];

const cpIdOf = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(1).max(2 ** 31 - 1));

/** The request body of a set: action is one of the set's actions in either version (the charger's own is checked next). */
const bodyOf = (set: TesterSet) => z.object({
  cpId: cpIdOf,
  action: z.enum([...new Set(Object.values(set.versions).flatMap((v) => v.messages.map((m) => m.action)))] as [string, ...string[]]),
  payload: z.record(z.string(), z.unknown()),
}).strict();

interface ChargerRow {
  cp_id: number;
  cp_no: string;
  loc_id: number;
  charge_box_serial_number: string | null;
  /** The version the charger speaks: of its live connection here, else the one it last connected with. */
  protocol: OcppProtocol;
}

/**
 * A charger that is not connected, for a message injected in its name: nothing of a live
 * connection to remember, and its last_message_dttm stays as the charger itself left it.
 */
class DetachedCharger implements ChargerContext {
  constructor(readonly charger: Charger) {}
  touchDue(): boolean {
    return false;
  }
  rememberTransaction(): void {}
  knownTransaction(): undefined {
    return undefined;
  }
  forgetTransaction(): void {}
}

/**
 * A message in a charger's name, handled as if it came from the charger: on its live connection (on
 * this node, or on the node holding it when several share the chargers), else on a stand-in.
 */
async function injectAsCharger(central: CentralSystem, cp: ChargerRow, action: string, payload: Record<string, unknown>, messageId: string)
  : Promise<InjectResult | { status: 'timeout' }> {
  const here = central.connection(cp.cp_id);
  if (!here) {
    const there = await central.injectElsewhere?.(cp.cp_id, action, payload, messageId);
    if (there && there.status !== 'notHere') return there;
  }
  const conn = here ?? new DetachedCharger({ cpId: cp.cp_id, cpNo: cp.cp_no, locId: cp.loc_id, serial: cp.charge_box_serial_number, protocol: cp.protocol });
  return injectOn(central, conn, action, payload, messageId);
}

/** What is wrong with a payload, as a stored text: the tester shows it in the reader's language. */
function schemaText(action: string, payload: unknown, protocol: OcppProtocol): string {
  const e = schemaError(action, 'req', payload, protocol);
  const path = e?.path || 'payload';
  const p = e?.params ?? {};
  switch (e?.keyword) {
    case 'required':
      return storedText('msg.log.schema.required', { path, name: String(p.missingProperty) });
    case 'additionalProperties':
      return storedText('msg.log.schema.unknown', { path, name: String(p.additionalProperty) });
    case 'enum':
      return storedText('msg.log.schema.enum', { path, values: ([] as unknown[]).concat(p.allowedValues ?? []).join(', ') });
    case 'type':
      return storedText('msg.log.schema.type', { path, type: String(p.type) });
    case 'maxLength':
      return storedText('msg.log.schema.maxLength', { path, limit: Number(p.limit) });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return storedText('msg.log.schema.range', { path, comparison: String(p.comparison), limit: Number(p.limit) });
    case 'format':
      return storedText('msg.log.schema.format', { path, format: String(p.format) });
    default:
      return storedText('msg.log.schema.invalid', { path });
  }
}

const STORED = `req_id, request_type, cp_no, connector_id, connector_status, uuid, cre_dttm, request_data, response_data`;

const stored = (row: StoredRequest | undefined) =>
  row ? { request_id: Number(row.req_id), request: { ...row, req_id: Number(row.req_id) } } : { request_id: null, request: null };

function testerUser(req: FastifyRequest, set: TesterSet): AuthUser {
  const user = currentUser(req);
  if (!set.privileges.some((p) => user.privileges.has(p))) throw forbidden(set.privileges[0]);
  return user;
}

/** The charger as the user may see it (outside their sites it does not exist for them, as for the remote actions). */
async function chargerFor(app: FastifyInstance, user: AuthUser, cpId: number): Promise<ChargerRow | null> {
  const [cp] = await app.db.query<Omit<ChargerRow, 'protocol'> & { ocpp_protocol: string | null }>(
    `SELECT cp_id, cp_no, loc_id, charge_box_serial_number, ocpp_protocol FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`,
    [cpId],
  );
  if (!cp || (!user.allSites && !user.siteIds.includes(cp.loc_id))) return null;
  const { ocpp_protocol, ...row } = cp;
  const protocol = app.ocpp.central.connection(cp.cp_id)?.charger.protocol ?? (ocpp_protocol === 'ocpp2.0.1' ? 'ocpp2.0.1' : 'ocpp1.6');
  return { ...row, protocol };
}

/**
 * POST /api/test/cp_request and /api/lms/cp_simulator, and their templates (spec part 1 §2): one
 * route per set, the same code.
 */
export function testerRoutes(fastify: FastifyInstance): void {
  for (const set of TESTER_SETS) setRoutes(fastify, set);
}

function setRoutes(fastify: FastifyInstance, set: TesterSet): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const central = () => app.ocpp.central;
  const body = bodyOf(set);

  app.get(`/api/${set.key}/templates`, {
    schema: { querystring: z.strictObject({ cpId: cpIdOf.optional() }) },
    config: { doc: { summary: `The message templates of ${set.key}, in the OCPP version of the charger cpId (none: 1.6)`, anyPrivilege: set.privileges } },
  }, async (req) => {
    const user = testerUser(req, set);
    const { cpId } = req.query;
    const cp = cpId === undefined ? null : await chargerFor(app, user, cpId);
    if (cpId !== undefined && !cp) throw notFound('No such charger');
    const protocol = cp?.protocol ?? 'ocpp1.6';
    const { messages, templates: of } = set.versions[protocol];
    const templates = of();
    return { protocol, messages: messages.map((m) => ({ ...m, template: templates[m.name] })) };
  });

  app.post(`/api/${set.key}`, { schema: { body }, config: { doc: { summary: `Send a message as a charger or to a charger (${set.key})`, anyPrivilege: set.privileges } } }, async (req): Promise<TesterAnswer> => {
    const user = testerUser(req, set);
    const { cpId, action, payload } = req.body;
    const cp = await chargerFor(app, user, cpId);
    if (!cp) return { status: 'error', errorCode: ERROR_CODES.CP_NOT_FOUND, data: { response: null, request_id: null } };
    // A message of the charger's own version only: a 2.0.1 payload means nothing to a 1.6 charger, nor the reverse.
    const message = set.versions[cp.protocol].messages.find((m) => m.action === action);
    const version = cp.protocol === 'ocpp2.0.1' ? '2.0.1' : '1.6';
    if (!message) throw badRequest(storedText('msg.log.schema.otherVersion', { action, version }));
    const { direction } = message;
    // Commands are the portal's (1.6-shaped, translated for a 2.0.1 station where they are sent).
    const schemaVersion = direction === 'in' ? cp.protocol : 'ocpp1.6';
    if (schemaProblem(action, 'req', payload, schemaVersion)) throw badRequest(schemaText(action, payload, schemaVersion), { payload: 'format_error' });

    const [last] = await app.db.query<{ req_id: number | null }>(`SELECT max(req_id) AS req_id FROM cp_requests WHERE cp_id = $1`, [cp.cp_id]);
    const after = Number(last?.req_id ?? 0);

    let answer: TesterAnswer;
    if (direction === 'in' && (cp.protocol === 'ocpp2.0.1' ? CHARGER_ACTIONS_201 : CHARGER_ACTIONS).includes(action)) {
      const messageId = randomUUID();
      const outcome = await injectAsCharger(central(), cp, action, payload, messageId);
      if (outcome.status === 'answered') {
        const [row] = await app.db.query<StoredRequest>(
          `SELECT ${STORED} FROM cp_requests WHERE cp_id = $1 AND req_id > $2 AND uuid = $3 ORDER BY req_id LIMIT 1`,
          [cp.cp_id, after, messageId],
        );
        answer = { status: 'success', data: { response: outcome.response, ...stored(row) } };
      } else if (outcome.status === 'refused') {
        // What the charger would have got: a CALLERROR (nothing is stored for it).
        answer = { status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: `${outcome.rpcErrorCode}: ${outcome.message}`, data: { response: null, request_id: null } };
      } else {
        answer = { status: 'error', errorCode: ERROR_CODES.CP_TIMEOUT, message: 'The node holding the charger did not answer in time', data: { response: null, request_id: null } };
      }
    } else {
      let outcome;
      try {
        outcome = await app.ocpp.commands.send(cp.cp_id, action as CommandAction, payload);
      } catch (err) {
        if (err instanceof InvalidCommandError) throw badRequest(err.message);
        throw err;
      }
      // The dispatcher logs the command (not when the charger is offline); commands to one charger go one at a time.
      // A 2.0.1 station's is logged as the 2.0.1 message it became (v201/commands.ts).
      const types = [requestTypeId(action, 'out'), requestTypeId(action201(action), 'out', 'ocpp2.0.1')].filter((t) => t !== undefined);
      const [row] = await app.db.query<StoredRequest>(
        `SELECT ${STORED} FROM cp_requests WHERE cp_id = $1 AND req_id > $2 AND request_type = ANY($3::int[]) ORDER BY req_id LIMIT 1`,
        [cp.cp_id, after, types],
      );
      answer = outcome.status === 'success'
        ? { status: 'success', data: { response: outcome.result, ...stored(row) } }
        : { status: 'error', errorCode: outcome.errorCode, message: outcome.message, data: { response: outcome.result ?? null, ...stored(row) } };
    }
    await writeAudit(app.db, user, {
      action: 'COMMAND',
      target: 'cps',
      targetId: cp.cp_id,
      newData: { command: `${set.key} ${action}`, params: payload, outcome: answer },
    });
    req.log.info({ cpNo: cp.cp_no, action, direction, status: answer.status, user: user.username }, set.key === 'test/cp_request' ? 'OCPP message tester' : 'OCPP charger simulator');
    return answer;
  });
}
