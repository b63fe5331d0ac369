import type { FieldDef, ResourceDef } from '@ev/core';
import { STATIC_OPTIONS } from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import { hasAll } from '../auth/guard.ts';
import { badRequest, notPermitted } from '../http/errors.ts';

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** Coerces one form value to the field's type; returns undefined (and records an error) when it cannot. */
function coerce(f: FieldDef, value: unknown, errors: Record<string, string>): unknown {
  if (value === null || value === '') return null;
  const fail = (key = 'invalid') => {
    errors[f.field] = key;
    return undefined;
  };
  switch (f.type) {
    case 'text': {
      if (typeof value !== 'string' && typeof value !== 'number') return fail();
      const s = String(value);
      if (s.length > (f.maxLength ?? 10_000)) return fail('too_long');
      // PostgreSQL text cannot hold NUL.
      if (s.includes('\u0000')) return fail();
      return f.input === 'email' && s && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) ? fail('format_error') : s;
    }
    case 'int':
    case 'float': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || (f.type === 'int' && (!Number.isInteger(n) || Math.abs(n) > 2_147_483_647))) return fail();
      if (f.min !== undefined && n < f.min) return fail('min');
      if (f.max !== undefined && n > f.max) return fail('max');
      return n;
    }
    case 'bool':
      if (value === 1 || value === '1' || value === true) return 1;
      if (value === 0 || value === '0' || value === false) return 0;
      return fail();
    case 'intArray': {
      if (!Array.isArray(value)) return fail();
      const list = value.map(Number);
      if (list.some((n) => !Number.isInteger(n) || n <= 0)) return fail();
      if (f.limit !== undefined && list.length > f.limit) return fail('too_many');
      return [...new Set(list)];
    }
    case 'json':
      if (typeof value === 'string') {
        try {
          return JSON.parse(value);
        } catch {
          return fail();
        }
      }
      return typeof value === 'object' ? value : fail();
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value.replace(' ', 'T'))) ? value : fail();
  }
}

/**
 * Checks a create or update body against the definition: only known fields, types, required,
 * bounds, fixed options, locked-after-create, confirmations. Privilege-gated fields the user lacks
 * are refused. Returns the coerced values of the fields sent (plus defaults on create).
 */
export function validateWrite(
  def: ResourceDef,
  body: unknown,
  user: AuthUser,
  mode: 'create' | 'update',
  old?: Record<string, any>,
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object');
  const input = body as Record<string, unknown>;
  const fields = new Map(def.fields.map((f) => [f.field, f]));
  const errors: Record<string, string> = {};
  for (const name of Object.keys(input)) {
    const f = fields.get(name);
    if (!f) {
      // The id of the record itself may come back in an edit form; it is ignored.
      if (name !== def.idField) errors[name] = 'unknown_field';
    } else if (!hasAll(user, f.privileges)) throw notPermitted(name);
  }
  const out: Record<string, unknown> = {};
  for (const f of fields.values()) {
    if (!hasAll(user, f.privileges)) continue;
    const sent = Object.hasOwn(input, f.field);
    let value = sent ? coerce(f, input[f.field], errors) : undefined;
    if (errors[f.field]) continue;
    if (!sent && mode === 'create' && f.default !== undefined) value = f.default;
    const mustHave = f.required || (f.requiredOnCreateOnly && mode === 'create');
    if (mustHave && isBlank(value) && (mode === 'create' || sent)) {
      errors[f.field] = 'required';
      continue;
    }
    if (mode === 'update' && f.lockedAfterCreate && sent && old && !sameValue(old[f.field], value)) {
      errors[f.field] = 'not_editable';
      continue;
    }
    if (f.options && STATIC_OPTIONS[f.options] && !isBlank(value)) {
      const allowed = STATIC_OPTIONS[f.options].map((o) => o.value);
      if (!allowed.includes(value as string | number)) {
        errors[f.field] = 'invalid';
        continue;
      }
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
