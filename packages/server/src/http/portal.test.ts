import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';

describe('serving the built portal', () => {
  let s: TestServer;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
    s = await startTestServer({ portalDir: dir, portalPath: '/portal/' });
  });
  afterAll(() => s.close());

  const get = (path: string) => fetch(s.baseUrl + path, { redirect: 'manual' });

  it('answers index.html for the portal routes the browser reloads', async () => {
    for (const path of ['/portal/', '/portal/cps/12', '/portal/v2/quickinfo']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>portal</title>');
    }
  });

  it('sends /portal (no trailing slash, where home leaves the address bar) to /portal/', async () => {
    const res = await get('/portal');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/portal/');
    expect((await get('/portal?lang=zh-TW')).headers.get('location')).toBe('/portal/?lang=zh-TW');
  });

  it('keeps other paths a JSON 404', async () => {
    for (const path of ['/portalx', '/other', '/portalx/cps']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'This page does not exist' });
    }
  });
});
