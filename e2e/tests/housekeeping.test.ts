import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`${[...text].join('\\s*')}$`);

/** Settings pages of issue 8 §5: data retention (run now) and app settings (typed value, restart confirmation). */
describe('settings pages in a real browser', () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-TW'] as const) {
    const t = lang === 'en'
      ? { item: 'Charger messages', run: 'Run now', confirm: 'Confirm', started: 'The data rotation has started', tab: 'Value', option: 'Load management', save: 'Save', restart: 'After the data is saved, the program will restart. Are you sure you want to save?' }
      : { item: '充電樁訊息', run: '立即執行', confirm: '確定', started: '數據輪替已開始', tab: '設定值', option: '負載管理', save: '儲存', restart: '資料儲存後程式將會重新啟動，確定要儲存嗎？' };

    it(`lists the retention items and runs the job now (${lang})`, async () => {
      await page.goto(`${portal}/data_rotation_setup`);
      await useLanguage(page, lang);
      await page.getByText(t.item).first().waitFor();
      await screenshot(page, `housekeeping-1-retention-${lang}`, { fullPage: false });
      // The other language's run may still be going (a busy machine): the server would rightly answer "running".
      for (let i = 0; i < 120 && (await api('GET', '/api/data_rotation_setup/run')).running; i++) await page.waitForTimeout(500);
      await page.getByTestId('rotation-run-now').click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: label(t.confirm) }).click();
      await page.getByText(t.started).waitFor();
      await screenshot(page, `housekeeping-2-run-now-${lang}`, { fullPage: false });
    });

    it(`changes the home screen with a select and the restart confirmation (${lang})`, async () => {
      const [entry] = (await api('GET', '/api/app_config?config_key=home_screen')).dataset.content as { id: number }[];
      await page.goto(`${portal}/app_config/${entry.id}`);
      await useLanguage(page, lang);
      await page.getByRole('tab', { name: t.tab }).click();
      await page.getByTestId('app-config-value').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: t.option }).first().click();
      await page.getByRole('button', { name: label(t.save) }).click();
      await page.locator('.ant-modal-confirm-title', { hasText: t.restart }).waitFor();
      await screenshot(page, `housekeeping-3-app-config-confirm-${lang}`, { fullPage: false });
      await page.locator('.ant-modal-confirm').getByRole('button', { name: label(t.confirm) }).click();
      for (let i = 0; i < 50 && (await api('GET', '/api/app/settings')).home_screen !== 'LMS'; i++) await page.waitForTimeout(100);
      assert.equal((await api('GET', '/api/app/settings')).home_screen, 'LMS');
      await api('PUT', '/api/app/settings', { home_screen: 'CpList' });
    });
  }
});
