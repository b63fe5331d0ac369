import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, connectedCharger, disabledReason, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const section = (page: Page) => page.getByTestId('charger-password');

/**
 * Issue 29: the charger view's "Charger password" section generates a password, sends it to the charger
 * (ChangeConfiguration AuthorizationKey) and shows it once; the charger stays connected.
 */
describe('charger password from the charger view, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Password Site', 'E2E-PASSWORD', { connectors: 1, reconnect: false }));
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('generates a password, sends it to the charger and shows it once, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await section(page).getByTestId('charger-password-state').getByText(/^Password set since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/).waitFor();
    await section(page).getByRole('button', { name: 'Generate password' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText('Send a new password to the charger?').waitFor();
    await page.waitForTimeout(400);
    await dialog.getByRole('button', { name: 'Send to the charger' }).click();

    const shown = page.getByTestId('charger-password-generated');
    await shown.waitFor({ timeout: 20_000 });
    const password = (await shown.innerText()).trim();
    assert.match(password, /^[\w-]{20}$/);
    // The charger has it (decoded from the hex AuthorizationKey) and was not disconnected.
    assert.equal(sim.password, password);
    assert.equal(sim.isConnected, true);
    await toast(page, 'The charger accepted the new password.').waitFor();
    await page.getByText(/^Shown this once: copy it now/).waitFor();
    await screenshot(page, 'charger-password-1-generated-en', { fullPage: false });

    await page.locator('.ant-modal').filter({ has: shown }).getByRole('button', { name: 'OK' }).click();
    await shown.waitFor({ state: 'detached' });
    await section(page).getByTestId('charger-password-rotating').waitFor();
    await screenshot(page, 'charger-password-2-rotating-en', { fullPage: false });
    // Nowhere to be read again: not in the page, nor in the action log.
    assert.equal(await page.getByText(password).count(), 0);
    const [audited] = (await api('GET', '/api/portal_action_log?size=1&page=0')).dataset.content;
    assert.doesNotMatch(JSON.stringify(await api('GET', `/api/portal_action_log/${audited.id}`)), new RegExp(password));
  });

  it('checks a typed password and refuses while offline, in Traditional Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '遠端操作' }).click();
    await section(page).getByText('充電樁密碼').first().waitFor();
    await section(page).getByRole('button', { name: label('設定密碼') }).click();
    const input = page.getByTestId('charger-password-input');
    await input.fill('too-short');
    const modal = page.locator('.ant-modal').filter({ has: input });
    await modal.getByText('至少 16 個字元').waitFor();
    assert.equal(await modal.getByRole('button', { name: label('傳送給充電樁') }).isDisabled(), true);
    await input.fill('typed-password-for-e2e');
    await screenshot(page, 'charger-password-3-set-zh-TW', { fullPage: false });
    await modal.getByRole('button', { name: label('傳送給充電樁') }).click();
    await toast(page, '充電樁已接受新密碼。').waitFor({ timeout: 20_000 });
    assert.equal(sim.password, 'typed-password-for-e2e');
    // Typed by the operator: not shown back.
    assert.equal(await page.getByTestId('charger-password-generated').count(), 0);

    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');
    const generate = section(page).getByRole('button', { name: label('產生密碼') });
    await eventually(async () => generate.isDisabled(), 'Generate off while offline', 15_000);
    assert.equal(await disabledReason(page, generate), '充電樁未連線');
    await screenshot(page, 'charger-password-4-offline-zh-TW', { fullPage: false });
  });
});
