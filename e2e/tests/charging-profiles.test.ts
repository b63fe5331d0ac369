import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, connectedCharger, disabledReason, drawnPixels, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const tab = (page: Page) => page.getByTestId('charging-profiles');
/** Confirms the open confirmation dialog with its primary button. */
async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await page.waitForTimeout(400);
  await dialog.locator('.ant-btn-primary').click();
  await dialog.waitFor({ state: 'detached', timeout: 20_000 });
}

/**
 * Issue 29: the charger view's Charging profiles tab sets a TxDefaultProfile with a two-step schedule on the
 * simulator, lists it, draws the charger's composite schedule and clears it, in English and Traditional Chinese.
 */
describe('charging profiles in the charger view, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Profiles Site', 'E2E-PROFILES', { connectors: 1, reconnect: false }));
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('sets a TxDefaultProfile from the tab, lists it, draws the composite schedule and clears it, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Charging profiles' }).click();
    await tab(page).getByText('The server has set no charging profile on this charger.').waitFor();
    await tab(page).getByRole('button', { name: 'Set profile' }).click();
    const form = page.getByTestId('profile-form');
    await form.waitFor();
    await form.getByTestId('period-0').getByLabel('Limit').fill('10');
    await form.getByRole('button', { name: 'Add period' }).click();
    await form.getByTestId('period-1').getByLabel('Start (s)').fill('1800');
    await form.getByTestId('period-1').getByLabel('Limit').fill('6');
    await screenshot(page, 'charging-profiles-1-set-form-en', { fullPage: false });
    await page.getByTestId('profile-send').click();
    await toast(page, 'The charger answered Accepted').waitFor({ timeout: 20_000 });
    assert.equal(sim.allowedCurrent(1), 10);

    const row = page.getByTestId('profiles-connector-1').locator('tr.ant-table-row');
    await row.first().waitFor();
    assert.match(await row.innerText(), /1\s+Default for transactions \(TxDefaultProfile\)\s+2\s+Absolute\s+from 0 s: 10 A · from 1800 s: 6 A\s+Manual · admin/);

    await tab(page).getByLabel('For the next (s)').fill('3600');
    await tab(page).getByRole('button', { name: 'Get composite schedule' }).click();
    await page.getByTestId('composite-chart').waitFor();
    await eventually(async () => (await drawnPixels(page, 'composite-chart')) > 500, 'the composite schedule drawn');
    await screenshot(page, 'charging-profiles-2-listed-composite-en');

    await row.getByRole('button', { name: 'Clear 1' }).click();
    await confirm(page);
    await toast(page, 'The charger answered Accepted').waitFor();
    await tab(page).getByText('The server has set no charging profile on this charger.').waitFor();
    assert.equal(sim.allowedCurrent(1), 32);
  });

  it('lists, charts and clears by criteria in Traditional Chinese, and is off with the reason when offline', async () => {
    const profile = { chargingProfileId: 5, stackLevel: 3, kind: 'Relative', unit: 'A', periods: [{ startPeriod: 0, limit: 8 }, { startPeriod: 600, limit: 12 }] };
    assert.equal((await api('POST', `/api/cps/${cpId}/chargingProfiles`, { connectorId: 0, purpose: 'TxDefaultProfile', profile })).status, 'success');
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '充電設定檔' }).click();
    await page.getByTestId('profiles-connector-0').getByText('交易預設').waitFor();
    await tab(page).getByRole('button', { name: buttonName('取得綜合排程') }).click();
    await eventually(async () => (await drawnPixels(page, 'composite-chart')) > 500, 'the composite schedule drawn');
    await screenshot(page, 'charging-profiles-3-listed-composite-zh-TW');

    await tab(page).getByRole('button', { name: buttonName('依條件清除') }).click();
    const modal = page.locator('.ant-modal').filter({ hasText: '清除符合所有指定條件的設定檔' });
    // Without a stack level the criteria would reach load management's profiles: refused until one is given.
    await modal.getByText(/也會清除負載管理的設定檔/).waitFor();
    await screenshot(page, 'charging-profiles-4-criteria-zh-TW', { fullPage: false });
    await modal.getByPlaceholder('任一堆疊層級').fill('3');
    await modal.getByTestId('criteria-clear').click();
    await confirm(page);
    await tab(page).getByText('伺服器尚未在此充電樁設定任何充電設定檔。').waitFor();

    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');
    const set = tab(page).getByRole('button', { name: buttonName('設定設定檔') });
    await eventually(async () => set.isDisabled(), 'Set off while offline', 15_000);
    assert.equal(await disabledReason(page, set), '充電樁未連線');
  });
});
