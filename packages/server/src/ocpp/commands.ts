import { ERROR_CODES, requestTypeId, type OcppProtocol } from '@ev/core';
import type { CentralSystem } from './central-system.ts';
import { commandRefusal } from './boot-policy.ts';
import { schemaProblem } from './protocol.ts';
import { NATIVE_201, NoCall201, split201, toCall201, type Call201 } from './v201/commands.ts';

/** Commands the central system sends (OCPP 1.6 §5), as used by the portal and load management. */
export type CommandAction =
  | 'RemoteStartTransaction' | 'RemoteStopTransaction' | 'UnlockConnector' | 'Reset' | 'GetDiagnostics'
  | 'ChangeAvailability' | 'TriggerMessage' | 'SetChargingProfile' | 'ClearChargingProfile'
  | 'ChangeConfiguration' | 'GetConfiguration' | 'DataTransfer' | 'ClearCache' | 'GetCompositeSchedule'
  | 'UpdateFirmware' | 'ReserveNow' | 'CancelReservation' | 'GetLocalListVersion' | 'SendLocalList'
  // OCPP 2.0.1 only: a charger's device model (device-model/)
  | 'GetBaseReport' | 'GetVariables' | 'SetVariables';

export type CommandOutcome =
  | { status: 'success'; result: Record<string, any> }
  | { status: 'error'; errorCode: number; message: string; result?: Record<string, any> };

export interface CommandOptions {
  timeoutMs?: number;
  logInBackground?: boolean;
  /** Only to a charger connected to this node: a command forwarded here from another node is not sent on again. */
  here?: boolean;
}

/** Thrown for parameters that do not fit the OCPP schema: a caller's mistake, not the charger's. */
export class InvalidCommandError extends Error {}

/** Answer statuses that mean the charger did (or scheduled) what was asked. Answers without a status are successes. */
const DONE = new Set(['Accepted', 'Unlocked', 'Scheduled']);

export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;

/**
 * A command's parameters as cp_requests and the action log keep them: a charger password sent as
 * ChangeConfiguration AuthorizationKey (charger-credentials/) is never stored, only its mask.
 */
export function maskSecrets(action: string, params: Record<string, unknown>): Record<string, unknown> {
  const secret = action === 'ChangeConfiguration' && String(params.key).toLowerCase() === 'authorizationkey';
  if (secret) return { ...params, value: '********' };
  // The same password as 2.0.1 sets it (SecurityCtrlr.BasicAuthPassword).
  if (action === 'SetVariables' && Array.isArray(params.setVariableData)) {
    return {
      ...params,
      setVariableData: params.setVariableData.map((d: any) => (d?.variable?.name === 'BasicAuthPassword' ? { ...d, attributeValue: '********' } : d)),
    };
  }
  return params;
}

/**
 * The one way to send a command to a charger. Commands to a charger go one at a time (OCPP-J
 * allows one call in flight); a command waits its turn, and the whole wait plus the charger's
 * answer is bounded by the timeout. Every command is logged in cp_requests, with the answer or
 * the failure, before the outcome is returned.
 */
export class CommandDispatcher {
  timeoutMs = DEFAULT_COMMAND_TIMEOUT_MS;
  /** Told every command's outcome and its wait plus round trip in ms (http/metrics.ts). */
  onOutcome?: (action: CommandAction, outcome: CommandOutcome, ms: number) => void;
  /** Told every command the charger did (Accepted …), before the outcome is returned (charging-profiles/record.ts). */
  onAccepted?: (cpId: number, action: CommandAction, params: Record<string, any>, result: Record<string, any>) => Promise<void>;

  /** Sends a command to a charger connected to another node (set when several nodes share chargers). */
  forward?: (cpId: number, action: CommandAction, params: Record<string, unknown>, opts: CommandOptions) => Promise<CommandOutcome>;

  constructor(private readonly cs: CentralSystem) {}

