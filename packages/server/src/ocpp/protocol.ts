import { createRequire } from 'node:module';
import { createRPCError, createValidator } from 'ocpp-rpc';

/**
 * OCPP-J 1.6 framing rules that ocpp-rpc gets from OCPP 2.0.1: the CALLERROR codes of
 * OCPP-J 1.6 §4.2.3 (with the specification's own spelling "OccurenceConstraintViolation"), and
 * which schema violation maps to which of them.
 */
export const SUBPROTOCOL = 'ocpp1.6';

export const OCPP16_ERROR_CODES = [
  'NotImplemented', 'NotSupported', 'InternalError', 'ProtocolError', 'SecurityError', 'FormationViolation',
  'PropertyConstraintViolation', 'OccurenceConstraintViolation', 'TypeConstraintViolation', 'GenericError',
] as const;
export type Ocpp16ErrorCode = (typeof OCPP16_ERROR_CODES)[number];

/** Codes ocpp-rpc may put in a CALLERROR that OCPP 1.6 does not define, and their 1.6 equivalent. */
const TO_16: Record<string, Ocpp16ErrorCode> = {
  // Unparsable JSON, not an array, no message id: the frame is syntactically wrong.
  RpcFrameworkError: 'FormationViolation',
  FormatViolation: 'FormationViolation',
  // ocpp-rpc "corrects" the 1.6 spelling for ocpp1.6 connections; chargers expect the 1.6 one.
  OccurrenceConstraintViolation: 'OccurenceConstraintViolation',
  // A message type other than 2, 3, 4.
  MessageTypeNotSupported: 'ProtocolError',
};

/** An error code as OCPP-J 1.6 spells it. */
export function ocpp16Code(code: unknown): Ocpp16ErrorCode {
  if ((OCPP16_ERROR_CODES as readonly unknown[]).includes(code)) return code as Ocpp16ErrorCode;
  return TO_16[String(code)] ?? 'GenericError';
}

/** Rewrites an outgoing CALLERROR frame so that its code is one of OCPP-J 1.6. Other frames pass unchanged. */
export function toOcpp16Frame(frame: string): string {
  if (!frame.startsWith('[4,')) return frame;
  try {
    const msg = JSON.parse(frame);
    const code = ocpp16Code(msg[2]);
    if (code === msg[2]) return frame;
    msg[2] = code;
    return JSON.stringify(msg);
  } catch {
    return frame;
  }
}

/** JSON-schema keyword of the first violation → OCPP-J 1.6 error code. */
const KEYWORD_CODES: Record<string, Ocpp16ErrorCode> = {
  type: 'TypeConstraintViolation',
  required: 'OccurenceConstraintViolation',
  minItems: 'OccurenceConstraintViolation',
  maxItems: 'OccurenceConstraintViolation',
  enum: 'PropertyConstraintViolation',
  maxLength: 'PropertyConstraintViolation',
  minLength: 'PropertyConstraintViolation',
  pattern: 'PropertyConstraintViolation',
  format: 'PropertyConstraintViolation',
  minimum: 'PropertyConstraintViolation',
  maximum: 'PropertyConstraintViolation',
  exclusiveMinimum: 'PropertyConstraintViolation',
  exclusiveMaximum: 'PropertyConstraintViolation',
  multipleOf: 'PropertyConstraintViolation',
  // An unknown property: the payload does not conform to the PDU structure.
  additionalProperties: 'FormationViolation',
};

interface AjvError { keyword: string; instancePath?: string; message?: string; params?: Record<string, unknown> }
type ValidatorLike = ReturnType<typeof createValidator>;
type CompiledSchema = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const require = createRequire(import.meta.url);
const base = createValidator(SUBPROTOCOL, require('ocpp-rpc/lib/schemas/ocpp1_6.json'));

/** ocpp-rpc's ajv instance (private): its compiled functions are looked up once per schema, not per message. */
const ajv = (base as unknown as { _ajv: { getSchema(id: string): CompiledSchema | undefined } })._ajv;
const compiled = new Map<string, CompiledSchema | undefined>();

function compiledSchema(schemaId: string): CompiledSchema | undefined {
  let fn = compiled.get(schemaId);
  if (fn === undefined && !compiled.has(schemaId)) compiled.set(schemaId, (fn = ajv.getSchema(schemaId)));
  return fn;
}

/** Why a payload breaks its schema: an OCPP-J 1.6 code, a short message and compact details. */
export interface SchemaViolation {
  code: Ocpp16ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/**
 * Checks params against the OCPP 1.6 schema `urn:{action}.req|conf` (ocpp-rpc's own schemas) with no
 * exception thrown: null when it conforms. The code is chosen per OCPP-J 1.6 and the details stay
 * small (the library echoes the whole payload back, which for a huge frame is a huge answer).
 */
export function schemaViolation(schemaId: string, params: unknown): SchemaViolation | null {
  const fn = compiledSchema(schemaId);
  if (!fn) return { code: 'ProtocolError', message: `Schema '${schemaId}' is missing from subprotocol schema '${SUBPROTOCOL}'`, details: {} };
  if (fn(params)) return null;
  const errors = fn.errors ?? [];
  const first = errors[0];
  return {
    code: (first && KEYWORD_CODES[first.keyword]) ?? 'FormationViolation',
    message: `${first?.instancePath || 'payload'} ${first?.message ?? 'is invalid'}`,
    details: { errors: errors.slice(0, 3).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message })) },
  };
}

/** The strict-mode validator ocpp-rpc calls for our own calls to chargers and their answers: schemaViolation, thrown. */
export const ocpp16Validator = {
  subprotocol: SUBPROTOCOL,
  validate(schemaId: string, params: unknown) {
    const problem = schemaViolation(schemaId, params);
    if (problem) throw createRPCError(problem.code, problem.message, problem.details);
    return true;
  },
} as unknown as ValidatorLike;

/** The first schema error of a payload with ajv's parameters (the missing property, the allowed values …); null when it conforms. */
export function schemaError(action: string, kind: 'req' | 'conf', params: unknown): { path: string; keyword: string; params: Record<string, unknown> } | null {
  const fn = compiledSchema(`urn:${action}.${kind}`);
  if (!fn || fn(params)) return null;
  const first = fn.errors?.[0];
  return { path: first?.instancePath || '', keyword: first?.keyword ?? '', params: first?.params ?? {} };
}

/** Validates a payload against the OCPP 1.6 schema `urn:{action}.req|conf`; returns the first problem or null. */
export function schemaProblem(action: string, kind: 'req' | 'conf', params: unknown): string | null {
  return schemaViolation(`urn:${action}.${kind}`, params)?.message ?? null;
}

const INT32_MAX = 2 ** 31 - 1;

/** Integers the database stores in int4 columns: a larger one is a value no charger should send. */
export function int32(name: string, value: number | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  if (value < 0 || value > INT32_MAX) throw createRPCError('PropertyConstraintViolation', `${name} out of range`);
  return value;
}
