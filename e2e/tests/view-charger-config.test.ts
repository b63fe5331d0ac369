import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, connectedCharger, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('刪 除'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

async function confirmDialog(page: Page, title: string, ok: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.locator('.ant-modal-confirm-title').getByText(title, { exact: true }).waitFor();
  await page.waitForTimeout(400);
  await dialog.getByRole('button', { name: label(ok) }).click();
  await dialog.waitFor({ state: 'detached', timeout: 20_000 });
}

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
/** The list row of a config, by its id (the list's row key; the tab's other tables are keyed by names). */
const configRow = (page: Page, id: number): Locator => page.getByTestId('cp-config').locator(`tr.ant-table-row[data-row-key="${id}"]`);

/** Charger view, Configuration tab (spec part 1 §2, §3, §5, §7) against a simulated charger. */
describe('charger configuration in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;
  const ids = async (): Promise<number[]> => (await api('GET', `/api/cps/${cpId}/cpConfig`)).map((r: { cp_config_id: number }) => r.cp_config_id);

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Config Site', 'E2E-CONFIG', { connectors: 1, maxCurrentA: 16 }));
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('creates from a template, edits a Range value, makes it current (sent to the charger), duplicates and deletes, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Configuration' }).click();
    const tab = page.getByTestId('cp-config');
    await tab.getByText('This charger has no configuration yet.').waitFor();

    // Create from the AC-1.0.0 template.
    await tab.getByLabel('Firmware template').click();
    await page.locator('.ant-select-dropdown').getByTitle(/^AC-1\.0\.0/).click();
    await tab.getByRole('button', { name: 'Create from template' }).click();
    await toast(page, 'Configuration created').waitFor();
    const [id] = await ids();
    assert.ok(id);
    const row = configRow(page, id);
    await row.waitFor();
    assert.match(await row.innerText(), /AC-1\.0\.0/);
    assert.match(await row.innerText(), /Not sent/);

    // Edit: a Range value, a Selection, and a boolean ticked on.
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByTestId('cp-config-form');
    await form.waitFor();
    const interval = form.getByLabel('Meter Value Sample Interval (s)');
    assert.equal(await interval.inputValue(), '60');
    await interval.fill('30');
    await form.getByLabel('End upon state A').check();
    // Defaults of spec §5, added to the template's settings.
    assert.equal(await form.getByLabel('Time Select Interval Min').inputValue(), '15');
    // admin holds the Admin settings right: Admin settings are editable.
    assert.equal(await form.getByLabel('Network Timeout (ms)').isEnabled(), true);
    // The template's spec §3 settings; the remote OCPP password a blank password input.
    assert.equal(await form.getByLabel('Powermeter ID').inputValue(), '1');
    assert.equal(await form.getByLabel('Remote OCPP Password').getAttribute('type'), 'password');
    // A Range value off its step (0 to 10000, in steps of 100) is refused before anything is sent.
    const unlock = form.getByLabel('Auto Unlock Interval (ms)');
    await unlock.fill('33');
    await form.getByText('Not one of the steps of this setting').waitFor();
    await form.getByText('0 – 10000, in steps of 100').waitFor();
    await unlock.fill('3300');
    await form.getByText('Not one of the steps of this setting').waitFor({ state: 'detached' });
    await screenshot(page, 'config-1-edit-en');
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Saved successfully').waitFor();
    await form.waitFor({ state: 'detached' });
    const stored = (await api('GET', `/api/cps/${cpId}/cpConfig`))[0];
    assert.equal(stored.config_json['Meter Value Sample Interval (s)'].Value, 30);
    assert.equal(stored.config_json['End upon state A'].Value, 'Yes');
    assert.equal(stored.config_json['Auto Unlock Interval (ms)'].Value, 3300);

    // A ticked boolean cannot be unticked.
    await row.getByRole('button', { name: 'Edit' }).click();
    await form.waitFor();
    assert.equal(await form.getByLabel('End upon state A').isDisabled(), true);
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    // Make current: sent to the connected charger, its answer per setting shown.
    await row.getByRole('button', { name: 'Make current' }).click();
    await confirmDialog(page, `Make config ID: ${id} current and send it to the charger?`, 'Confirm');
    await toast(page, /^Saved and sent: \d+ of \d+ settings accepted$/).waitFor({ timeout: 60_000 });
    await page.getByTestId(`cp-config-results-${id}`).getByText(/^Accepted \d+$/).waitFor();
    assert.equal(sim.config.value('MeterValueSampleInterval'), '30');
    assert.equal(sim.config.value('StopTransactionOnEVSideDisconnect'), 'true');
    await row.locator('.ant-table-row-expand-icon').click();
    const details = page.locator('tr.ant-table-expanded-row');
    await details.getByRole('row', { name: /Meter Value Sample Interval \(s\)\s+30\s+Accepted/ }).waitFor();
    await details.getByRole('row', { name: /Time Zone\s+8\s+Accepted/ }).waitFor();
    await screenshot(page, 'config-2-sent-en');
    const sent = (await api('GET', `/api/cps/${cpId}/cpConfig`))[0];
    assert.equal(sent.current, 1);
    assert.equal(sent.last_sent['Meter Value Sample Interval (s)'], 'Accepted');
    await row.locator('.ant-table-row-expand-icon').click();

    // Duplicate: the create popup, prefilled with the copy; nothing is saved until Save.
    await row.getByRole('button', { name: 'Duplicate' }).click();
    const copyForm = page.getByTestId('cp-config-form');
    const copyModal = page.locator('.ant-modal').filter({ has: copyForm });
    await copyModal.getByText(`New configuration, a copy of config ID: ${id}`).waitFor();
    assert.equal(await copyForm.getByLabel('Meter Value Sample Interval (s)').inputValue(), '30');
    assert.equal(await copyForm.getByLabel('Make current and send to the charger').count(), 0);
    await copyForm.getByLabel('Description').fill('copy for the night');
    await copyForm.getByLabel('Default Capacity (A)').fill('10');
    await screenshot(page, 'config-3-duplicate-en');
    assert.deepEqual(await ids(), [id]);
    await copyModal.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Configuration created').waitFor();
    await copyForm.waitFor({ state: 'detached' });
    const copyId = (await ids()).find((x) => x !== id)!;
    const saved = (await api('GET', `/api/cps/${cpId}/cpConfig`)).find((r: { cp_config_id: number }) => r.cp_config_id === copyId);
    assert.equal(saved.description, 'copy for the night');
    assert.equal(saved.current, 0);
    assert.equal(saved.config_json['Default Capacity (A)'].Value, 10);
    assert.equal(saved.config_json['Meter Value Sample Interval (s)'].Value, 30);
    const copy = configRow(page, copyId);
    await copy.waitFor();
    await copy.getByRole('button', { name: 'Delete' }).click();
    await screenshot(page, 'config-3-delete-en', { fullPage: false });
    await confirmDialog(page, `Are you sure to delete cp config ID: ${copyId}`, 'Delete');
    await copy.waitFor({ state: 'detached' });
    assert.deepEqual(await ids(), [id]);
  });

  it('shows the list, the answers and the editor in Traditional Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '設定', exact: true }).click();
    const tab = page.getByTestId('cp-config');
    const [id] = await ids();
    const row = configRow(page, id);
    await row.waitFor();
    await row.getByText(/^已接受 \d+$/).waitFor();
    await row.locator('.ant-table-row-expand-icon').click();
    const details = page.locator('tr.ant-table-expanded-row');
    await details.getByText('已接受').first().waitFor();
    // Setting names and choices in Chinese; config_json keeps the spec's English.
    await details.getByRole('row', { name: /時區\s+8\s+已接受/ }).waitFor();
    await details.getByRole('row', { name: /視窗\s+全螢幕\s+已接受/ }).waitFor();
    await screenshot(page, 'config-4-list-zh-TW');
    await row.locator('.ant-table-row-expand-icon').click();

    await row.getByRole('button', { name: label('編輯') }).click();
    const form = page.getByTestId('cp-config-form');
    await form.waitFor();
    await form.getByLabel('預設容量（A）').fill('20');
    await form.getByText('0 – 32，每級 1').first().waitFor();
    await screenshot(page, 'config-5-edit-zh-TW');
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: label('儲存') }).click();
    // The current config's changes are sent at once.
    await toast(page, /^已儲存並發送：\d+ 項中 \d+ 項已接受$/).waitFor({ timeout: 60_000 });
    assert.equal((await api('GET', `/api/cps/${cpId}/cpConfig`))[0].config_json['Default Capacity (A)'].Value, 20);

    // Delete's confirmation in Chinese, cancelled.
    await row.getByRole('button', { name: label('刪除') }).click();
    await page.locator('.ant-modal-confirm-title').getByText(`確定要刪除充電樁設定編號：${id}`).waitFor();
    await screenshot(page, 'config-6-delete-zh-TW', { fullPage: false });
    await page.locator('.ant-modal-confirm').getByRole('button', { name: label('取消') }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    assert.deepEqual(await ids(), [id]);
    assert.ok(await tab.isVisible());
  });
});
