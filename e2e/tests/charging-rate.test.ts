import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, buttonName, eventually, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/**
 * Charging rates (spec part 2 §2, §4, §5, §7, §8): a rate created on the generic form (type shown,
 * never changed), its time slots on the Price details tab (schemes of the site only, the scheme
 * sessions error and the overlap shown on the field), its chargers on the Chargers tab.
 */
describe('charging rates in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const stamp = Date.now().toString(36).slice(-5).toUpperCase();
  const site = `Rates E2E ${stamp}`;
  const cpNos = [1, 2, 3].map((n) => `CR-${stamp}-${n}`);
  const cpIds: number[] = [];
  let otherRate: number;
  let bigScheme: number;

  const modal = () => page.locator('.ant-modal:visible');
  const fieldError = (label: string) =>
    modal().locator('.ant-form-item').filter({ has: page.locator('label', { hasText: label }) }).locator('.ant-form-item-explain-error');
  const group = async () => (await api('GET', '/api/charging_rate_detail_cp_group')) as Record<string, number[]>;

  before(async () => {
    const locId = (await api('POST', '/api/cp_locs', { address: site, address_chi: `收費測試 ${stamp}` })).data.loc_id;
    for (const cp_no of cpNos) cpIds.push((await api('POST', '/api/cps', { cp_no, name: cp_no, loc_id: locId })).data.cp_id);
    bigScheme = (await api('POST', '/api/price_scheme', { name: `E2E Q4 ${stamp}`, fee: 6, locId, maxChargingUnit: 4 })).data.id;
    await api('POST', '/api/price_scheme', { name: `E2E Q1 ${stamp}`, fee: 6, locId, maxChargingUnit: 1 });
    // Another site's scheme must not be offered.
    const elsewhere = (await api('POST', '/api/cp_locs', { address: `Rates E2E elsewhere ${stamp}` })).data.loc_id;
    await api('POST', '/api/price_scheme', { name: `E2E elsewhere ${stamp}`, fee: 6, locId: elsewhere, maxChargingUnit: 4 });
    otherRate = (await api('POST', '/api/charging_rate', { name: `E2E other rate ${stamp}`, loc_id: locId })).data.id;
    assert.equal(await api('POST', '/api/charging_rate_detail_cp_group', { chargingRateId: otherRate, cpIds: [cpIds[2]] }), 'Success');
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('creates a rate, adds a slot (refusing a scheme with too few sessions) and assigns chargers, in English', async () => {
    await page.goto(`${portal}/charging_rate/create`);
    await useLanguage(page, 'en');
    const form = page.locator('form');
    await form.getByLabel('Name', { exact: true }).fill(`E2E standard ${stamp}`);
    await pickOption(page, /^Site$/, site);
    // The type is shown and cannot be changed.
    const type = page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: /^Type$/ }) });
    await type.getByText('Time', { exact: true }).waitFor();
    assert.equal(await type.locator('.ant-select-disabled').count(), 1);
    assert.equal(await form.getByLabel('Minutes per Unit', { exact: true }).inputValue(), '15');
    await screenshot(page, 'charging-rate-1-create-en', { fullPage: false });
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(/\/charging_rate\/\d+$/);
    const id = Number(/\/charging_rate\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('tab', { name: 'Price details', exact: true }).click();
    await page.getByText('No time slots yet', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Add time slot' }).click();
    await modal().getByLabel('Start Time', { exact: true }).fill('08:00');
    await modal().getByLabel('End Time', { exact: true }).fill('24:00');
    await modal().getByLabel('Max Charging Units', { exact: true }).fill('3');
    await modal().getByLabel('Penalty Fee per Unit ($)', { exact: true }).fill('2.5');
    // Only the site's schemes are offered.
    await modal().locator('.ant-form-item').filter({ has: page.locator('label', { hasText: /^Price Scheme$/ }) }).locator('.ant-select').click();
    // The dropdown opens with an animation, at whose start it is not yet :visible: read it once it shows both.
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    let offered: string[] = [];
    await eventually(async () => (offered = await options.allTextContents()).length >= 2, "the site's price schemes offered");
    assert.deepEqual(offered.sort(), [`E2E Q1 ${stamp} (1 session)`, `E2E Q4 ${stamp} (4 sessions)`]);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `E2E Q1 ${stamp}` }).click();
    await modal().getByRole('button', { name: buttonName('Save') }).click();
    await fieldError('Price Scheme').getByText('The price scheme has fewer sessions than the Max Charging Units', { exact: false }).waitFor();
    await screenshot(page, 'charging-rate-2-scheme-error-en', { fullPage: false });
    await pickOption(page, /^Price Scheme$/, `E2E Q4 ${stamp}`);
    await modal().getByRole('button', { name: buttonName('Save') }).click();
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    await modal().waitFor({ state: 'detached' });
    const slots = (await api('GET', `/api/charging_rate_detail?chargingRateId=${id}&size=99999&page=0&trash=0`)).dataset.content;
    assert.equal(slots.length, 1);
    assert.deepEqual([slots[0].startTime, slots[0].endTime, slots[0].maxChargingUnit, slots[0].priceSchemeId, slots[0].penaltyFee, slots[0].peak], ['08:00', '24:00', 3, bigScheme, 2.5, 0]);
    await page.getByTestId('rate-slots').getByText('08:00 – 24:00').waitFor();
    await screenshot(page, 'charging-rate-3-slots-en');

    await page.getByRole('tab', { name: 'Chargers', exact: true }).click();
    const third = page.locator('.ant-checkbox-wrapper', { hasText: cpNos[2] });
    await third.getByText(`now at E2E other rate ${stamp}`, { exact: false }).waitFor();
    await page.locator('.ant-checkbox-wrapper', { hasText: cpNos[0] }).click();
    await third.click();
    await page.getByText('2 of 3 chargers', { exact: false }).waitFor();
    await screenshot(page, 'charging-rate-4-chargers-en');
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    const g = await group();
    assert.deepEqual([g[id], g[otherRate]], [[cpIds[0], cpIds[2]].sort((a, b) => a - b), []]);
  });

  it('in Traditional Chinese: an overlapping slot is refused on the field, and the chargers tab names the other rate', async () => {
    const locId = (await api('GET', `/api/charging_rate/${otherRate}`)).loc_id;
    const rate = (await api('POST', '/api/charging_rate', { name: `E2E 繁忙 ${stamp}`, loc_id: locId })).data.id;
    await api('POST', '/api/charging_rate_detail', { chargingRateId: rate, startTime: '08:00', endTime: '18:00', weekday: [1, 2, 3, 4, 5], peak: 1, maxChargingUnit: 2, priceSchemeId: bigScheme });
    await page.goto(`${portal}/charging_rate/${rate}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '價格詳情', exact: true }).click();
    await page.getByTestId('rate-slots').getByText('星期一, 星期二, 星期三, 星期四, 星期五').waitFor();
    await page.getByRole('button', { name: '新增時段' }).click();
    await modal().getByLabel('開始時間', { exact: true }).fill('17:00');
    await modal().getByLabel('結束時間', { exact: true }).fill('20:00');
    await modal().getByLabel('最多充電單位', { exact: true }).fill('1');
    await pickOption(page, /^價格方案$/, `E2E Q4 ${stamp}`);
    await modal().getByRole('button', { name: buttonName('儲存') }).click();
    await fieldError('開始時間').getByText('與此收費同一天的另一時段重疊').waitFor();
    await screenshot(page, 'charging-rate-5-overlap-zh', { fullPage: false });
    // Moved to the evening, it is taken.
    await modal().getByLabel('開始時間', { exact: true }).fill('18:00');
    await modal().getByRole('button', { name: buttonName('儲存') }).click();
    await page.locator('.ant-message-notice', { hasText: '儲存成功' }).last().waitFor();
    await page.getByTestId('rate-slots').getByText('18:00 – 20:00').waitFor();
    await screenshot(page, 'charging-rate-6-slots-zh');
    // Deleted (softly) from the action column, after the confirmation naming its id.
    const evening = (await api('GET', `/api/charging_rate_detail?chargingRateId=${rate}`)).dataset.content
      .find((d: { startTime: string }) => d.startTime === '18:00').id as number;
    await page.getByRole('button', { name: `delete-${evening}` }).click();
    await page.locator('.ant-modal-confirm-title').getByText(`確定要刪除 ID：${evening}？`).waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: buttonName('確定') }).click();
    await page.getByTestId('rate-slots').getByText('18:00 – 20:00').waitFor({ state: 'detached' });
    assert.equal((await api('GET', `/api/charging_rate_detail?chargingRateId=${rate}&trash=1`)).dataset.content.length, 1);

    await page.getByRole('tab', { name: '充電樁', exact: true }).click();
    await page.locator('.ant-checkbox-wrapper', { hasText: cpNos[0] }).getByText(`目前為 E2E standard ${stamp}`, { exact: false }).waitFor();
    await page.locator('.ant-checkbox-wrapper', { hasText: cpNos[1] }).click();
    await page.getByRole('button', { name: buttonName('儲存') }).click();
    await page.locator('.ant-message-notice', { hasText: '儲存成功' }).last().waitFor();
    await screenshot(page, 'charging-rate-7-chargers-zh');
    assert.deepEqual((await group())[rate], [cpIds[1]]);

    // The list exports to Excel, as the spec's lists do.
    await page.goto(`${portal}/charging_rate`);
    const exported = page.waitForResponse((r) => r.url().includes('/api/charging_rate/export/excel'));
    await page.getByRole('button', { name: /匯出 Excel/ }).click();
    assert.equal((await exported).status(), 200);
    assert.match((await exported).headers()['content-type'] ?? '', /spreadsheetml/);
    await screenshot(page, 'charging-rate-8-list-excel-zh', { fullPage: false });
  });
});
