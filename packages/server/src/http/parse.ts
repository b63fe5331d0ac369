import type { z } from 'zod';
import { badRequest } from './errors.ts';

/** Parses a body or query with a zod schema; any mismatch is a 400 naming the fields. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  const errors: string[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) fields[k] = 'unknown_field';
      errors.push(`Unknown field: ${issue.keys.join(', ')}`);
    } else if (path) {
      fields[path] ??= issue.code === 'invalid_type' && issue.input === undefined ? 'required' : 'invalid';
      errors.push(`${path}: ${issue.message}`);
    } else {
      errors.push(issue.message);
    }
  }
  throw badRequest(errors, fields);
}
