import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, connectedCharger, disabledReason, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const section = (page: Page) => page.getByTestId('charger-keys');
/** The table row of one configuration key (its first cell is the key). */
const keyRow = (page: Page, key: string): Locator =>
  section(page).locator('tr.ant-table-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${key}$`) }) });


/** Sets one key through the Set popup and its confirmation; answers the popup, left open with the charger's answer. */
async function setKey(page: Page, key: string, value: string, send: string, confirm: string): Promise<Locator> {
  await keyRow(page, key).getByRole('button').click();
  const popup = page.getByTestId('set-key');
  await popup.waitFor();
  await popup.getByRole('textbox').fill(value);
  await page.locator('.ant-modal').filter({ has: popup }).getByRole('button', { name: label(send) }).click();
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await page.waitForTimeout(400);
  await dialog.getByRole('button', { name: label(confirm) }).click();
  await page.getByTestId('set-key-answer').waitFor({ timeout: 20_000 });
  return page.locator('.ant-modal').filter({ has: popup });
}

/**
 * Issue 29: the charger view's Configuration tab reads the charger's own keys (GetConfiguration), marks those that
 * differ from its current configuration, sets one (ChangeConfiguration) and shows the charger's answer as given.
 */
describe('configuration read back from the charger, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Readback Site', 'E2E-READBACK', { connectors: 1, reconnect: false }));
    // A current configuration that wants a 30 s sample interval, sent to the charger; then the charger's own
    // value changes on site (60 s): the portal's configuration and the charger now differ.
    const settings = {
      'Meter Value Sample Interval (s)': { Type: 'Range', Authority: 'Everyone', Value: 30, Option: [5, 900, 5] },
      'End upon state A': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
      'Network Timeout (ms)': { Type: 'Range', Authority: 'Everyone', Value: 5000, Option: [500, 30000, 500] },
    };
    const created = await api('PUT', `/api/cps/${cpId}/cpConfig`, { description: 'site standard', config_json: JSON.stringify(settings) });
    assert.equal(created.status, 'success');
    assert.equal((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: created.data.cp_config_id, current: 1 })).status, 'success');
    assert.equal(sim.config.change('MeterValueSampleInterval', '60'), 'Accepted');
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('reads the keys, marks the drift, sets a key and shows Accepted, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await section(page).getByText('Not read yet: Read asks the charger for its keys.').waitFor();
    await section(page).getByRole('button', { name: 'Read from the charger' }).click();
    await toast(page, /^The charger answered \d+ keys$/).waitFor();

    await section(page).getByTestId('drift-MeterValueSampleInterval').filter({ hasText: 'Differs' }).waitFor();
    assert.equal(await section(page).getByTestId('charger-keys-drift-count').textContent(), 'Keys that differ from the configuration: 1');
    assert.match(await keyRow(page, 'MeterValueSampleInterval').innerText(), /60\s+No\s+Meter Value Sample Interval \(s\): 30\s+Differs/);
    assert.match(await keyRow(page, 'StopTransactionOnEVSideDisconnect').innerText(), /true\s+No\s+End upon state A: true\s+Same/);
    // A read-only key has no Set button.
    assert.match(await keyRow(page, 'NumberOfConnectors').innerText(), /1\s+Yes/);
    assert.equal(await keyRow(page, 'NumberOfConnectors').getByRole('button').count(), 0);
    // Vendor settings go as DataTransfer: labelled so, with the charger's answer, never as applied.
    const vendor = page.getByTestId('vendor-settings');
    assert.match(await vendor.innerText(), /Network Timeout \(ms\) vendor setting \(DataTransfer\)\s+5000\s+Accepted/);
    await section(page).getByText(/"Accepted" means the charger took the message, not that the setting took effect/).waitFor();
    await screenshot(page, 'config-readback-1-drift-en');

    const popup = await setKey(page, 'MeterValueSampleInterval', '30', 'Send to the charger', 'Confirm');
    assert.match(await page.getByTestId('set-key-answer').innerText(), /The charger answered\s+Accepted[\s\S]*The charger changed the key\./);
    await screenshot(page, 'config-readback-2-set-accepted-en', { fullPage: false });
    await popup.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    // The key is read again: no drift is left.
    await section(page).getByTestId('charger-keys-drift-count').filter({ hasText: 'No key differs from the configuration' }).waitFor();
    assert.equal(sim.config.value('MeterValueSampleInterval'), '30');
    const [audited] = (await api('GET', '/api/portal_action_log?size=1&page=0')).dataset.content;
    assert.equal(audited.action, 'COMMAND');
    assert.equal(audited.target_id, String(cpId));

    // ClearCache from the Remote actions tab: confirmed, the charger's Accepted shown.
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await page.getByRole('button', { name: 'Clear authorization cache' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText(/^Clear the charger's authorization cache\?/).waitFor();
    await page.waitForTimeout(400);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'The charger answered Accepted: its authorization cache is cleared').waitFor();
    await screenshot(page, 'config-readback-5-clear-cache-en', { fullPage: false });
    const [cleared] = (await api('GET', '/api/portal_action_log?size=1&page=0')).dataset.content;
    assert.deepEqual([cleared.action, cleared.target_id], ['COMMAND', String(cpId)]);
    assert.match(JSON.stringify(await api('GET', `/api/portal_action_log/${cleared.id}`)), /"command":"ClearCache"/);
  });

  it('shows a Rejected answer and the read-back in Traditional Chinese, and Read off with the reason when offline', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '設定', exact: true }).click();
    await section(page).getByText('充電樁上的設定').waitFor();
    await section(page).getByTestId('charger-keys-drift-count').filter({ hasText: '沒有設定鍵與設定不符' }).waitFor();
    sim.config.change('StopTransactionOnEVSideDisconnect', 'false');
    await section(page).getByRole('button', { name: label('從充電樁讀取') }).click();
    await toast(page, /^充電樁回覆了 \d+ 個設定鍵$/).waitFor();
    await section(page).getByTestId('drift-StopTransactionOnEVSideDisconnect').filter({ hasText: '不符' }).waitFor();
    await page.getByTestId('vendor-settings').getByText('廠商設定（DataTransfer）').first().waitFor();
    await screenshot(page, 'config-readback-3-drift-zh-TW');

    const popup = await setKey(page, 'HeartbeatInterval', 'soon', '傳送至充電樁', '確定');
    assert.match(await page.getByTestId('set-key-answer').innerText(), /充電樁回覆\s+Rejected[\s\S]*充電樁拒絕了此值。/);
    await screenshot(page, 'config-readback-4-set-rejected-zh-TW', { fullPage: false });
    await popup.locator('.ant-modal-footer').getByRole('button', { name: label('關閉') }).click();

    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');
    const read = section(page).getByRole('button', { name: label('從充電樁讀取') });
    await eventually(async () => read.isDisabled(), 'Read off while offline', 15_000);
    assert.equal(await disabledReason(page, read), '充電樁未連線');
    await page.getByRole('tab', { name: '遠端操作' }).click();
    const clear = page.getByRole('button', { name: label('清除授權快取') });
    await eventually(async () => clear.isDisabled(), 'ClearCache off while offline', 15_000);
    assert.equal(await disabledReason(page, clear), '充電樁未連線');
    await screenshot(page, 'config-readback-6-clear-cache-offline-zh-TW', { fullPage: false });
  });
});
