import type { ValidationErrorBody } from '@ev/core';

/** An error answered to the client with its HTTP status and JSON body; never logged as a fault. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${statusCode}`);
  }
}

/** 400 with {errors, fields}: fields maps a field name to a message key. */
export function badRequest(errors: string[] | string, fields: Record<string, string> = {}): HttpError {
  const body: ValidationErrorBody = { errors: Array.isArray(errors) ? errors : [errors], fields };
  return new HttpError(400, { ...body });
}

/**
 * A refusal of one value the user may not set (a privileged field, a role above their own, a site
 * outside theirs). 400 rather than 403: in the portal a 403 ends the session (spec part 1 §8).
 */
export const notPermitted = (field: string) => badRequest(`${field}: not_permitted`, { [field]: 'not_permitted' });

export const unauthorized = () => new HttpError(401, { message: 'Not signed in or the session has ended' });
export const forbidden = (privilege?: string) =>
  new HttpError(403, { message: 'Insufficient operation permissions or account logged out', ...(privilege ? { privilege } : {}) });
export const notFound = (what = 'Not found') => new HttpError(404, { message: what });
