import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, baseUrl, launch, portal, screenshot, signIn, useLanguage } from '../support.ts';

/** A clerk who reads users, their log and chargers (not their connectors) and adds vehicles to accounts. */
const CLERK_PRIVILEGES = ['READ_USERS', 'READ_USER_LOG', 'READ_CPS', 'READ_ACCOUNT_VEHICLES', 'CREATE_ACCOUNT_VEHICLES'];

async function createUser(username: string, roleId: number): Promise<number> {
  const password = `${username}-password`;
  const res = await api('POST', '/api/users', { name: username, username, password, confirm_password: password, role_id: roleId, cp_loc_flag: 1 });
  return res.data.id;
}

async function apiSignIn(username: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  assert.equal(res.status, 200);
}

describe('what a role does not grant is not shown', () => {
  let browser: Browser;
  let page: Page;
  let op1: number;
  let cpId: number;
  let accId: number;

  before(async () => {
    const role = await api('POST', '/api/roles', { role: 'clerk', name_chi: '文員', level: 10 });
    await api('PUT', `/api/rnp/${role.data.id}`, { privileges: CLERK_PRIVILEGES });
    op1 = await createUser('op1', role.data.id);
    await createUser('op11', role.data.id);
    await apiSignIn('op11');
    const site = await api('POST', '/api/cp_locs', { address: 'Clerk Site' });
    cpId = (await api('POST', '/api/cps', { cp_no: 'CLERK-1', name: 'c', loc_id: site.data.loc_id })).data.cp_id;
    accId = (await api('POST', '/api/accounts', { first_name: 'Tai Man', last_name: 'Chan', mobile_no: '98765432' })).data.acc_id;
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page, 'op1', 'op1-password');
  });
  after(async () => browser?.close());

  it("lists only the user's own sign-ins in their User Log tab, not those of a user whose name contains theirs", async () => {
    await page.goto(`${portal}/users/${op1}`);
    await page.getByRole('tab', { name: 'User Log', exact: true }).click();
    const rows = page.locator('.ant-table-tbody tr.ant-table-row:visible');
    await rows.first().waitFor();
    const texts = await rows.allTextContents();
    assert.ok(texts.length >= 1);
    for (const text of texts) assert.ok(!text.includes('op11'), `op1's log lists: ${text}`);
    await screenshot(page, 'privileges-01-user-log-tab');
  });

  it('shows no Charts tab in the charger view without READ_CP_CONNECTOR', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByText('CLERK-1').first().waitFor();
    const tabs = (await page.getByRole('tab').allTextContents()).map((s) => s.trim());
    assert.ok(!tabs.includes('Charts'), `tabs: ${tabs}`);
  });

  it("offers accounts to the vehicle form by name and id, never by mobile number", async () => {
    await page.goto(`${portal}/account_vehicles/create`);
    await page.locator('.ant-form-item').filter({ has: page.locator('label').getByText(/^Account/) }).locator('.ant-select').click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await option.waitFor();
    assert.equal((await option.textContent())?.trim(), `Tai Man Chan (#${accId})`);
    assert.ok(!(await page.content()).includes('98765432'));
    await screenshot(page, 'privileges-02-account-picker');
  });

  it('shows one Connectors box in the role settings, every row and box named in Traditional Chinese', async () => {
    await page.close();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page);
    await page.goto(`${portal}/rnp`);
    await useLanguage(page, 'zh-TW');
    const table = page.locator('.ant-table-tbody');
    await table.getByText('負載管理區域限額', { exact: true }).waitFor();
    assert.equal(await table.locator('label.ant-checkbox-wrapper', { hasText: /^充電槍$/ }).count(), 1);
    const boxes = (await table.locator('label.ant-checkbox-wrapper').allTextContents()).map((s) => s.trim()).filter(Boolean);
    for (const name of boxes) assert.ok(!/^[A-Z_]+$/.test(name), `raw privilege key shown: ${name}`);
    await screenshot(page, 'privileges-03-rnp-zh');
    await useLanguage(page, 'en');
  });
});
