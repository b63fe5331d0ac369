import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, baseUrl, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** Issue 27 "Words": what the server wrote, an audited edit and a form's e-mail check, in the reader's language. */
describe('words in both languages in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const run = Date.now().toString(36);

  before(async () => {
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('shows the user log\'s messages in the reader\'s language', async () => {
    const username = `nobody-${run}`;
    await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'wrong' }) });
    await page.goto(`${portal}/user_log`);
    for (const [lang, text] of [['zh-TW', '登入失敗：用戶不存在'], ['en', 'Login failed: unknown user']] as const) {
      await useLanguage(page, lang);
      await page.locator('.ant-table-row', { hasText: username }).getByText(text).waitFor();
      await screenshot(page, `words-user-log-${lang}`);
    }
  });

  it('shows an audited edit field by field with the resource\'s labels', async () => {
    const site = (await api('POST', '/api/cp_locs', { address: `Words Site ${run}`, address_chi: `字詞站 ${run}` })).data;
    await api('PUT', `/api/cp_locs/${site.loc_id}`, { address: `Words Site ${run} B1`, enable_flag: 0 });
    const [entry] = (await api('GET', `/api/portal_action_log?action=UPDATE&target=cp_locs&target_id=${site.loc_id}`)).dataset.content;
    await page.goto(`${portal}/portal_action_log/${entry.id}`);
    for (const [lang, field, yes, no] of [['zh-TW', '地址', '是', '否'], ['en', 'Address', 'Yes', 'No']] as const) {
      await useLanguage(page, lang);
      const changes = page.getByTestId('action-log-changes');
      const row = changes.locator('tr', { hasText: field });
      await row.getByText(`Words Site ${run} B1`).waitFor();
      assert.deepEqual((await row.locator('td').allInnerTexts()).map((s) => s.trim()), [field, `Words Site ${run}`, `Words Site ${run} B1`]);
      assert.deepEqual((await changes.locator('tr', { hasText: lang === 'en' ? 'Enabled' : '啟用' }).locator('td').allInnerTexts()).slice(1), [yes, no]);
      // Unchanged fields are not listed, and no raw JSON is shown.
      assert.equal(await changes.getByText(`字詞站 ${run}`).count(), 0);
      assert.equal(await page.locator('pre').count(), 0);
      await screenshot(page, `words-action-log-${lang}`);
    }
  });

  it('shows the campaign\'s sites of a voucher and a voucher import\'s file error in the reader\'s language', async () => {
    const site = (await api('POST', '/api/cp_locs', { address: `Words Mall ${run}`, address_chi: `字詞商場 ${run}` })).data.loc_id;
    const campaignName = `Words ${run}`;
    const campaignId = (await api('POST', '/api/campaign', { name: campaignName, nameCHT: `字詞 ${run}`, fee: 0, locIds: [site], isVoucher: 1 })).data.id;
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await api('POST', '/api/voucher', { campaignId, memberId: `W-${run}`, voucherExpireDate: expiry });
    await page.goto(`${portal}/voucher`);
    for (const [lang, address] of [['zh-TW', `字詞商場 ${run}`], ['en', `Words Mall ${run}`]] as const) {
      await useLanguage(page, lang);
      await page.locator('.ant-table-row', { hasText: `W-${run}` }).getByText(address).waitFor();
      await screenshot(page, `words-voucher-sites-${lang}`);
    }
    await useLanguage(page, 'zh-TW');
    await page.getByTestId('voucher-import').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('import-submit') });
    await pickOption(page, /^推廣活動$/, `字詞 ${run}`);
    await dialog.locator('input[type=file]').setInputFiles({ name: 'Voucher.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from('not a workbook') });
    await dialog.getByTestId('import-submit').click();
    await dialog.getByTestId('import-failure').getByText('檔案不是 Excel 活頁簿（.xlsx）').waitFor();
    await screenshot(page, 'words-voucher-import-error-zh-TW');
  });

  it('says "Format Error" for a bad e-mail in the form, not the browser\'s own bubble', async () => {
    await page.goto(`${portal}/contact/create`);
    for (const [lang, text] of [['zh-TW', '格式錯誤'], ['en', 'Format Error']] as const) {
      await useLanguage(page, lang);
      const email = page.locator('form input[type=email]');
      await email.fill('not-an-email');
      await page.locator('form button[type=submit]').click();
      await page.locator('.ant-form-item-explain-error', { hasText: text }).waitFor();
      assert.equal(await page.locator('form').evaluate((f: HTMLFormElement) => f.noValidate), true);
      await screenshot(page, `words-email-${lang}`);
    }
  });
});
