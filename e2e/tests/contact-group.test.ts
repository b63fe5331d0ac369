import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** Contacts, contact groups (the at-least-one rule) and the alert list raised from a charger's errors (spec part 2 §3, §5). */
describe('contacts, contact groups and alerts in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const stamp = Date.now() % 100000;

  const form = () => page.locator('form');
  const formItem = (name: string) => page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: new RegExp(`^${name}$`) }) });
  const save = () => form().locator('button[type=submit]').click();

  async function pick(item: string, option: string): Promise<void> {
    await formItem(item).locator('.ant-select').click();
    // The option list is virtual: typing brings an option further down into view.
    await page.keyboard.type(option);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    await page.keyboard.press('Escape');
  }

  before(async () => {
    const site = (await api('POST', '/api/cp_locs', { address: `Alert E2E Car Park ${stamp}`, address_chi: '警報測試停車場' })).data.loc_id;
    const cpId = (await api('POST', '/api/cps', { cp_no: `ALERT-E2E-${stamp}`, name: 'alert e2e', loc_id: site })).data.cp_id;
    // Handled as if the charger had sent them: the alert monitor sees them on the bus.
    const status = (connectorId: number, errorCode: string, status: string) =>
      api('POST', '/api/test/cp_request', { cpId, action: 'StatusNotification', payload: { connectorId, errorCode, status, info: 'E2E' } });
    await status(1, 'GroundFailure', 'Faulted');
    await status(1, 'GroundFailure', 'Faulted');
    await status(2, 'HighTemperature', 'Faulted');
    await status(2, 'NoError', 'Available');
    await eventually(async () => {
      const list = await api('GET', `/api/alert?cp_no=ALERT-E2E-${stamp}`);
      return list.dataset.content.length === 2 && list.dataset.content.some((a: any) => a.is_fixes === 1);
    }, 'the alerts of the test charger');
    await api('POST', '/api/contact', { name: `Night shift ${stamp}`, email: `night-${stamp}@example.com` });
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('creates a contact (e-mail checked) and a contact group (at least one of contact, site, error code) in English', async () => {
    await page.goto(`${portal}/contact/create`);
    await useLanguage(page, 'en');
    await form().getByLabel('Name', { exact: true }).fill(`Duty manager ${stamp}`);
    // An address the browser's own check lets through (no dot in the domain) but the server refuses.
    await form().getByLabel('Email', { exact: true }).fill('ops@localhost');
    await save();
    await formItem('Email').getByText('Format Error').waitFor();
    await form().getByLabel('Email', { exact: true }).fill(`night-${stamp}@example.com`);
    await save();
    await formItem('Email').getByText('Already Exists').waitFor();
    await screenshot(page, 'contact-1-duplicate-en', { fullPage: false });
    await form().getByLabel('Email', { exact: true }).fill(`duty-${stamp}@example.com`);
    await save();
    await page.waitForURL(/\/contact\/\d+$/);

    await page.goto(`${portal}/contact_group/create`);
    await form().getByLabel('Name', { exact: true }).fill(`Faults ${stamp}`);
    await save();
    await formItem('Contacts').getByText('Contact group needs at least one of contact, location and error code').waitFor();
    await screenshot(page, 'contact-group-2-needs-one-en', { fullPage: false });
    await pick('Contacts', `Duty manager ${stamp}`);
    await pick('Error Codes', 'Ground failure');
    await pick('Receiving Frequency', 'At 5 continuous detections');
    await save();
    await page.waitForURL(/\/contact_group\/\d+$/);
    const id = Number(/\/contact_group\/(\d+)$/.exec(page.url())![1]);
    const group = await api('GET', `/api/contact_group/${id}`);
    assert.equal(group.level, 5);
    assert.deepEqual(group.errorIds, ['GroundFailure']);
    assert.equal(group.contactIds.length, 1);
    await page.getByText('At 5 continuous detections').first().waitFor();
    await screenshot(page, 'contact-group-3-view-en');
  });

  it('lists the alerts of the charger in English and in Traditional Chinese', async () => {
    await page.goto(`${portal}/alert`);
    await useLanguage(page, 'en');
    await page.getByRole('cell', { name: `ALERT-E2E-${stamp}` }).first().waitFor();
    await page.getByRole('cell', { name: 'Ground failure' }).first().waitFor();
    await screenshot(page, 'alert-4-list-en');
    await useLanguage(page, 'zh-TW');
    await page.getByRole('cell', { name: '接地故障' }).first().waitFor();
    await screenshot(page, 'alert-5-list-zh');
  });

  it('shows the at-least-one rule and the group form in Traditional Chinese', async () => {
    await page.goto(`${portal}/contact_group/create`);
    await useLanguage(page, 'zh-TW');
    await form().getByLabel('名稱', { exact: true }).fill(`全部離線 ${stamp}`);
    await save();
    await formItem('聯絡人').getByText('聯絡人群組需要至少一個聯絡人、地點或錯誤代碼').waitFor();
    await pick('錯誤代碼', '離線');
    await screenshot(page, 'contact-group-6-needs-one-zh', { fullPage: false });
    await save();
    await page.waitForURL(/\/contact_group\/\d+$/);
    await page.getByText('每次偵測').first().waitFor();
    await screenshot(page, 'contact-group-7-view-zh');
  });
});
