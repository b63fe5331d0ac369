import type { FastifySchemaCompiler, RouteOptions } from 'fastify';
import { z } from 'zod';
import { badRequest, type HttpError } from './errors.ts';

/**
 * Route schemas: every route declares its params, querystring, body and answer as zod schemas in
 * Fastify's own `schema` option (types through fastify-type-provider-zod). Fastify validates the
 * request with them before the handler runs; a mismatch is the project's 400 {errors, fields}.
 */

/** The 400 of zod issues: fields maps a field to required, invalid or unknown_field. */
export function validationError(issues: readonly z.core.$ZodIssue[]): HttpError {
  const fields: Record<string, string> = {};
  const errors: string[] = [];
  for (const issue of issues) {
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
  return badRequest(errors, fields);
}

/** Parses a value with a zod schema, or throws the 400 naming its fields: for input that is not a route's own (a file's rows). */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw validationError(result.error.issues);
}

/**
 * Fastify's validator for zod route schemas. An absent body or query is an empty object, so that a
 * schema's own required fields name what is missing. The error is the project's HttpError, which
 * Fastify passes to the error handler as it is.
 */
export const zodValidator: FastifySchemaCompiler<z.ZodType> = ({ schema }) => (data) => {
  const result = schema.safeParse(data ?? {});
  return result.success ? { value: result.data } : { error: validationError(result.error.issues) };
};

/** A repeated query parameter (?opts=a&opts=b): one value arrives as a string, several as an array. */
export const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));

/** A record id in a path or query: a positive 32-bit integer. */
export const recordId = z.coerce.number().int().min(1).max(2_147_483_647);

/** The `:id` of a route's path. */
export const idParams = z.strictObject({ id: recordId });

/** No query parameters at all. */
export const noQuery = z.strictObject({});

/** An answer that is the text 'Success' (spec calls answered so). */
export const successText = { description: 'Done', content: { 'text/plain': { schema: z.literal('Success') } } };

/**
 * A route that declares no querystring takes none: an unknown parameter is a 400 on every described
 * route (the generic engine's excepted, which checks its query per resource definition).
 */
export function noQueryByDefault(route: RouteOptions): void {
  const described = route.url.startsWith('/api/') || route.config?.doc;
  if (described && !route.config?.doc?.engine && route.schema?.querystring === undefined) {
    route.schema = { ...route.schema, querystring: noQuery };
  }
}
