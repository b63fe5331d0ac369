import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, buttonName, clickAndConfirm, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** Price schemes (spec part 2 §4, §7, §9): created on the generic form, sessions on the view's Sessions tab. */
describe('price schemes in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let site: number;
  const sessions = async (id: number) =>
    ((await api('GET', `/api/price_scheme_detail/${id}`)) as { session: number; cash: number; point: number }[]).map((r) => [r.session, r.cash, r.point]);
  before(async () => {
    site = (await api('POST', '/api/cp_locs', { address: 'Pricing E2E Mall', address_chi: '計價測試商場' })).data.loc_id;
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('creates a Fixed scheme: sessions are multiples of the fee, only session 1 points entered, in English', async () => {
    await page.goto(`${portal}/price_scheme/create`);
    await useLanguage(page, 'en');
    const form = page.locator('form');
    await form.getByLabel('Name', { exact: true }).fill('E2E quarter hours');
    await form.getByLabel('Fee per Unit ($)', { exact: true }).fill('6');
    await pickOption(page, /^Site$/, 'Pricing E2E Mall');
    await form.getByLabel('Max Charging Units', { exact: true }).fill('4');
    await screenshot(page, 'price-scheme-1-create-en', { fullPage: false });
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(/\/price_scheme\/\d+$/);
    const id = Number(/\/price_scheme\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('tab', { name: 'Sessions', exact: true }).click();
    const tab = page.getByTestId('price-scheme-sessions');
    await tab.getByText('Fixed scheme:', { exact: false }).waitFor();
    // Sessions 2..4 are computed and read-only; session 1's cash follows the fee.
    assert.equal(await tab.getByTestId('cash-4').textContent(), '24.00');
    assert.equal(await page.locator('#cash-1').count(), 0);
    assert.equal(await page.locator('#point-2').count(), 0);
    await page.locator('#point-1').fill('3');
    await clickAndConfirm(page, 'Save sessions', 'Save the sessions of this price scheme? Remote starts priced from now on use them.', 'Confirm');
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    assert.deepEqual(await sessions(id), [[1, 6, 3], [2, 12, 6], [3, 18, 9], [4, 24, 12]]);
    await tab.getByTestId('point-4').getByText('12', { exact: true }).waitFor();
    await screenshot(page, 'price-scheme-2-fixed-sessions-en');

    // The last session is removed (its row disabled): the scheme then prices up to 3 units.
    assert.equal(await tab.getByTestId('remove-3').count(), 0);
    await tab.getByTestId('remove-4').click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText('Remove session 4?', { exact: true }).waitFor();
    await screenshot(page, 'price-scheme-2b-remove-en', { fullPage: false });
    await dialog.getByRole('button', { name: buttonName('Confirm') }).click();
    await tab.getByTestId('remove-3').waitFor();
    assert.deepEqual(await sessions(id), [[1, 6, 3], [2, 12, 6], [3, 18, 9]]);
    assert.equal((await api('GET', `/api/price_scheme/${id}`)).maxChargingUnit, 3);
  });

  it('in Traditional Chinese: a Custom scheme takes every session as entered', async () => {
    const created = await api('POST', '/api/price_scheme', { name: 'E2E 自訂', fee: 5, locId: site, maxChargingUnit: 3, type: 'Custom' });
    const id = created.data.id as number;
    await page.goto(`${portal}/price_scheme/${id}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '節數', exact: true }).click();
    await page.getByTestId('price-scheme-sessions').getByText('自訂方案：', { exact: false }).waitFor();
    await page.locator('#cash-2').fill('9.5');
    await page.locator('#point-3').fill('4');
    await clickAndConfirm(page, '儲存節數', '儲存此價格方案的節數？此後的遙距充電會以此計價。', '確定');
    await page.locator('.ant-message-notice').last().waitFor();
    assert.deepEqual(await sessions(id), [[1, 5, 0], [2, 9.5, 0], [3, 15, 4]]);
    await screenshot(page, 'price-scheme-3-custom-zh');
    await page.getByTestId('remove-3').click();
    await page.locator('.ant-modal-confirm-title').getByText('移除第 3 節？', { exact: true }).waitFor();
    await screenshot(page, 'price-scheme-4-remove-zh', { fullPage: false });
    await page.locator('.ant-modal-confirm').getByRole('button', { name: buttonName('確定') }).click();
    await page.getByTestId('remove-2').waitFor();
    assert.deepEqual(await sessions(id), [[1, 5, 0], [2, 9.5, 0]]);
  });
});
