import { z } from 'zod';
import type { FieldDef, ResourceDef } from '@ev/core';
import { EMAIL_PATTERN, STATIC_OPTIONS } from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import { hasAll } from '../auth/guard.ts';
import { badRequest, notPermitted } from '../http/errors.ts';

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

const INT_LIMIT = 2_147_483_647;
/** The message keys a field's schema answers with (msg.form.<key> in the portal). */
const MESSAGE_KEYS = new Set(['invalid', 'too_long', 'format_error', 'min', 'max', 'too_many']);
const invalid = { error: 'invalid' };

/** A number, or a string holding one (form inputs send both). */
const numeric = z.union([z.number(invalid), z.string().trim().min(1, invalid).transform(Number)], invalid).pipe(z.number(invalid));

/** The zod schema of one form field: its type, bounds and format; '' and null mean "no value". */
function fieldSchema(f: FieldDef): z.ZodType {
  const typed: z.ZodType = (() => {
    switch (f.type) {
      case 'text':
        return z
          .union([z.string(), z.number().transform(String)], invalid)
          .pipe(
            z.string()
              .max(f.maxLength ?? 10_000, { error: 'too_long' })
              // PostgreSQL text cannot hold NUL.
              .refine((v) => !v.includes('\u0000'), invalid)
              .refine((v) => f.input !== 'email' || EMAIL_PATTERN.test(v), { error: 'format_error' }),
          );
      case 'int':
      case 'float': {
        let n: z.ZodType<number> = f.type === 'int' ? numeric.pipe(z.int(invalid).min(-INT_LIMIT, invalid).max(INT_LIMIT, invalid)) : numeric;
        if (f.min !== undefined) n = n.pipe(z.number().min(f.min, { error: 'min' }));
        if (f.max !== undefined) n = n.pipe(z.number().max(f.max, { error: 'max' }));
        return n;
      }
      case 'bool':
        return z.union([
          z.union([z.literal(1), z.literal('1'), z.literal(true)]).transform(() => 1),
          z.union([z.literal(0), z.literal('0'), z.literal(false)]).transform(() => 0),
        ], invalid);
      case 'intArray':
        return z
          .array(z.unknown(), invalid)
          .transform((list) => list.map(Number))
          .pipe(z.array(z.int(invalid).positive(invalid)).max(f.limit ?? Number.MAX_SAFE_INTEGER, { error: 'too_many' }))
          .transform((list) => [...new Set(list)]);
      case 'json':
        return z.unknown().transform((v, ctx) => {
          if (typeof v === 'object') return v;
          if (typeof v === 'string') {
            try {
              return JSON.parse(v);
            } catch {
              /* answered below */
            }
          }
          ctx.addIssue({ code: 'custom', message: 'invalid' });
          return z.NEVER;
        });
      case 'timestamp':
        return z.string(invalid).refine((v) => !Number.isNaN(Date.parse(v.replace(' ', 'T'))), invalid);
    }
  })();
  // A fixed option list (in code) names every value the field may take.
  const allowed = f.options && Object.hasOwn(STATIC_OPTIONS, f.options) ? STATIC_OPTIONS[f.options].map((o) => o.value) : undefined;
  // A multiselect over a fixed list (a text array held as json) names only values of the list.
  const checked = allowed ? typed.refine((v) => (Array.isArray(v) ? v : [v]).every((x) => allowed.includes(x as string | number)), invalid) : typed;
  return z.preprocess((v) => (v === '' ? null : v), checked.nullable());
}

/** Per definition, the zod schema of each form field, built once. */
const schemas = new WeakMap<ResourceDef, Map<string, z.ZodType>>();
function fieldSchemas(def: ResourceDef): Map<string, z.ZodType> {
  let map = schemas.get(def);
  if (!map) {
    map = new Map(def.fields.map((f) => [f.field, fieldSchema(f)]));
    schemas.set(def, map);
  }
  return map;
}

/**
 * Coerces the fields a body sends, each through its schema: a field that does not fit gets the
 * message key of its first problem, the others their coerced value.
 */
function coerceFields(def: ResourceDef, input: Record<string, unknown>, errors: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, schema] of fieldSchemas(def)) {
    if (!Object.hasOwn(input, field)) continue;
    const result = schema.safeParse(input[field]);
    if (result.success) out[field] = result.data;
    else errors[field] = MESSAGE_KEYS.has(result.error.issues[0].message) ? result.error.issues[0].message : 'invalid';
  }
  return out;
}

/**
 * Checks a create or update body against the definition: only known fields, types and bounds
 * (the zod schema built from the fields), required, fixed options, locked-after-create,
 * confirmations. Privilege-gated fields the user lacks
 * are refused. Returns the coerced values of the fields sent (plus defaults on create).
 *
 * On update, `shown` is the record as GET /api/{key}/{id} shows it to this user: a record read
 * and sent back whole may carry its read-only columns (lupd_dttm, live status …), which are
 * ignored when unchanged.
 */
export function validateWrite(
  def: ResourceDef,
  body: unknown,
  user: AuthUser,
  mode: 'create' | 'update',
  old?: Record<string, any>,
  shown?: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object');
  const input = body as Record<string, unknown>;
  const fields = new Map(def.fields.map((f) => [f.field, f]));
  const errors: Record<string, string> = {};
  for (const name of Object.keys(input)) {
    const f = fields.get(name);
    if (!f) {
      // The id of the record itself may come back in an edit form; it is ignored.
      if (name === def.idField) continue;
      if (mode === 'update' && shown && Object.hasOwn(shown, name)) {
        // A read-only value the record shows: ignored when sent back as shown (compared as JSON,
        // the form GET answered with). A changed one is refused as not_editable rather than
        // unknown_field: the column exists and the client read it, it just cannot be written,
        // which is the key a locked field already answers with (and the portal translates).
        if (!sameValue(shown[name], input[name])) errors[name] = 'not_editable';
        continue;
      }
      errors[name] = 'unknown_field';
    } else if (!hasAll(user, f.privileges)) throw notPermitted(name);
  }
  const coerced = coerceFields(def, input, errors);
  const out: Record<string, unknown> = {};
  for (const f of fields.values()) {
    if (!hasAll(user, f.privileges)) continue;
    const sent = Object.hasOwn(input, f.field);
    let value = sent ? coerced[f.field] : undefined;
    if (errors[f.field]) continue;
    if (!sent && mode === 'create' && f.default !== undefined) value = f.default;
    const mustHave = f.required || (f.requiredOnCreateOnly && mode === 'create');
    if (mustHave && isBlank(value) && (mode === 'create' || sent)) {
      errors[f.field] = f.missingMessage ?? 'required';
      continue;
    }
    if (f.fixed && sent && !sameValue(mode === 'create' ? f.default : old?.[f.field], value)) {
      errors[f.field] = 'not_editable';
      continue;
    }
    if (mode === 'update' && f.lockedAfterCreate && sent && old && !sameValue(old[f.field], value)) {
      errors[f.field] = 'not_editable';
      continue;
    }
    if (sent || value !== undefined) out[f.field] = value;
  }
  for (const f of fields.values()) {
    if (f.sameAs && !errors[f.field] && (out[f.field] ?? null) !== (out[f.sameAs] ?? null) && (!isBlank(out[f.field]) || !isBlank(out[f.sameAs]))) {
      errors[f.field] = 'not_match';
    }
  }
  if (Object.keys(errors).length) {
    throw badRequest(Object.entries(errors).map(([k, v]) => `${k}: ${v}`), errors);
  }
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
