import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** An account with a vehicle (spec part 2 §3): the HKID rule, the vehicle's figures computed from its sessions. */
describe('accounts and their vehicles in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  const stamp = Date.now() % 100000;
  const mobile = `6${String(stamp).padStart(7, '0')}`;
  const vehicleCard = `E2E-V${stamp}`;

  const form = () => page.locator('form');
  const formItem = (name: string) => page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: new RegExp(`^${name.replace(/[().$]/g, '\\$&')}$`) }) });
  const save = () => form().locator('button[type=submit]').click();

  before(async () => {
    const site = (await api('POST', '/api/cp_locs', { address: `Account E2E Car Park ${stamp}`, address_chi: '帳戶測試停車場' })).data.loc_id;
    cpId = (await api('POST', '/api/cps', { cp_no: `ACC-E2E-${stamp}`, name: 'account e2e', loc_id: site })).data.cp_id;
    ({ browser, page } = await signedInPage({ width: 1500, height: 900 }));
  });
  after(async () => {
    await browser?.close();
  });

  it('creates an account: a full HKID is refused, the balance is entered in dollars', async () => {
    await page.goto(`${portal}/accounts/create`);
    await useLanguage(page, 'en');
    await form().getByLabel('Mobile No.', { exact: true }).fill(mobile);
    await form().getByLabel('First Name', { exact: true }).fill('Tai Man');
    await form().getByLabel('Last Name', { exact: true }).fill('Chan');
    await form().getByLabel('Balance ($)', { exact: true }).fill('125.50');
    await form().getByLabel('HKID (first 3 characters)', { exact: true }).fill('A123456(7)');
    await form().getByLabel('RFID Cards', { exact: true }).fill(`E2E-A${stamp}`);
    await save();
    await formItem('HKID (first 3 characters)').getByText('Only the first 3 characters of the HKID may be stored').waitFor();
    await screenshot(page, 'accounts-1-hkid-refused-en', { fullPage: false });
    await form().getByLabel('HKID (first 3 characters)', { exact: true }).fill('A12');
    await save();
    await page.waitForURL(/\/accounts\/\d+$/);
    await page.getByText('125.5').first().waitFor();
    await screenshot(page, 'accounts-2-view-en');
  });

  it('adds a vehicle to the account and shows its charging figures computed from its sessions', async () => {
    await page.goto(`${portal}/account_vehicles/create`);
    await formItem('Account').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: mobile }).first().click();
    await form().getByLabel('Car Registration No.', { exact: true }).fill(`EV${stamp}`);
    await form().getByLabel('RFID Cards', { exact: true }).fill(vehicleCard);
    await save();
    await page.waitForURL(/\/account_vehicles\/\d+$/);
    // A 20-minute session of 7.5 kWh with the vehicle's card, as the charger would report it.
    const send = (action: string, payload: object) => api('POST', '/api/test/cp_request', { cpId, action, payload });
    const end = Date.now();
    const started = await send('StartTransaction', { connectorId: 1, idTag: vehicleCard, meterStart: 1000, timestamp: new Date(end - 20 * 60_000).toISOString() });
    assert.equal(started.data.response.idTagInfo.status, 'Accepted');
    await send('StopTransaction', { transactionId: started.data.response.transactionId, meterStop: 8500, timestamp: new Date(end).toISOString(), idTag: vehicleCard });
    const vehicles = await api('GET', `/api/account_vehicles?car_reg_no=EV${stamp}`);
    assert.equal(vehicles.dataset.content[0].monthly_charged_energy, 7500);

    await page.goto(`${portal}/account_vehicles`);
    const row = page.locator('tr', { hasText: `EV${stamp}` });
    await row.getByRole('cell', { name: '7.500' }).first().waitFor();
    await row.getByRole('cell', { name: '00:20:00' }).first().waitFor();
    await screenshot(page, 'account-vehicles-3-list-en');
    await useLanguage(page, 'zh-TW');
    await page.getByRole('columnheader', { name: '本月電量（kWh）' }).waitFor();
    await row.getByRole('cell', { name: '7.500' }).first().waitFor();
    await screenshot(page, 'account-vehicles-4-list-zh');
  });

  it('lists the account in Traditional Chinese', async () => {
    await page.goto(`${portal}/accounts`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('cell', { name: mobile }).first().waitFor();
    await page.getByRole('columnheader', { name: '餘額（$）' }).waitFor();
    await screenshot(page, 'accounts-5-list-zh');
  });
});
