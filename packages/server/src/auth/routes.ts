import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storedText, type LoginResponse, type MeResponse } from '@ev/core';
import { badRequest, HttpError } from '../http/errors.ts';
import { currentUser } from './guard.ts';
import { verifyPassword } from '../crypto/passwords.ts';
import { FailureLimiter, SharedFailureLimiter } from './rate-limit.ts';
import { issueToken, revokeToken, writeUserLog } from './session.ts';
import { getSetting } from '../settings.ts';
import { API_VERSION } from '../version.ts';

const LoginBody = z.strictObject({ username: z.string().min(1).max(64), password: z.string().min(1).max(128) });
const LoginAnswer = z.object({ token: z.string() }) satisfies z.ZodType<LoginResponse>;
const MeAnswer = z.object({
  id: z.int(),
  name: z.string(),
  username: z.string(),
  privileges: z.array(z.string()),
  max_role_level: z.int(),
  role: z.string(),
  roles: z.array(z.string()),
  home_screen: z.string(),
}) satisfies z.ZodType<MeResponse>;
const LOGIN_FAILED = 'Login failed, incorrect account or password';

export function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // 10 failures per username and 50 per address in 15 minutes, then 429 until the window moves on
  // (Retry-After: the seconds until then); counted across all nodes when they share Redis.
  const limiter = (name: string, limit: number) => app.redis
    ? new SharedFailureLimiter(app.redis, name, limit, 15 * 60_000, app.log)
    : new FailureLimiter(limit, 15 * 60_000);
  const byUser = limiter('user', 10);
  const byIp = limiter('ip', 50);

  app.post('/api/login', {
    schema: { body: LoginBody, response: { 200: LoginAnswer } },
    config: { public: true, doc: { summary: 'Sign in: {username, password} answers {token}' } },
  }, async (req, reply): Promise<LoginResponse> => {
    const { username, password } = req.body;
    const ip = req.ip;
    const userKey = username.toLowerCase();
    const waitMs = Math.max(...(await Promise.all([byUser.retryAfterMs(userKey), byIp.retryAfterMs(ip)])));
    if (waitMs > 0) {
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
      throw new HttpError(429, { message: 'Too many failed sign-ins, please try again later' });
    }
    const [user] = await app.db.query(
      `SELECT id, password_hash, active FROM users WHERE username = $1 AND deleted_at IS NULL`,
      [username],
    );
    const ok = user && user.active === 1 && (await verifyPassword(password, user.password_hash));
    if (!ok) {
      await Promise.all([byUser.fail(userKey), byIp.fail(ip)]);
      const reason = !user ? 'loginUnknownUser' : user.active !== 1 ? 'loginInactive' : 'loginWrongPassword';
      await writeUserLog(app.db, { type: 'LOGIN_FAILED', username, userId: user?.id, ip, msg: storedText(`msg.log.user.${reason}`) });
      throw badRequest(LOGIN_FAILED);
    }
    await byUser.clear(userKey);
    const token = await issueToken(app.db, user.id, ip, app.config.tokenTtlHours);
    await writeUserLog(app.db, { type: 'LOGIN', username, userId: user.id, ip, msg: storedText('msg.log.user.login') });
    return { token };
  });

  app.post('/api/logout', { config: { doc: { summary: 'Sign out: the token is revoked', privileges: [] } } }, async (req) => {
    const user = currentUser(req);
    await revokeToken(app.db, user.tokenId);
    await writeUserLog(app.db, { type: 'LOGOUT', username: user.username, userId: user.id, ip: req.ip, msg: storedText('msg.log.user.logout') });
    return { status: 'success' };
  });

  app.post('/api/me', { schema: { response: { 200: MeAnswer } }, config: { doc: { summary: 'The signed-in user: name, role, privileges, sites', privileges: [] } } }, async (req): Promise<MeResponse> => {
    const user = currentUser(req);
    return {
      id: user.id,
      name: user.name,
      username: user.username,
      privileges: [...user.privileges].sort(),
      max_role_level: user.roleLevel,
      role: user.role,
      roles: [user.role],
      home_screen: await getSetting(app.db, 'home_screen'),
    };
  });

  app.get('/api/app/version', { config: { public: true, doc: { summary: 'The API version' } } }, async () => ({ version: API_VERSION }));
}
