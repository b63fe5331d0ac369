import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Response } from 'playwright-core';
import { launch, portal } from '../support.ts';

/**
 * What the browser gets for the portal's files (issue 30): hashed assets compressed at build time and
 * cached for good, index.html revalidated at every visit so a new build is picked up at once.
 */
describe('the portal\'s files on the wire', () => {
  let browser: Browser;
  const responses: Response[] = [];

  before(async () => {
    browser = await launch();
    const page = await browser.newPage();
    page.on('response', (r) => responses.push(r));
    await page.goto(`${portal}/login`);
    await page.locator('input[type="password"]').waitFor();
  });
  after(async () => {
    await browser?.close();
  });

  it('sends index.html compressed and uncached', async () => {
    const index = responses.find((r) => new URL(r.url()).pathname.startsWith('/portal') && r.request().resourceType() === 'document');
    assert.ok(index, 'the sign-in page was loaded');
    const headers = await index.allHeaders();
    assert.equal(headers['cache-control'], 'no-cache');
    assert.match(headers['content-encoding'] ?? '', /^(br|gzip)$/);
  });

  it('sends every hashed script compressed and immutable', async () => {
    const scripts = responses.filter((r) => /\/portal\/assets\/.+-[\w-]{8}\.js$/.test(new URL(r.url()).pathname));
    assert.ok(scripts.length > 0, 'the sign-in page loads hashed scripts');
    for (const script of scripts) {
      const headers = await script.allHeaders();
      assert.equal(headers['cache-control'], 'public, max-age=31536000, immutable', script.url());
      assert.match(headers['content-encoding'] ?? '', /^(br|gzip)$/, script.url());
      assert.match(headers['vary'] ?? '', /accept-encoding/i, script.url());
    }
  });
});
