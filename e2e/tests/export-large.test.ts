import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page, Route } from 'playwright-core';
import { api, buttonName, launch, portal, screenshot, signIn, useLanguage } from '../support.ts';

/**
 * A very large Excel export (issue 30) in a real browser: past the cap (a million rows) the user is
 * told before the file starts and may cancel; while the file comes, a message says so. The list's
 * answer is given a total of 2,345,678 rows on its way to the page (the database holds a few):
 * filling a real million would cost the suite minutes for the same screens.
 */
describe('a very large Excel export in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let exports = 0;
  const stamp = Date.now().toString(36).slice(-5).toUpperCase();

  before(async () => {
    await api('POST', '/api/cp_locs', { address: `Export E2E ${stamp}` });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    await page.route((url) => url.pathname === '/api/cp_locs', async (route: Route) => {
      const res = await route.fetch();
      const body = await res.json();
      body.dataset = { ...body.dataset, totalElements: 2_345_678, totalIsEstimate: true };
      await route.fulfill({ response: res, json: body });
    });
    // The file is held back a second, as a large one would take: the message shows meanwhile.
    await page.route((url) => url.pathname === '/api/cp_locs/export/excel', async (route: Route) => {
      exports++;
      const res = await route.fetch();
      await new Promise((ok) => setTimeout(ok, 1000));
      await route.fulfill({ response: res });
    });
    await signIn(page);
  });
  after(async () => {
    await browser?.close();
  });

  it('warns that only the first million rows will be exported, exports on Export, and shows the download going', async () => {
    await page.goto(`${portal}/cp_locs`);
    await useLanguage(page, 'en');
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    const confirm = page.locator('.ant-modal-confirm:visible');

    await page.getByRole('button', { name: /Export Excel/ }).click();
    await confirm.getByText('This list has about 2,345,678 rows; the Excel file will hold the first 1,000,000. Narrow the filters to export the rest.').waitFor();
    await confirm.locator('.ant-modal-confirm-title', { hasText: 'Export the first 1,000,000 rows?' }).waitFor();
    await screenshot(page, 'export-large-1-cap-en', { fullPage: false });
    await confirm.getByRole('button', { name: buttonName('Cancel') }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.equal(exports, 0, 'Cancel exports nothing');

    await page.getByRole('button', { name: /Export Excel/ }).click();
    const download = page.waitForEvent('download');
    await confirm.getByRole('button', { name: buttonName('Export') }).click();
    const progress = page.getByTestId('export-progress');
    await progress.getByText('Preparing the Excel file…').waitFor();
    await screenshot(page, 'export-large-2-progress-en', { fullPage: false });
    assert.equal((await download).suggestedFilename(), 'cp_locs.xlsx');
    assert.equal(exports, 1);
    await progress.waitFor({ state: 'hidden' });
  });

  it('says it in Chinese too', async () => {
    await useLanguage(page, 'zh-TW');
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await page.getByRole('button', { name: /匯出 Excel/ }).click();
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.getByText('此清單約有 2,345,678 筆資料，Excel 檔只會包含前 1,000,000 筆。請縮小篩選範圍以匯出其餘資料。').waitFor();
    await screenshot(page, 'export-large-3-cap-zh', { fullPage: false });
    await confirm.getByRole('button', { name: buttonName('取消') }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});
