import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, buttonName, clickAndConfirm, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** LMS profiles (spec part 1 §2–§5, §7, §8): created on the generic screens, zone entries on the view's Zones tab. */
describe('LMS profiles in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let site: number;
  const zones: Record<string, number> = {};

  const entries = async (id: number) =>
    (await api('GET', `/api/zone_lms_profiles?lms_profile_id=${id}`)).dataset.content as Record<string, number | string | null>[];
  const input = (field: string, zone: string) => page.locator(`#${field}-${zones[zone]}`);
  before(async () => {
    site = (await api('POST', '/api/cp_locs', { address: 'LMS E2E Car Park', address_chi: '負載管理測試停車場' })).data.loc_id;
    for (const [name, name_chi, max_physical_current_limit] of [['North deck', '北層', 63], ['South deck', '南層', 32]] as const) {
      zones[name] = (await api('POST', '/api/cp_zones', { loc_id: site, name, name_chi, max_physical_current_limit })).data.zone_id;
    }
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('creates a queueing profile and saves its zone entries, min following max, in English', async () => {
    await page.goto(`${portal}/lms_profiles/create`);
    await useLanguage(page, 'en');
    await page.locator('form').getByLabel('Profile Name', { exact: true }).fill('E2E queueing');
    await pickOption(page, /^Site$/, 'LMS E2E Car Park');
    await pickOption(page, /^Mode$/, 'Queueing');
    await screenshot(page, 'lms-profile-1-create-en', { fullPage: false });
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(/\/lms_profiles\/\d+$/);
    const id = Number(/\/lms_profiles\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('tab', { name: 'Zones', exact: true }).click();
    await page.getByTestId('lms-zone-entries').getByText('Queueing mode:', { exact: false }).waitFor();
    // Each zone by its English name; the Chinese one is for the Chinese portal.
    await page.getByTestId('lms-zone-entries').getByText('North deck', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('lms-zone-entries').getByText('北層').count(), 0);
    assert.equal(await input('min_charging_current', 'North deck').isDisabled(), true);
    await input('zone_max_available_current', 'North deck').fill('60');
    await input('max_charging_current', 'North deck').fill('32');
    await input('zone_max_available_current', 'South deck').fill('30');
    await input('max_charging_current', 'South deck').fill('16');
    await page.getByTestId('lms-zone-entries').click({ position: { x: 5, y: 5 } });
    assert.equal(await input('min_charging_current', 'North deck').inputValue(), '32');
    await screenshot(page, 'lms-profile-2-zones-en');
    await clickAndConfirm(page, 'Save zone entries', 'Save the zone entries of this profile? Load management reallocates the current at once.', 'Confirm');
    // The create form's own 'Saved successfully' may still show: the latest one is this save's.
    await page.locator('.ant-message-notice', { hasText: 'Saved successfully' }).last().waitFor();
    const saved = await entries(id);
    assert.deepEqual(
      saved.map((e) => [e.zone_name_en, e.zone_max_available_current, e.max_charging_current, e.min_charging_current]),
      [['North deck', 60, 32, 32], ['South deck', 30, 16, 16]],
    );
    await screenshot(page, 'lms-profile-3-saved-en');
  });

  it('lists and edits zones with a name in each language', async () => {
    await page.goto(`${portal}/cp_zones/${zones['North deck']}/edit`);
    const form = page.locator('form');
    assert.equal(await form.getByLabel('Zone Name', { exact: true }).inputValue(), 'North deck');
    assert.equal(await form.getByLabel('Zone Name (Chinese)', { exact: true }).inputValue(), '北層');
    await screenshot(page, 'lms-profile-zone-form-en', { fullPage: false });
    await page.goto(`${portal}/cp_zones`);
    await page.locator('.ant-table-row').filter({ hasText: 'North deck' }).filter({ hasText: '北層' }).waitFor();
    await screenshot(page, 'lms-profile-zone-list-en', { fullPage: false });
    await useLanguage(page, 'zh-TW');
    await page.getByRole('columnheader', { name: '區域名稱（英文）' }).waitFor();
    await screenshot(page, 'lms-profile-zone-list-zh', { fullPage: false });
    await useLanguage(page, 'en');
  });

  it('in Traditional Chinese: a partly filled row is marked, a complete one saved', async () => {
    const profile = await api('POST', '/api/lms_profiles', { name: 'E2E 分配', cp_loc: site, mode: 'DISTRIBUTION' });
    const id = profile.data.lms_profile_id as number;
    await page.goto(`${portal}/lms_profiles/${id}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '區域', exact: true }).click();
    await page.getByTestId('lms-zone-entries').getByText('北層', { exact: true }).waitFor();
    await input('zone_max_available_current', 'North deck').fill('50');
    await input('max_charging_current', 'North deck').fill('32');
    await page.getByRole('button', { name: buttonName('儲存區域設定') }).click();
    await page.getByText('請填寫區域的所有電流，或全部留空以不設定此區域。').waitFor();
    await page.getByTestId('lms-zone-entries').getByText('必須填寫', { exact: true }).waitFor();
    await screenshot(page, 'lms-profile-4-incomplete-zh');
    await input('min_charging_current', 'North deck').fill('10');
    await clickAndConfirm(page, '儲存區域設定', '確定儲存此設定檔的區域設定嗎？負載管理會立即重新分配電流。', '確定');
    await page.getByText('儲存成功').waitFor();
    const saved = await entries(id);
    assert.deepEqual(
      saved.map((e) => [e.zone_name, e.zone_max_available_current, e.max_charging_current, e.min_charging_current]),
      [['北層', 50, 32, 10], ['南層', null, null, null]],
    );
    await screenshot(page, 'lms-profile-5-saved-zh');
  });
});
