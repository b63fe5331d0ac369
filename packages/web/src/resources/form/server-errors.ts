import type { TFunction } from 'i18next';
import type { ValidationErrorBody } from '@ev/core';

/** A server field message key (required, already_taken, min:0 …) in the user's language, or the raw text. */
export function fieldErrorText(code: string, t: TFunction, exists: (key: string) => boolean): string {
  const [key, param] = code.split(':');
  return exists(`msg.form.${key}`) ? t(`msg.form.${key}`, { value: param ?? '' }) : code;
}

export function isValidationBody(body: unknown): body is ValidationErrorBody {
  return !!body && typeof body === 'object' && ('fields' in body || 'errors' in body);
}
