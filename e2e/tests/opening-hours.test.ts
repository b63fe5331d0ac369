import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, buttonName, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** Opening hours (spec part 2 §2, §7, §8): created on the generic form, days and chargers on the view's tabs. */
describe('opening hours in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const stamp = Date.now().toString(36).slice(-5).toUpperCase();
  const cpNos = [1, 2, 3].map((n) => `OH-${stamp}-${n}`);
  const cpIds: number[] = [];

  const field = (label: string) => page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: label }) });

  async function time(label: string, value: string): Promise<void> {
    const input = field(label).locator('input');
    await input.click();
    await input.fill(value);
    // Enter would submit the form: the panel's OK button takes the typed time.
    const panel = page.locator('.ant-picker-dropdown:visible');
    await panel.locator('.ant-picker-ok button').click();
    // The next picker's panel opens only once this one has closed (its fade would match ':visible').
    await panel.waitFor({ state: 'hidden' });
  }

  before(async () => {
    const site = (await api('POST', '/api/cp_locs', { address: `Opening Hours E2E ${stamp}`, address_chi: `開放時間測試 ${stamp}` })).data.loc_id;
    for (const cp_no of cpNos) cpIds.push((await api('POST', '/api/cps', { cp_no, name: cp_no, loc_id: site })).data.cp_id);
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('creates an overnight opening hour, sets its weekdays and assigns chargers, in English', async () => {
    await page.goto(`${portal}/opening_hour/create`);
    await useLanguage(page, 'en');
    await page.locator('form').getByLabel('Name', { exact: true }).fill('E2E night car park');
    await time('Start Time', '22:00');
    await time('End Time', '06:00');
    // Spec part 2 §5: an end before the start is refused under the field, with no generic toast beside it.
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await field('End Time').getByText('End time must be greater than start time').waitFor();
    await screenshot(page, 'opening-hours-1-refused-en', { fullPage: false });
    assert.equal(await page.locator('.ant-message-notice', { hasText: 'Request error' }).count(), 0);
    // The operator says it ends the next day.
    await field('Ends the Next Day').getByRole('switch').click();
    await screenshot(page, 'opening-hours-1-create-en', { fullPage: false });
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(/\/opening_hour\/\d+$/);
    const id = Number(/\/opening_hour\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('tab', { name: 'Days', exact: true }).click();
    await page.getByText('Ends the next day at 06:00', { exact: false }).waitFor();
    // Empty, the weekday selector reads 'no limit', in English only.
    await page.getByText('No limit', { exact: true }).first().waitFor();
    assert.equal(await page.getByText('不限').count(), 0);
    await page.locator('#opening-hour-weekday').click();
    for (const day of ['Mon', 'Fri']) await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: day }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'opening-hours-2-days-en');
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    assert.deepEqual((await api('GET', `/api/opening_hour/${id}`)).weekday, [1, 5]);

    await page.getByRole('tab', { name: 'Chargers', exact: true }).click();
    for (const cpNo of cpNos.slice(0, 2)) await page.locator('.ant-checkbox-wrapper', { hasText: cpNo }).click();
    await page.getByText('2 of', { exact: false }).waitFor();
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    assert.deepEqual((await api('GET', `/api/cp_opening_hour/${id}`)).cpIds.sort(), cpIds.slice(0, 2).sort());
    await page.getByRole('button', { name: 'Check now', exact: true }).click();
    await page.getByText('Chargers now (', { exact: false }).waitFor();
    await screenshot(page, 'opening-hours-3-chargers-en');
  });

  it('shows the tabs in Traditional Chinese', async () => {
    const hour = (await api('POST', '/api/opening_hour', { name: 'E2E 日間', start_time: '08:00', end_time: '20:00' })).data;
    await api('POST', '/api/cp_opening_hour', { openingHourId: hour.opening_hour_id, cpIds: [cpIds[2]] });
    await page.goto(`${portal}/opening_hour/${hour.opening_hour_id}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '適用日子', exact: true }).click();
    await page.getByText('不限').first().waitFor();
    await screenshot(page, 'opening-hours-4-days-zh');
    await page.getByRole('tab', { name: '充電樁', exact: true }).click();
    await page.getByText(/已指派 1 \/ \d+ 個充電樁/).waitFor();
    await screenshot(page, 'opening-hours-5-chargers-zh');

    // The create form refuses an end before the start unless it ends the next day, in Chinese too.
    await page.goto(`${portal}/opening_hour/create`);
    await page.locator('form').getByLabel('名稱', { exact: true }).fill('E2E 夜間');
    await time('開始時間', '18:00');
    await time('結束時間', '08:00');
    await page.getByRole('button', { name: buttonName('儲存') }).click();
    await field('結束時間').getByText('結束時間必須大於開始時間').waitFor();
    await field('翌日結束').getByRole('switch').waitFor();
    await screenshot(page, 'opening-hours-6-refused-zh', { fullPage: false });
  });
});
