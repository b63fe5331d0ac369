import { createRequire } from 'node:module';
import type { OcppProtocol } from '@ev/core';
import { createRPCError, createValidator } from 'ocpp-rpc';

/**
 * OCPP-J framing rules of both versions the endpoint speaks. Codes are chosen in the OCPP-J 1.6 vocabulary
 * of §4.2.3 (with its own spelling "OccurenceConstraintViolation", which ocpp-rpc gets from 2.0.1 wrong
 * for 1.6) and rewritten for 2.0.1 connections on the way out (toOcpp201Frame); which schema violation
 * maps to which code.
 */
export const SUBPROTOCOL = 'ocpp1.6';
export const SUBPROTOCOL_201 = 'ocpp2.0.1';

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

/** 1.6 codes 2.0.1 spells or names otherwise (OCPP-J 2.0.1 §4.3). */
const TO_201: Partial<Record<Ocpp16ErrorCode, string>> = {
  FormationViolation: 'FormatViolation',
  OccurenceConstraintViolation: 'OccurrenceConstraintViolation',
  // 1.6 answers an unknown message type with ProtocolError; 2.0.1 has its own code.
  ProtocolError: 'MessageTypeNotSupported',
};

/** Rewrites an outgoing CALLERROR frame so that its code is one of OCPP-J 2.0.1 (whichever vocabulary it was made in). */
export function toOcpp201Frame(frame: string): string {
  if (!frame.startsWith('[4,')) return frame;
  try {
    const msg = JSON.parse(frame);
    // Only 2.0.1 has it (a frame holding no readable call, inbound.ts): already in the connection's vocabulary.
    if (msg[2] === 'RpcFrameworkError') return frame;
    const as16 = ocpp16Code(msg[2]);
    const code = TO_201[as16] ?? as16;
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
type SchemaLookup = { getSchema(id: string): CompiledSchema | undefined };

/** ocpp-rpc's ajv instance per version (private): its compiled functions are looked up once per schema, not per message. */
const ajvOf = (protocol: OcppProtocol, file: string) =>
  (createValidator(protocol, require(`ocpp-rpc/lib/schemas/${file}`)) as unknown as { _ajv: SchemaLookup })._ajv;
const AJV: Record<OcppProtocol, SchemaLookup> = { 'ocpp1.6': ajvOf('ocpp1.6', 'ocpp1_6.json'), 'ocpp2.0.1': ajvOf('ocpp2.0.1', 'ocpp2_0_1.json') };
const compiled: Record<OcppProtocol, Map<string, CompiledSchema | undefined>> = { 'ocpp1.6': new Map(), 'ocpp2.0.1': new Map() };

function compiledSchema(schemaId: string, protocol: OcppProtocol): CompiledSchema | undefined {
  const cache = compiled[protocol];
  let fn = cache.get(schemaId);
  if (fn === undefined && !cache.has(schemaId)) cache.set(schemaId, (fn = AJV[protocol].getSchema(schemaId)));
  return fn;
}

/** Why a payload breaks its schema: an OCPP-J 1.6 code, a short message and compact details. */
export interface SchemaViolation {
  code: Ocpp16ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/**
 * Checks params against the schema `urn:{action}.req|conf` of the version (ocpp-rpc's own schemas) with no
 * exception thrown: null when it conforms. The code is chosen per OCPP-J 1.6 and the details stay
 * small (the library echoes the whole payload back, which for a huge frame is a huge answer).
 */
export function schemaViolation(schemaId: string, params: unknown, protocol: OcppProtocol = SUBPROTOCOL): SchemaViolation | null {
  const fn = compiledSchema(schemaId, protocol);
  if (!fn) return { code: 'ProtocolError', message: `Schema '${schemaId}' is missing from subprotocol schema '${protocol}'`, details: {} };
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
const strictValidator = (protocol: OcppProtocol) => ({
  subprotocol: protocol,
  validate(schemaId: string, params: unknown) {
    const problem = schemaViolation(schemaId, params, protocol);
    if (problem) throw createRPCError(protocol === SUBPROTOCOL ? problem.code : TO_201[problem.code] ?? problem.code, problem.message, problem.details);
    return true;
  },
}) as unknown as ValidatorLike;
export const ocpp16Validator = strictValidator(SUBPROTOCOL);
export const ocpp201Validator = strictValidator(SUBPROTOCOL_201);

/** The first schema error of a payload with ajv's parameters (the missing property, the allowed values …); null when it conforms. */
export function schemaError(action: string, kind: 'req' | 'conf', params: unknown, protocol: OcppProtocol = SUBPROTOCOL): { path: string; keyword: string; params: Record<string, unknown> } | null {
  const fn = compiledSchema(`urn:${action}.${kind}`, protocol);
  if (!fn || fn(params)) return null;
  const first = fn.errors?.[0];
  return { path: first?.instancePath || '', keyword: first?.keyword ?? '', params: first?.params ?? {} };
}

/** Validates a payload against the schema `urn:{action}.req|conf` of the version; returns the first problem or null. */
export function schemaProblem(action: string, kind: 'req' | 'conf', params: unknown, protocol: OcppProtocol = SUBPROTOCOL): string | null {
  return schemaViolation(`urn:${action}.${kind}`, params, protocol)?.message ?? null;
}

const INT32_MAX = 2 ** 31 - 1;

/** Integers the database stores in int4 columns: a larger one is a value no charger should send. */
export function int32(name: string, value: number | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  if (value < 0 || value > INT32_MAX) throw createRPCError('PropertyConstraintViolation', `${name} out of range`);
  return value;
}
