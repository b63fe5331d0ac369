import type { OcppProtocol } from '@ev/core';
import type RpcServerClient from 'ocpp-rpc/lib/server-client';
import { ocpp16Code, schemaViolation, type Ocpp16ErrorCode } from './protocol.ts';

const CALL = 2;
const CALLRESULT = 3;
const CALLERROR = 4;
/** ws's readyState OPEN, which ocpp-rpc's clients share. */
const OPEN = 1;

/**
 * Charger-initiated actions whose frames can be long (free-form data, many samples). Every other action's
 * schema bounds its strings (CiString50 and the like), so its frame fits in SMALL_FRAME_BYTES even with every
 * character escaped; a larger one is refused before it is decoded and parsed.
 */
const BULKY_ACTIONS = new Set([
  'DataTransfer', 'MeterValues', 'StopTransaction', 'SignCertificate',
  // OCPP 2.0.1
  'TransactionEvent', 'NotifyReport', 'NotifyEvent', 'NotifyMonitoringReport', 'NotifyCustomerInformation', 'ReportChargingProfiles',
  'Get15118EVCertificate', 'NotifyEVChargingSchedule', 'NotifyDisplayMessages',
]);
const SMALL_FRAME_BYTES = 16 * 1024;
/** The head of a CALL: its message id and action, read from the first bytes of a large frame. */
const CALL_HEAD = /^\s*\[\s*2\s*,\s*"([^"\\]{1,64})"\s*,\s*"([^"\\]{1,64})"/;

/** paramsJson: the payload's own text in the frame, for the message log (no second JSON.stringify of it). */
export type InboundCall = { messageId: string; method: string; params: unknown; paramsJson?: string };
type Handler = (call: InboundCall) => unknown;
/** The codes frames are answered with here: those of 1.6, and 2.0.1's own for a frame that holds no readable call. */
type FrameErrorCode = Ocpp16ErrorCode | 'RpcFrameworkError';

/** The parts of ocpp-rpc's client this file works with (private to the library; pinned in package.json). */
interface LibraryClient {
  _state: number;
  _handlers: Map<string, Handler>;
  _wildcardHandler: Handler | null;
  /** Our calls to the charger awaiting its answer, by message id. */
  _pendingCalls: Map<string, unknown>;
  _onMessage(buffer: Buffer): void;
  sendRaw(message: string): void;
}

export interface InboundOptions {
  /** Whose schemas calls are checked against (codes are rewritten for 2.0.1 where frames are sent). */
  protocol: OcppProtocol;
  /** Consecutive frames that are not OCPP tolerated before the socket is closed (1002). */
  maxBadFrames: number;
  /** A frame that is not OCPP, or a call breaking its schema: for the log and the per-connection limit. */
  onMalformed(reason: string): void;
  /** Closes the socket for sending garbage (1002 after maxBadFrames in a row). */
  closeForGarbage(code: number, reason: string): void;
}

/**
 * Takes the frames a charger sends from ocpp-rpc: a CALL is parsed once, checked by its compiled schema and
 * handed to the handler registered with `client.handle`, and garbage is answered with a CALLERROR string,
 * with none of the library's per-message Error (and its stack), AbortController, promises and events.
 * That machinery cost about 11 of the 80 µs of server CPU per MeterValues, and much of what a flood of garbage
 * cost the well-behaved chargers on the same node (bench/README.md). Answers to our own calls (types 3 and 4)
 * still go the library's way: it keeps the calls they answer. The wire behaviour is the library's (OCPP-J 1.6
 * codes); its deferPingsOnActivity option, which we do not set, is not honoured here.
 */
export function takeInboundFrames(rpcClient: RpcServerClient, opts: InboundOptions): void {
  const client = rpcClient as unknown as LibraryClient;
  const libraryOnMessage = client._onMessage.bind(client);
  const inProgress = new Set<string>();
  let badInARow = 0;

  const send = (frame: string) => {
    try {
      client.sendRaw(frame);
    } catch {
      // Closed meanwhile: the charger sends the call again on its next connection.
    }
  };
  const callError = (id: string, code: FrameErrorCode, message: string, details: unknown = {}) =>
    send(JSON.stringify([CALLERROR, id, code, message, details]));
  // No call can be read from the frame (no message id, no action): OCPP-J 2.0.1 §4.3 has RpcFrameworkError for that,
  // 1.6 only FormationViolation. (A code of 1.6 is translated for a 2.0.1 connection where frames are sent, protocol.ts.)
  const noCall: FrameErrorCode = opts.protocol === 'ocpp2.0.1' ? 'RpcFrameworkError' : 'FormationViolation';

  /** A frame that is not OCPP at all: answered (when it may be a call), counted, and the socket closed when it keeps on. */
  const badFrame = (id: string, code: FrameErrorCode, message: string, answer: boolean) => {
    opts.onMalformed(message);
    if (++badInARow > opts.maxBadFrames) opts.closeForGarbage(1002, 'Protocol error');
    else if (answer) callError(id, code, message);
  };

  client._onMessage = (buffer: Buffer) => {
    // Closing (ours or the charger's): what still arrives is neither answered nor counted again. Answers to our
    // own calls are moot too: closing rejected those calls.
    if (client._state !== OPEN) return;
    if (!buffer.length) return; // some chargers send empty frames; the library ignores them too
    // Refused before JSON.parse, which a flood makes costly: a frame that cannot open with a message
    // type ('[[[[…' 5,000 deep is 5,000 arrays), and a large call of an action whose frames are small.
    if (!opensWithMessageType(buffer)) return badFrame('-1', noCall, 'Message must be a JSON array opening with its message type', true);
    if (buffer.length > SMALL_FRAME_BYTES) {
      const head = CALL_HEAD.exec(buffer.toString('latin1', 0, 160));
      if (head && !BULKY_ACTIONS.has(head[2])) {
        badInARow = 0; // a call it is, like one breaking its schema
        opts.onMalformed(`${head[2]} frame of ${buffer.length} bytes`);
        return callError(head[1], 'FormationViolation', `A ${head[2]} frame of ${buffer.length} bytes is larger than any valid one`);
      }
    }
    const text = buffer.toString('utf8');
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return badFrame('-1', noCall, 'Message must be a JSON structure', true);
    }
    if (!Array.isArray(frame)) return badFrame('-1', noCall, 'Message must be an array', true);
    const [type, id, method, params] = frame as [unknown, unknown, unknown, unknown];
    if (typeof type !== 'number') return badFrame('-1', noCall, 'Message type must be a number', true);
    if (type === CALLRESULT || type === CALLERROR) {
      // Never answered (OCPP-J: no reply to a reply); one to a call we did not make is counted as garbage.
      const kind = type === CALLRESULT ? 'CALLRESULT' : 'CALLERROR';
      if (typeof id !== 'string') return badFrame('-1', 'FormationViolation', 'Message ID must be a string', false);
      if (!client._pendingCalls.has(id)) return badFrame(id, 'FormationViolation', `Received ${kind} for unrecognised message ID: ${id}`, false);
      badInARow = 0;
      return libraryOnMessage(buffer);
    }
    if (type !== CALL) return badFrame('-1', 'ProtocolError', 'Unrecognised message type', true);
    if (typeof id !== 'string') return badFrame('-1', noCall, 'Message ID must be a string', true);
    if (typeof method !== 'string') return badFrame(id, noCall, 'Method must be a string', true);
    badInARow = 0;
    void call(id, method, params, frame.length === 4 ? payloadText(text) : undefined);
  };

  async function call(id: string, method: string, params: unknown, paramsJson: string | undefined): Promise<void> {
    if (inProgress.has(id)) return callError(id, 'FormationViolation', `Already processing a call with message ID: ${id}`);
    const handler = client._handlers.get(method) ?? client._wildcardHandler;
    if (!handler) return callError(id, 'NotImplemented', `Unable to handle '${method}' calls`);
    const invalid = schemaViolation(`urn:${method}.req`, params, opts.protocol);
    if (invalid) {
      opts.onMalformed(invalid.message);
      return callError(id, invalid.code, invalid.message, invalid.details);
    }
    inProgress.add(id);
    let result: unknown;
    try {
      result = await handler({ messageId: id, method, params, paramsJson });
    } catch (err: any) {
      return callError(id, ocpp16Code(err?.rpcErrorCode), err?.message || err?.rpcErrorMessage || '', err?.details ?? {});
    } finally {
      inProgress.delete(id);
    }
    // Our own answer is checked too: a bug of ours must not reach a charger as a malformed frame.
    if (schemaViolation(`urn:${method}.conf`, result, opts.protocol)) return callError(id, 'InternalError', 'An internal error occurred');
    send(JSON.stringify([CALLRESULT, id, result]));
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The text of a CALL's payload, `{…}` in `[2, "id", "Action", {…}]`, from a frame that parsed as exactly
 * that (a number, then two strings, then the payload): after the third comma outside a string, up to the
 * closing bracket.
 */
export function payloadText(frame: string): string | undefined {
  let commas = 0;
  let inString = false;
  let i = frame.indexOf('[') + 1;
  for (; i < frame.length && commas < 3; i++) {
    const c = frame.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2c) commas++;
  }
  const end = frame.lastIndexOf(']');
  return commas === 3 && end > i ? frame.slice(i, end).trim() : undefined;
}

/** Whether the frame opens as an OCPP-J message does: '[' and then a digit (or a sign), whitespace allowed. */
function opensWithMessageType(buffer: Buffer): boolean {
  let i = 0;
  while (i < buffer.length && WHITESPACE.has(buffer[i])) i++;
  if (buffer[i++] !== 0x5b) return false; // '['
  while (i < buffer.length && WHITESPACE.has(buffer[i])) i++;
  const c = buffer[i];
  return (c >= 0x30 && c <= 0x39) || c === 0x2d; // 0-9, '-'
}
