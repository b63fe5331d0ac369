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

/** Rewrites an outgoing CALLERROR frame so that its code is one of OCPP-J 1.6. Other frames pass unchanged. */
export function toOcpp16Frame(frame: string): string {
  if (!frame.startsWith('[4,')) return frame;
  try {
    const msg = JSON.parse(frame);
    const code = msg[2];
    if ((OCPP16_ERROR_CODES as readonly string[]).includes(code)) return frame;
    msg[2] = TO_16[code] ?? 'GenericError';
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

interface AjvError { keyword: string; instancePath?: string; message?: string }
type ValidatorLike = ReturnType<typeof createValidator>;

const require = createRequire(import.meta.url);
const base = createValidator(SUBPROTOCOL, require('ocpp-rpc/lib/schemas/ocpp1_6.json'));

/** ocpp-rpc's ajv instance (private): its compiled functions are looked up once per schema, not per message. */
const ajv = (base as unknown as { _ajv?: { getSchema(id: string): ((data: unknown) => boolean) | undefined } })._ajv;
const compiled = new Map<string, ((data: unknown) => boolean) | undefined>();

function compiledSchema(schemaId: string): ((data: unknown) => boolean) | undefined {
  if (!ajv) return undefined;
  if (!compiled.has(schemaId)) compiled.set(schemaId, ajv.getSchema(schemaId));
  return compiled.get(schemaId);
}

/**
 * The strict-mode validator for ocpp1.6: ocpp-rpc's own schemas, with the error code chosen per
 * OCPP-J 1.6 and compact details (the library echoes the whole payload back, which for a huge
 * frame is a huge answer). A valid payload is checked by the compiled function alone (the
 * library resolves the schema id on every call); anything else goes the library's way for its errors.
 */
export const ocpp16Validator = {
  subprotocol: SUBPROTOCOL,
  validate(schemaId: string, params: unknown) {
    if (compiledSchema(schemaId)?.(params)) return true;
    try {
      return base.validate(schemaId, params);
    } catch (err: any) {
      const errors: AjvError[] = err?.details?.errors ?? [];
      if (!errors.length) throw err;
      const code = KEYWORD_CODES[errors[0].keyword] ?? 'FormationViolation';
      const details = { errors: errors.slice(0, 3).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message })) };
      throw createRPCError(code, `${errors[0].instancePath || 'payload'} ${errors[0].message ?? 'is invalid'}`, details);
    }
  },
} as unknown as ValidatorLike;

/** Validates a payload against the OCPP 1.6 schema `urn:{action}.req|conf`; returns the first problem or null. */
export function schemaProblem(action: string, kind: 'req' | 'conf', params: unknown): string | null {
  try {
    ocpp16Validator.validate(`urn:${action}.${kind}`, params);
    return null;
  } catch (err: any) {
    return err?.message ?? 'invalid';
  }
}

const INT32_MAX = 2 ** 31 - 1;

/** Integers the database stores in int4 columns: a larger one is a value no charger should send. */
export function int32(name: string, value: number | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  if (value < 0 || value > INT32_MAX) throw createRPCError('PropertyConstraintViolation', `${name} out of range`);
  return value;
}
