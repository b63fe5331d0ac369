import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, screenshot } from '../support.ts';

/** The API's interactive page (swagger-ui at /api/docs) in a real browser, under the server's strict CSP. */
describe('the API documentation page', () => {
  let browser: Browser;
  let page: Page;
  const cspErrors: string[] = [];

  before(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    page.on('pageerror', (e) => cspErrors.push(`page error: ${e.message}`));
  });
  after(async () => {
    await browser?.close();
  });

  it('renders the document and opens an operation, with no CSP violation', async () => {
    await page.goto(`${baseUrl}/api/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
    // Tags start folded (docExpansion 'none'): open the resource's, then its list operation.
    await page.locator('.opblock-tag[data-tag="cp_zones"]').click();
    const zones = page.locator('.opblock-summary', { hasText: '/api/cp_zones' }).filter({ has: page.locator('.opblock-summary-method', { hasText: 'GET' }) }).first();
    await zones.waitFor();
    await zones.click();
    // The operation's own block: its parameters, and who may call it.
    const opened = page.locator('.opblock.is-open').first();
    await opened.locator('.parameters-container, .opblock-section').first().waitFor();
    await opened.getByText('READ_CP_ZONES', { exact: false }).first().waitFor();
    await screenshot(page, 'api-docs-cp-zones', { fullPage: false });
    assert.deepEqual(cspErrors, []);
  });
});
