import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SimulatedCharger201 } from '@ev/simulator';
import { api, buttonName, connectedStation201, disabledReason, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const CP_NO = 'E2E-DEVMODEL';
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const section = (page: Page) => page.getByTestId('device-model');
const variableRow = (page: Page, name: string) => section(page).locator('tr.ant-table-row').filter({ hasText: name });

/**
 * Issue 31: the Configuration tab of an OCPP 2.0.1 charger shows its device model instead of the 1.6 keys: Read
 * asks for the base report and follows its parts, a writable variable is set (SetVariables) with the charger's answer.
 */
describe('the device model of a 2.0.1 charger, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger201;

  before(async () => {
    ({ cpId, sim } = await connectedStation201('Device Model Site', CP_NO, { connectors: 1, reconnect: false }));
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('reads the device model and sets HeartbeatInterval, the charger answering Accepted, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByText('OCPP 2.0.1', { exact: true }).first().waitFor();
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await section(page).getByText('Not read yet: Read asks the charger for its device model.').waitFor();
    assert.equal(await page.getByTestId('charger-keys').count(), 0);
    await section(page).getByRole('button', { name: buttonName('Read from the charger') }).click();
    await toast(page, /^The charger reported \d+ variables$/).waitFor({ timeout: 20_000 });
    assert.match(await variableRow(page, 'HeartbeatInterval').innerText(), /HeartbeatInterval\s+\d+\s+s\s+Read and write\s+Edit/);
    assert.match(await variableRow(page, 'Identity').innerText(), new RegExp(`${CP_NO}\\s+Read-only`));
    assert.equal(await variableRow(page, 'Identity').getByRole('button').count(), 0);
    await screenshot(page, 'device-model-1-read-en');

    await section(page).getByRole('button', { name: 'Edit OCPPCommCtrlr HeartbeatInterval' }).click();
    const form = page.getByTestId('device-model-set');
    await form.waitFor();
    await page.waitForTimeout(400);
    await form.getByRole('textbox', { name: 'New value' }).fill('120');
    const modal = page.locator('.ant-modal').filter({ has: form });
    await modal.getByRole('button', { name: buttonName('Send to the charger') }).click();
    await page.getByTestId('device-model-answer').waitFor({ timeout: 20_000 });
    assert.match(await page.getByTestId('device-model-answer').innerText(), /The charger answered\s+Accepted[\s\S]*The charger applied the value\./);
    assert.equal(sim.config.value('HeartbeatInterval'), '120');
    await screenshot(page, 'device-model-2-set-accepted-en', { fullPage: false });
    await modal.locator('.ant-modal-footer').getByRole('button', { name: buttonName('Close') }).click();
    await eventually(async () => /HeartbeatInterval\s+120\s+s/.test(await variableRow(page, 'HeartbeatInterval').innerText()), 'the stored value updated');
    const [audited] = (await api('GET', '/api/portal_action_log?size=1&page=0')).dataset.content;
    assert.deepEqual([audited.action, audited.target_id], ['COMMAND', String(cpId)]);
  });

  it('shows a Rejected answer in Traditional Chinese, and Read off with the reason when offline', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '設定', exact: true }).click();
    await section(page).getByText('裝置模型').first().waitFor();
    await section(page).getByRole('button', { name: '編輯 OCPPCommCtrlr HeartbeatInterval' }).click();
    const form = page.getByTestId('device-model-set');
    await form.waitFor();
    await page.waitForTimeout(400);
    await form.getByRole('textbox').fill('soon');
    const modal = page.locator('.ant-modal').filter({ has: form });
    await modal.getByRole('button', { name: buttonName('傳送至充電樁') }).click();
    await page.getByTestId('device-model-answer').waitFor({ timeout: 20_000 });
    assert.match(await page.getByTestId('device-model-answer').innerText(), /充電樁回覆\s+Rejected[\s\S]*充電樁拒絕了此值。/);
    await screenshot(page, 'device-model-3-set-rejected-zh-TW', { fullPage: false });
    await modal.locator('.ant-modal-footer').getByRole('button', { name: buttonName('關閉') }).click();

    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');
    const read = section(page).getByRole('button', { name: buttonName('從充電樁讀取') });
    await eventually(async () => read.isDisabled(), 'Read off while offline', 15_000);
    assert.equal(await disabledReason(page, read), '充電樁未連線');
    await screenshot(page, 'device-model-4-offline-zh-TW', { fullPage: false });
  });
});
