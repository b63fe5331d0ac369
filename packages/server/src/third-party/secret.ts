import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../crypto/passwords.ts';

/** A new app secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the api_key column shows for a stored secret: never the secret, nor its hash. */
export const MASKED_SECRET = '••••••••';

/**
 * The plaintext of the secret the create hook made, for the create route to answer once: the hook
 * runs inside the engine's transaction, the route around it. Nothing is kept past the request.
 */
const created = new AsyncLocalStorage<{ secret?: string }>();

export function withCreatedSecret<T>(fn: () => Promise<T>): Promise<{ result: T; secret: string | undefined }> {
  const box: { secret?: string } = {};
  return created.run(box, async () => ({ result: await fn(), secret: box.secret }));
}

/** Makes a secret for a new conf and answers its hash; the plaintext goes to the surrounding create route. */
export async function secretForNewConf(): Promise<string> {
  const secret = newSecret();
  const box = created.getStore();
  if (box) box.secret = secret;
  return hashPassword(secret);
}
