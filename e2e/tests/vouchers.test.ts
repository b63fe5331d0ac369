import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { api, buttonName, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** A Voucher.xlsx of these rows after the header. */
async function workbook(rows: [string, string][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Voucher');
  ws.addRow(['memberId', 'voucherExpireDate']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

/** Campaigns with their rules, and the Voucher.xlsx import (spec part 2 §2, §4, §5). */
describe('campaigns and vouchers in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let site: number;
  const vouchersOf = async (campaignId: number) =>
    (await api('GET', `/api/voucher?campaignId=${campaignId}&size=100&page=0`)).dataset.content.map((v: { memberId: string }) => v.memberId).sort();

  before(async () => {
    site = (await api('POST', '/api/cp_locs', { address: 'Voucher E2E Mall', address_chi: '電子券測試商場' })).data.loc_id;
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  /** Opens the import popup, chooses the campaign and the file, imports. */
  const importFile = async (campaign: string, file: Buffer, labels: { import: string; campaign: RegExp }) => {
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('import-submit') });
    if (!(await dialog.isVisible())) {
      await page.getByTestId('voucher-import').click();
      await dialog.waitFor();
      await pickOption(page, labels.campaign, campaign);
    }
    await dialog.locator('input[type=file]').setInputFiles({ name: 'Voucher.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await dialog.getByTestId('import-submit').click();
    return dialog;
  };

  it('creates a campaign with weekday and time rules, then imports vouchers: a bad row first, in English', async () => {
    await page.goto(`${portal}/campaign/create`);
    await useLanguage(page, 'en');
    const form = page.locator('form');
    await form.getByLabel('Name', { exact: true }).fill('E2E weekday evenings');
    await form.getByLabel('Fee per Unit ($)', { exact: true }).fill('4.5');
    await pickOption(page, /^Sites$/, 'Voucher E2E Mall');
    await form.getByLabel('Terms and Conditions', { exact: true }).fill('1. Weekdays only.\n2. One session per day.');
    await screenshot(page, 'vouchers-0-campaign-form-en');
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(/\/campaign\/\d+$/);
    const id = Number(/\/campaign\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('tab', { name: 'Rules', exact: true }).click();
    await page.getByText('No rules: the campaign applies at any time.').waitFor();
    // Weekdays: the Mon–Fri shorthand and Saturday ticked make Mon–Sat.
    await page.getByRole('button', { name: 'Add rule' }).click();
    const modal = page.locator('.ant-modal').filter({ hasText: 'New rule' });
    await modal.getByLabel('Rule Name').fill('Mon to Sat');
    await modal.getByRole('button', { name: 'Mon–Fri' }).click();
    await modal.getByRole('checkbox', { name: 'Sat' }).check();
    await screenshot(page, 'vouchers-1-rule-days-en', { fullPage: false });
    await modal.getByRole('button', { name: 'Save' }).click();
    // Spec part 2 §4: the run reads as its shorthand, not day by day.
    await page.getByTestId('campaign-rules').getByText('Mon–Sat', { exact: true }).waitFor();
    // Time ranges: one evening range past midnight.
    await page.getByRole('button', { name: 'Add rule' }).click();
    await pickOption(page, /^Rule Type$/, 'Time ranges');
    await modal.getByRole('button', { name: 'Add time range' }).click();
    for (const [label, time] of [['Start', '22:00'], ['End', '02:00']]) {
      await modal.getByPlaceholder(label, { exact: true }).click();
      await modal.getByPlaceholder(label, { exact: true }).fill(time);
      await modal.getByPlaceholder(label, { exact: true }).press('Enter');
    }
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('campaign-rules').getByText('22:00–02:00').waitFor();
    const rules = (await api('GET', `/api/campaign_rule?campaignId=${id}&size=99999&page=0&trash=0`)).dataset.content;
    assert.deepEqual(rules.map((r: { campaignRuleTypeCode: string; campaignRuleConfig: string }) => [r.campaignRuleTypeCode, r.campaignRuleConfig]), [
      ['DayInclude', '["1-6"]'],
      ['TimeInclude', '[{"start":"22:00","end":"02:00"}]'],
    ]);
    await screenshot(page, 'vouchers-2-campaign-rules-en');

    const voucherCampaign = (await api('POST', '/api/campaign', { name: 'E2E free hour', nameCHT: 'E2E 免費一小時', fee: 0, locIds: [site], isVoucher: 1 })).data.id;
    // A voucher saved with no campaign says so (spec part 2 §5), not a bare "Required to fill".
    await page.goto(`${portal}/voucher/create`);
    await page.locator('form').getByLabel('Member ID', { exact: true }).fill('E2E-NOCAMP');
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.locator('.ant-form-item', { has: page.locator('label', { hasText: /^Campaign$/ }) }).getByText('Campaign not chosen').waitFor();
    await screenshot(page, 'vouchers-2b-no-campaign-en', { fullPage: false });
    await page.goto(`${portal}/voucher`);
    const labels = { import: 'Import', campaign: /^Campaign$/ };
    const bad = await importFile('E2E free hour', await workbook([['E2E-A', nextYear], ['', nextYear], ['E2E-C', '2020-01-01'], ['E2E-D', '30/06/2027']]), labels);
    const errors = bad.getByTestId('import-row-errors');
    await errors.getByText('3 problems found: nothing was imported.', { exact: false }).waitFor();
    const cells = await errors.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(cells, [
      ['3', 'Member ID', 'Required to fill'],
      ['4', 'Expiry Date (yyyy-MM-dd)', 'Expiry date already expired'],
      ['5', 'Expiry Date (yyyy-MM-dd)', 'Format Error'],
    ]);
    assert.deepEqual(await vouchersOf(voucherCampaign), []);
    await screenshot(page, 'vouchers-3-import-bad-row-en', { fullPage: false });

    // Held back a moment on its way: the progress indicator shows while the file travels.
    await page.route('**/api/voucher/import', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const good = await importFile('E2E free hour', await workbook([['E2E-A', nextYear], ['E2E-B', nextYear]]), labels);
    await good.getByTestId('import-progress').waitFor();
    await screenshot(page, 'vouchers-3b-import-progress-en', { fullPage: false });
    await good.getByTestId('import-success').getByText('Imported 2 vouchers.').waitFor();
    await page.unroute('**/api/voucher/import');
    assert.deepEqual(await vouchersOf(voucherCampaign), ['E2E-A', 'E2E-B']);
    await screenshot(page, 'vouchers-4-import-ok-en', { fullPage: false });
    await good.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.ant-table-row', { hasText: 'E2E-B' }).first().waitFor();
    await screenshot(page, 'vouchers-5-list-en');
  });

  it('in Traditional Chinese: a voucher campaign is locked, and the import reports a bad row then imports', async () => {
    const weekdays = (await api('POST', '/api/campaign', { name: 'E2E zh weekdays', nameCHT: 'E2E 平日', fee: 1, locIds: [site] })).data.id;
    await api('POST', '/api/campaign_rule', { campaignId: weekdays, ruleName: 'Weekdays', campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '["1-5",7]' });
    await page.goto(`${portal}/campaign/${weekdays}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '規則', exact: true }).click();
    await page.getByTestId('campaign-rules').getByText('星期一至五, 日', { exact: true }).waitFor();
    await screenshot(page, 'vouchers-5b-rule-days-zh', { fullPage: false });

    const voucherCampaign = (await api('POST', '/api/campaign', { name: 'E2E zh vouchers', nameCHT: 'E2E 中文電子券', fee: 0, locIds: [site], isVoucher: 1 })).data.id;
    await page.goto(`${portal}/campaign/${voucherCampaign}`);
    // No edit or delete of a voucher campaign, nor of its rules.
    await page.getByRole('tab', { name: '規則', exact: true }).click();
    await page.getByText('電子券活動及其規則不可更改。').waitFor();
    assert.equal(await page.getByRole('button', { name: buttonName('編輯') }).count(), 0);
    assert.equal(await page.getByRole('button', { name: '新增規則' }).count(), 0);
    await screenshot(page, 'vouchers-6-locked-campaign-zh', { fullPage: false });

    await page.goto(`${portal}/voucher/create`);
    await page.locator('form').getByLabel('會員編號', { exact: true }).fill('ZH-NOCAMP');
    await page.getByRole('button', { name: buttonName('儲存') }).click();
    await page.locator('.ant-form-item', { has: page.locator('label', { hasText: /^推廣活動$/ }) }).getByText('未選擇推廣活動').waitFor();
    await screenshot(page, 'vouchers-6b-no-campaign-zh', { fullPage: false });

    await page.goto(`${portal}/voucher`);
    const labels = { import: '匯入', campaign: /^推廣活動$/ };
    const bad = await importFile('E2E 中文電子券', await workbook([['ZH-1', nextYear], ['ZH-2', '2021-02-03']]), labels);
    await bad.getByTestId('import-row-errors').getByText('發現 1 個問題', { exact: false }).waitFor();
    await bad.getByTestId('import-row-errors').getByText('到期日已過').waitFor();
    assert.deepEqual(await vouchersOf(voucherCampaign), []);
    await screenshot(page, 'vouchers-7-import-bad-row-zh', { fullPage: false });
    const good = await importFile('E2E 中文電子券', await workbook([['ZH-1', nextYear], ['ZH-2', nextYear], ['ZH-3', nextYear]]), labels);
    await good.getByTestId('import-success').getByText('已匯入 3 張電子券。').waitFor();
    assert.deepEqual(await vouchersOf(voucherCampaign), ['ZH-1', 'ZH-2', 'ZH-3']);
    await screenshot(page, 'vouchers-8-import-ok-zh', { fullPage: false });
  });
});
