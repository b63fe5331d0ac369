import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** Chargers list mass update (spec part 1 §2, §5, §7, §8, §9), two chargers without a connection. */
describe('mass update of chargers in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const cps: Record<string, number> = {};

  /** A config from the AC-1.0.0 template, made current (sent: the charger is offline). */
  async function currentConfig(cpId: number): Promise<void> {
    const made = await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0' });
    await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: made.data.cp_config_id, current: 1 });
  }
  const current = async (cpId: number) => (await api('GET', `/api/cps/${cpId}/cpConfig`)).find((r: { current: number }) => r.current === 1);

  async function selectBoth(): Promise<void> {
    await page.goto(`${portal}/cps/E2E-MU/search`);
    for (const no of ['E2E-MU1', 'E2E-MU2']) {
      const row = page.locator('tr.ant-table-row', { hasText: no });
      await row.waitFor();
      await row.locator('td.ant-table-selection-column input').check();
    }
  }

  async function confirm(title: string, ok: string): Promise<void> {
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText(title, { exact: true }).waitFor();
    await screenshot(page, `mass-update-confirm-${ok === 'Confirm' ? 'en' : 'zh'}`, { fullPage: false });
    await dialog.getByRole('button', { name: label(ok) }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
  }

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Mass Update Site' });
    for (const cp_no of ['E2E-MU1', 'E2E-MU2']) {
      const cp = await api('POST', '/api/cps', { cp_no, name: cp_no.toLowerCase(), loc_id: site.data.loc_id });
      cps[cp_no] = cp.data.cp_id;
    }
    await currentConfig(cps['E2E-MU1']!);
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('refuses chargers lacking a configuration, then applies a setting to both and follows the sending, in English', async () => {
    await page.goto(`${portal}/cps`);
    await useLanguage(page, 'en');
    await page.goto(`${portal}/cps/E2E-MU/search`);
    const button = page.getByRole('button', { name: 'Mass update' });
    await button.waitFor();
    assert.equal(await button.isDisabled(), true);
    await selectBoth();
    assert.equal(await button.isEnabled(), true);
    await screenshot(page, 'mass-update-0-selected-en', { fullPage: false });

    // E2E-MU2 has no current config: the §8 error, Save stays disabled.
    await button.click();
    const modal = page.locator('.ant-modal').filter({ hasText: 'Mass update: 2 charging points' });
    const noConfig = modal.getByTestId('mass-update-no-config');
    await noConfig.getByText('The following charging points currently do not have charging configuration so batch update is failed').waitFor();
    assert.match(await noConfig.innerText(), /E2E-MU2/);
    assert.doesNotMatch(await noConfig.innerText(), /E2E-MU1/);
    await screenshot(page, 'mass-update-1-no-config-en', { fullPage: false });
    await modal.getByRole('button', { name: 'Back' }).click();
    await modal.waitFor({ state: 'detached' });

    await currentConfig(cps['E2E-MU2']!);
    await button.click();
    await modal.getByText('Tick the settings to change').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await noConfig.count(), 0);
    const save = modal.getByRole('button', { name: 'Save' });
    assert.equal(await save.isDisabled(), true);
    await modal.getByRole('checkbox', { name: 'Time Zone', exact: true }).check();
    const tz = modal.getByRole('spinbutton', { name: 'Time Zone' });
    assert.equal(await tz.inputValue(), '8');
    await tz.fill('3');
    assert.equal(await save.isEnabled(), true);
    // A value off its step (§9: 0 to 10000, step 100): refused by the server, named under its setting; the popup stays.
    await modal.getByRole('checkbox', { name: 'Auto Unlock Interval (ms)', exact: true }).check();
    await modal.getByRole('spinbutton', { name: 'Auto Unlock Interval (ms)' }).fill('33');
    await screenshot(page, 'mass-update-2-keys-en', { fullPage: false });
    await save.click();
    await confirm('2 items have been changed, are you sure you want to save?', 'Confirm');
    await modal.getByText('Not one of the steps of this setting').waitFor();
    await page.locator('.ant-message').getByText('Auto Unlock Interval (ms): Not one of the steps of this setting').waitFor();
    assert.equal((await current(cps['E2E-MU1']!)).config_json['Time Zone'].Value, 8);
    await modal.getByRole('checkbox', { name: 'Auto Unlock Interval (ms)', exact: true }).uncheck();
    await save.click();
    await confirm('1 items have been changed, are you sure you want to save?', 'Confirm');

    // Saved (200): the popup closes (spec §7); the sending is followed in a notification.
    await modal.waitFor({ state: 'detached' });
    const note = page.locator('.ant-notification-notice').filter({ has: page.getByTestId('mass-update-progress') });
    await note.getByText('Done: 2 of 2 charging points').waitFor({ timeout: 20_000 });
    await note.getByTestId('mass-update-result-E2E-MU1').getByText('E2E-MU1: Offline').waitFor();
    await note.getByTestId('mass-update-result-E2E-MU2').waitFor();
    // The selection is cleared: the button is disabled again.
    assert.equal(await button.isDisabled(), true);
    await screenshot(page, 'mass-update-3-done-en', { fullPage: false });
    await note.locator('.ant-notification-notice-close').click();
    await note.waitFor({ state: 'detached' });

    for (const id of Object.values(cps)) {
      const cfg = await current(id);
      assert.equal(cfg.config_json['Time Zone'].Value, 3);
      assert.equal(cfg.last_sent['Time Zone'], 'Offline');
    }
  });

  it('the same in Traditional Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    await selectBoth();
    await page.getByRole('button', { name: '批量更新' }).click();
    const modal = page.locator('.ant-modal').filter({ hasText: '批量更新：2 個充電樁' });
    await modal.getByText('勾選要在所有已選充電樁上更改的設定項').waitFor();
    // Setting names and choices in Chinese.
    await modal.getByRole('checkbox', { name: '自動解鎖間隔（毫秒）', exact: true }).check();
    await modal.getByRole('spinbutton', { name: '自動解鎖間隔（毫秒）' }).fill('2000');
    await modal.getByRole('checkbox', { name: '視窗', exact: true }).check();
    await modal.getByRole('combobox', { name: '視窗' }).click();
    await page.locator('.ant-select-dropdown').getByTitle('縮小').waitFor();
    await screenshot(page, 'mass-update-4-keys-zh', { fullPage: false });
    await page.locator('.ant-select-dropdown').getByTitle('縮小').click();
    await modal.getByRole('button', { name: label('儲存') }).click();
    await confirm('已更改 2 項，確定要儲存嗎？', '確定');
    await modal.waitFor({ state: 'detached' });
    const note = page.locator('.ant-notification-notice').filter({ has: page.getByTestId('mass-update-progress') });
    await note.getByText('完成：2 / 2 個充電樁').waitFor({ timeout: 20_000 });
    await note.getByTestId('mass-update-result-E2E-MU1').getByText('E2E-MU1: 離線').waitFor();
    await screenshot(page, 'mass-update-5-done-zh', { fullPage: false });
    for (const id of Object.values(cps)) {
      const cfg = await current(id);
      assert.equal(cfg.config_json['Auto Unlock Interval (ms)'].Value, 2000);
      assert.equal(cfg.config_json.Window.Value, 'Shrink');
    }
  });
});
