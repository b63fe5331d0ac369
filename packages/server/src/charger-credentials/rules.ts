import { randomBytes } from 'node:crypto';
import { CHARGER_PASSWORD_LENGTH } from '@ev/core';

/**
 * The rule for a charger's HTTP Basic password, shared by the password action (routes.ts) and the
 * chargers' form (resources/hooks/cps.ts): 16 to 40 printable ASCII characters without spaces, which
 * any charger's setup screen can take. The form's error codes (msg.form.*): min, too_long, invalid.
 * `min`: the chargers' form allows shorter ones for now (see resources/hooks/cps.ts).
 */
export function passwordProblem(password: string, min: number = CHARGER_PASSWORD_LENGTH.min): 'min' | 'too_long' | 'invalid' | null {
  if (password.length < min) return 'min';
  if (password.length > CHARGER_PASSWORD_LENGTH.max) return 'too_long';
  return /^[\x21-\x7e]+$/.test(password) ? null : 'invalid';
}

/**
 * 20 random characters (120 bits): hex-encoded, 20 bytes is the most the OCPP 1.6 security whitepaper
 * allows an AuthorizationKey, and within OCPP 2.0.1's 16-40 characters.
 */
export function generateChargerPassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * The value of ChangeConfiguration AuthorizationKey: the password's bytes hex-encoded, as the OCPP 1.6
 * security whitepaper (edition 2, AuthorizationKey) and OCPP-J 1.6 §7 say; the charger decodes it and
 * gives the bytes as its HTTP Basic password.
 */
export function authorizationKeyValue(password: string): string {
  return Buffer.from(password, 'utf8').toString('hex');
}
