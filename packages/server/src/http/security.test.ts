import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';

describe('security headers and CORS', () => {
  let closed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    closed = await startTestServer();
    open = await startTestServer({ corsOrigins: ['https://app.example.com'] });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('sends the security headers on API answers, refusals and the portal', async () => {
    for (const res of [await closed.api('GET', '/api/app/version'), await closed.api('GET', '/api/cps'), await closed.api('GET', '/api/nowhere')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it('sends exactly the portal\'s CSP, on errors and outside /api too, and no HSTS (the TLS terminator\'s)', async () => {
    const token = await closed.login();
    const invalid = await closed.api('GET', '/api/cps?size=lots', { token });
    expect(invalid.status).toBe(400);
    const missing = await closed.api('GET', '/nowhere');
    expect(missing.status).toBe(404);
    for (const res of [invalid, missing]) {
      const csp = res.headers.get('content-security-policy')!.split(';').map((d) => d.trim());
      expect(csp).toEqual([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob: https:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('keeps CORS closed by default: no allow-origin, a preflight is not answered', async () => {
    const origin = { origin: 'https://evil.example.com' };
    const token = await closed.login();
    const read = await closed.api('GET', '/api/cps', { token, headers: origin });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await closed.api('OPTIONS', '/api/cps', { headers: { ...origin, 'access-control-request-method': 'GET' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });

  it('opens CORS to the configured origins only', async () => {
    const preflight = await open.api('OPTIONS', '/api/cps', { headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-app-id, x-api-key');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE');
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
    expect(preflight.headers.get('x-content-type-options')).toBe('nosniff');
    const token = await open.login();
    const read = await open.api('GET', '/api/cps', { token, headers: { origin: 'https://app.example.com' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(read.headers.get('vary')).toContain('Origin');
    const other = await open.api('OPTIONS', '/api/cps', { headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.status).toBeGreaterThanOrEqual(400);
    // Only the API: the portal's files are not opened to other origins.
    const portal = await open.api('OPTIONS', '/portal/', { headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } });
    expect(portal.headers.get('access-control-allow-origin')).toBeNull();
    expect(portal.status).toBeGreaterThanOrEqual(400);
  });
});
