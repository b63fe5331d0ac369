import type { TFunction } from 'i18next';
import type { MessageInstance } from 'antd/es/message/interface';
import { ApiError } from './client.ts';

/** The generic message of spec part 1 §8 for a failed call. */
export function errorText(err: unknown, t: TFunction): string {
  if (!(err instanceof ApiError)) return t('msg.errorOccurred');
  if (err.status === 0) return t('msg.network');
  if (err.status === 400) return t('msg.badRequest');
  if (err.status === 403) return t('msg.forbidden');
  if (err.status === 404) return t('msg.notFound');
  if (err.status === 429) return t('msg.tooManyAttempts');
  if (err.status === 503) return t('msg.unavailable');
  if (err.status >= 500) return t('msg.serverError');
  return t('msg.errorOccurred');
}

/** The text of a numeric business code (error.{code}), or the generic error when we do not know it. */
export function codeText(code: unknown, t: TFunction): string {
  return t(`msg.error.${String(code)}`, { defaultValue: t('msg.errorOccurred') });
}

/**
 * A refusal the server explains with a message key (409 role_in_use, site_has_chargers …): its text when we have
 * one, else the generic message of the status.
 */
export function refusalText(err: unknown, t: TFunction, exists: (key: string) => boolean): string {
  const first = err instanceof ApiError ? (err.body as { errors?: unknown[] } | null)?.errors?.[0] : undefined;
  return typeof first === 'string' && exists(`msg.${first}`) ? t(`msg.${first}`) : errorText(err, t);
}

/**
 * Spec §8 for the answer of an action (a command to a charger, a retry, a settle): the success text, error.{errorCode}
 * for a refusal, the generic error for anything else, a failed call included.
 */
export async function reportOutcome(
  call: Promise<{ status?: string; errorCode?: unknown } | undefined>,
  successText: string,
  message: MessageInstance,
  t: TFunction,
): Promise<void> {
  try {
    const res = await call;
    if (res?.status?.toLowerCase() === 'success') void message.success(successText);
    else void message.error(res?.status === 'error' ? codeText(res.errorCode, t) : t('msg.errorOccurred'));
  } catch {
    void message.error(t('msg.errorOccurred'));
  }
}
