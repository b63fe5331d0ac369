import dayjs, { type Dayjs } from 'dayjs';
import { isTrue, type FieldDef } from '@ev/core';

const DATETIME = 'YYYY-MM-DD HH:mm:ss';
const TIME = 'HH:mm';

export type FormValues = Record<string, unknown>;

/** A stored value as the form widget holds it (Switch: boolean, pickers: dayjs, json: text). */
export function toFormValue(field: FieldDef, raw: unknown): unknown {
  if (field.input === 'boolean') return isTrue(raw);
  if (raw === null || raw === undefined) return undefined;
  switch (field.input) {
    case 'datetime':
      return dayjs(String(raw));
    case 'time':
      return dayjs(String(raw), TIME);
    case 'json':
      return typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2);
    case 'multiselect':
      return Array.isArray(raw) ? raw : [raw];
    default:
      return raw;
  }
}

/** A widget value as sent to the server: booleans as 1 / 0, dates as text, empty as null. */
export function toPayloadValue(field: FieldDef, value: unknown): unknown {
  if (field.input === 'boolean') return value ? 1 : 0;
  if (value === undefined || value === null || value === '') return null;
  switch (field.input) {
    case 'datetime':
      return (value as Dayjs).format(DATETIME);
    case 'time':
      return (value as Dayjs).format(TIME);
    case 'json':
      return JSON.parse(String(value));
    default:
      return value;
  }
}

export function initialFormValues(fields: FieldDef[], record: FormValues | undefined): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    // Passwords and other write-only fields are never prefilled (spec part 1 §3).
    if (f.writeOnly) continue;
    values[f.field] = toFormValue(f, record ? record[f.field] : f.default);
  }
  return values;
}

/** Comparable text of a payload value, so 1 and '1' or reordered JSON keys don't count as changes. */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined || v === null || v === '' ? null : typeof v === 'number' ? String(v) : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
