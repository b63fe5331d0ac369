import type { FastifyInstance } from 'fastify';

/**
 * The portal's own pages and scripts only: antd writes its styles inline (style-src), Excel and
 * PDF downloads are blob: URLs, the LMS socket is same-origin (connect-src 'self'); pictures may
 * also come from HTTPS addresses (the parking system's).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // https: the parking system's camera shots of a bay (bay.image), shown where they are; an image runs no script.
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Security headers on every answer, and CORS closed unless CORS_ORIGINS names the origins another
 * web app may call the API from (the portal itself is same-origin and needs none). Registered
 * before the token check, so a preflight (which carries no token) is answered here.
 */
export function securityHeaders(app: FastifyInstance, corsOrigins: readonly string[]): void {
  const allowed = new Set(corsOrigins);
  app.addHook('onRequest', async (req, reply) => {
    for (const [name, value] of Object.entries(HEADERS)) reply.header(name, value);
    const origin = req.headers.origin;
    if (!origin || !allowed.has(origin) || !req.url.startsWith('/api/')) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      return reply
        .header('access-control-allow-methods', 'GET, POST, PUT, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type, x-app-id, x-api-key')
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    }
  });
}
