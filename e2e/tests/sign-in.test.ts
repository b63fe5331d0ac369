import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { adminPassword, launch, portal, screenshot } from '../support.ts';

/** The sign-in page, plain markup without antd (issue 30): asks for what is missing, words a refusal in the chosen language, returns to the page asked for. */
describe('the sign-in page', () => {
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  });
  after(async () => browser?.close());

  it('asks for both fields, words a refusal in the chosen language, and signs in back to the page asked for', async () => {
    await page.goto(`${portal}/cp_locs`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(await page.getByText('Required to fill').count(), 2);

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('login-error').getByText('Login failed, incorrect account or password').waitFor();
    await page.getByRole('button', { name: '繁體中文' }).click();
    await page.getByRole('button', { name: '登入' }).waitFor();
    assert.doesNotMatch(await page.getByTestId('login-error').innerText(), /Login failed/);
    await screenshot(page, 'sign-in-refused-zh-TW', { fullPage: false });

    await page.getByLabel('密碼').fill(adminPassword);
    await page.getByRole('button', { name: '登入' }).click();
    await page.getByTestId('user-menu').waitFor();
    assert.match(page.url(), /\/portal\/cp_locs$/);
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });
});
