import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';

/**
 * The portal's own pages and scripts only: antd writes its styles inline (style-src), Excel and
 * PDF downloads are blob: URLs, the LMS socket is same-origin (connect-src 'self'); pictures may
 * also come from HTTPS addresses (the parking system's).
 */
const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // https: the parking system's camera shots of a bay (bay.image), shown where they are; an image runs no script.
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Security headers on every answer (errors and 404s included: helmet's hooks run first), and CORS
 * closed unless CORS_ORIGINS names the origins another web app may call the API from (the portal
 * itself is same-origin and needs none). Await it before the token check: a preflight carries no
 * token, so it is answered (204) by the CORS hook before that check runs.
 */
export async function securityHeaders(app: FastifyInstance, corsOrigins: readonly string[]): Promise<void> {
  await app.register(helmet, {
    // Exactly this policy: none of helmet's default directives (upgrade-insecure-requests would break plain-HTTP installs).
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // HSTS is the TLS terminator's to send: the server may be reached over plain HTTP (behind it, or on a LAN), and
    // helmet's includeSubDomains would bind hosts it knows nothing about. Helmet's other defaults stay: they break
    // nothing here (cross-origin-resource-policy same-origin does not apply to CORS fetches; the portal, /api/docs
    // and downloads are same-origin).
    strictTransportSecurity: false,
  });
  if (corsOrigins.length === 0) return;
  const allowed = new Set(corsOrigins);
  await app.register(cors, {
    // Per request: only /api/ and only the named origins; anything else gets no CORS at all (a preflight then
    // reaches the token check and is refused, as without CORS).
    delegator: (req, cb) => {
      const origin = req.headers.origin;
      const open = origin !== undefined && allowed.has(origin) && req.url.startsWith('/api/');
      cb(null, {
        origin: open ? origin : false,
        methods: ['GET', 'POST', 'PUT', 'DELETE'],
        allowedHeaders: ['authorization', 'content-type', 'x-app-id', 'x-api-key'],
        maxAge: 600,
      });
    },
  });
}
