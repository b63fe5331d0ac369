import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** The page sizes of spec part 2's lists, and the chunk-load timeout of spec part 1 §9, in a real browser. */
describe('spec list page sizes and the chunk-load timeout', () => {
  let browser: Browser;
  let page: Page;
  const stamp = Date.now() % 100000;

  before(async () => {
    await api('POST', '/api/cp_locs', { address: `Pager site ${stamp}` });
    for (let i = 1; i <= 12; i++) await api('POST', '/api/contact', { name: `Pager ${stamp} ${i}`, email: `pager-${stamp}-${i}@example.com` });
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('pages a part-2 list by 10, offering 10, 20, 50 and 100; a platform list by 20', async () => {
    for (const lang of ['en', 'zh-TW'] as const) {
      await page.goto(`${portal}/contact`);
      await useLanguage(page, lang);
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      assert.equal(await page.locator('.ant-table-tbody tr.ant-table-row').count(), 10);
      const sizes = await openPageSizes(page);
      assert.deepEqual(sizes.map((s) => Number(s.match(/\d+/)![0])), [10, 20, 50, 100]);
      await screenshot(page, `spec-lists-page-sizes-${lang}`, { fullPage: false });
      await page.keyboard.press('Escape');
    }
    await page.goto(`${portal}/cp_locs`);
    const platform = await openPageSizes(page);
    assert.deepEqual(platform.map((s) => Number(s.match(/\d+/)![0])), [20, 50, 100, 200]);
  });

  it('shows the error page when a screen has not loaded in 120 s', async () => {
    for (const lang of ['en', 'zh-TW'] as const) {
      const waiting = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await waiting.goto(`${portal}/login`);
      await copyStorage(page, waiting);
      await waiting.evaluate((l) => localStorage.setItem('lang', l), lang);
      await waiting.clock.install();
      // The profile screen's code never arrives.
      await waiting.route(/\/ProfilePage-[^/]*\.js$/, () => undefined);
      await waiting.goto(`${portal}/user/profile`);
      await waiting.getByTestId('user-menu').waitFor();
      await waiting.clock.fastForward(119_000);
      assert.match(waiting.url(), /\/user\/profile$/);
      await waiting.clock.fastForward(1_000);
      await waiting.waitForURL(/\/error\/408$/);
      await waiting.getByText(lang === 'en' ? 'Server connection failed' : '伺服器連線失敗', { exact: false }).waitFor();
      await screenshot(waiting, `spec-lists-chunk-timeout-${lang}`, { fullPage: false });
      await waiting.close();
    }
  });
});

/** Signs a second page (its own browser context) in as the first: the same local storage. */
async function copyStorage(from: Page, to: Page): Promise<void> {
  const entries = await from.evaluate(() => Object.entries(localStorage));
  await to.evaluate((list) => list.forEach(([k, v]) => k !== 'lang' && localStorage.setItem(k, v)), entries);
}

/**
 * Opens the page-size picker and reads its options once the dropdown has drawn them. It opens with an animation,
 * and on a busy machine the first click can land while the table redraws: the picker is opened again then.
 */
async function openPageSizes(page: Page): Promise<string[]> {
  const picker = page.locator('.ant-pagination-options .ant-select');
  const open = page.locator('.ant-select-dropdown:visible');
  let sizes: string[] = [];
  await picker.click();
  await eventually(async () => {
    sizes = await open.locator('.ant-select-item-option').allTextContents();
    if (!sizes.length && !(await open.count())) await picker.click();
    return sizes.length > 0;
  }, 'the page-size options');
  return sizes;
}