  /**
   * opts.logInBackground: the outcome is returned as soon as the charger answered, its cp_requests
   * row committed afterwards (load management: a charger's raise waits for the others' answers, not
   * for their log rows).
   */
  async send(
    cpId: number,
    action: CommandAction,
    params: Record<string, unknown>,
    opts: CommandOptions = {},
  ): Promise<CommandOutcome> {
    // Callers speak 1.6 (translated for a 2.0.1 charger below), or a message only 2.0.1 has; a 1.6 command's
    // 2.0.1-only parameters (an EVSE's reset …) are checked where they are translated.
    const { params16 } = split201(action, params);
    const problem = schemaProblem(action, 'req', params16, NATIVE_201.has(action) ? 'ocpp2.0.1' : 'ocpp1.6');
    if (problem) throw new InvalidCommandError(`${action}: ${problem}`);
    const conn = this.cs.connection(cpId);
    if (!conn) {
      // With several nodes the charger may be connected to another one (cluster/commands.ts).
      if (this.forward && !opts.here) return this.forward(cpId, action, params, opts);
      return { status: 'error', errorCode: ERROR_CODES.CP_OFFLINE, message: 'The charger is not connected' };
    }
    // A station whose boot was not accepted takes no commands, or (Pending) no remote start or stop (boot-policy.ts).
    const notAccepted = commandRefusal(conn.charger, action);
    if (notAccepted) return { status: 'error', errorCode: ERROR_CODES.CP_NOT_ACCEPTED, message: notAccepted };

    const started = performance.now();
    const deadline = Date.now() + (opts.timeoutMs ?? this.timeoutMs);
    const protocol = conn.charger.protocol ?? 'ocpp1.6';
    let call: Call201;
    try {
      call = await this.message(conn.charger.cpId, protocol, action, params);
    } catch (err) {
      if (!(err instanceof NoCall201)) throw err;
      return { status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: err.message };
    }
    let outcome: CommandOutcome;
    let messageId: string | null = null;
    /** The charger's own answer (for a 2.0.1 charger, before it is read in 1.6 words). */
    let raw: Record<string, any> | undefined;
    const release = await conn.commandTurn(deadline);
    if (!release) {
      outcome = { status: 'error', errorCode: ERROR_CODES.CP_TIMEOUT, message: 'Timed out waiting for the previous command to this charger' };
    } else {
      // Our call is the only one in flight to this charger now: the next outbound CALL is ours.
      const onCall = ({ outbound, payload }: { outbound: boolean; payload: unknown[] }) => {
        if (outbound && payload[2] === call.action) messageId = String(payload[1]);
      };
      conn.client.on('call', onCall);
      try {
        const answered = (await conn.client.call(call.action, call.params, { callTimeoutMs: Math.max(1, deadline - Date.now()) })) as Record<string, any>;
        raw = answered;
        const result = call.answer(answered);
        outcome = result?.status === undefined || DONE.has(result.status)
          ? { status: 'success', result }
          : { status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: `The charger answered ${result.status}`, result };
      } catch (err: any) {
        outcome = failure(err);
      } finally {
        conn.client.off('call', onCall);
        release();
      }
    }
    this.onOutcome?.(action, outcome, performance.now() - started);
    const logged = this.log(conn.charger, protocol, call, params, outcome, raw, messageId);
    const noted = outcome.status === 'success' && this.onAccepted?.(conn.charger.cpId, action, params, outcome.result);
    if (!opts.logInBackground) await Promise.all([logged, noted]);
    return outcome;
  }

  /** The message a charger of this version gets for the command: itself for 1.6, translated for 2.0.1 (v201/commands.ts). */
  private async message(cpId: number, protocol: OcppProtocol, action: CommandAction, params: Record<string, unknown>): Promise<Call201> {
    if (protocol === 'ocpp2.0.1') return toCall201(this.cs.db, cpId, action, params);
    if (NATIVE_201.has(action)) throw new NoCall201(`${action} is an OCPP 2.0.1 message; this charger speaks OCPP 1.6`);
    const { only201 } = split201(action, params);
    if (only201.length) throw new InvalidCommandError(`${action}: ${only201.join(', ')} only for an OCPP 2.0.1 charger; this charger speaks OCPP 1.6`);
    return { action, params, answer: (r) => r };
  }

  /** cp_requests keeps the message as sent and answered (for a 2.0.1 charger, its 2.0.1 form). */
  private async log(
    charger: { cpId: number; cpNo: string; locId: number; serial: string | null },
    protocol: OcppProtocol,
    call: Call201,
    /** The caller's parameters: their connector and transaction are the portal's. */
    params: Record<string, any>,
    outcome: CommandOutcome,
    raw: Record<string, any> | undefined,
    messageId: string | null,
  ): Promise<void> {
    const answer = raw ?? outcome.result;
    const response = outcome.status === 'success' ? answer : { error: outcome.message, ...(answer ?? {}) };
    try {
      await this.cs.writer.write({
        requests: [{
          request_type: requestTypeId(call.action, 'out', protocol)!,
          cp_id: charger.cpId,
          cp_no: charger.cpNo,
          charge_box_serial_number: charger.serial,
          connector_id: typeof params.connectorId === 'number' ? params.connectorId : null,
          connector_status: null,
          request_data: maskSecrets(call.action, call.params),
          response_data: response,
          cre_dttm: null,
          session_id: null,
          tran_id: typeof params.transactionId === 'number' ? params.transactionId : null,
          uuid: messageId,
          loc: charger.locId,
          energy: null,
          voltage: null,
          ampere: null,
        }],
      });
    } catch (err) {
      // The command went out (or failed) either way; losing its log line must not hide the outcome.
      this.cs.log.error({ err, cpNo: charger.cpNo, action: call.action }, 'OCPP command not logged');
    }
  }
}

function failure(err: any): CommandOutcome {
  if (err?.constructor?.name === 'TimeoutError') {
    return { status: 'error', errorCode: ERROR_CODES.CP_TIMEOUT, message: 'The charger did not answer in time' };
  }
  if (err?.rpcErrorCode) {
    // A CALLERROR from the charger, or an answer that breaks the OCPP schema.
    return { status: 'error', errorCode: ERROR_CODES.CP_REJECTED, message: `${err.rpcErrorCode}: ${err.message}` };
  }
  // The socket closed before or while the command was in flight.
  return { status: 'error', errorCode: ERROR_CODES.CP_OFFLINE, message: `The charger disconnected (${err?.message ?? 'unknown'})` };
}
