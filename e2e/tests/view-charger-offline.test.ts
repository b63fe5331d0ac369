import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, connectedCharger, disabledReason, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const row = (page: Page, name: string): Locator => page.getByRole('row', { name: new RegExp(name) });
const dialog = (page: Page) => page.locator('.ant-modal-confirm');
/** The value of a field on the view page's details. */
const detail = (page: Page, name: string): Locator =>
  page.locator('th.ant-descriptions-item-label', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }).locator('xpath=following-sibling::td[1]');


/**
 * Issue 27: a charger that is not connected is Offline on its view, its Remote actions tab and the chargers
 * list, with what it last reported marked as such, and every action that needs it is off with the reason;
 * an unlock warns that it stops the running session; stop and unlock take a remark.
 */
describe('charger state: Offline with its last known status, actions where they can work', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Offline Site', 'E2E-OFFLINE', { connectors: 2, reconnect: false }));
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  const startCharging = async () => {
    assert.equal((await api('POST', `/api/cps/rsrStartCharger/${cpId}`, { connectorId: 1, time: 30 })).status, 'success');
    await eventually(async () => sim.connectorStatus(1) === 'Charging', 'connector 1 charging');
  };

  it('offers start only where it can work, warns that an unlock stops the session, and stops with a remark', async () => {
    await startCharging();
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await page.getByTestId('connector-status-1').filter({ hasText: 'Charging' }).waitFor();

    // One connector at a time on this charger: start is off on connector 2, with the reason.
    const start2 = row(page, 'Connector 2').getByRole('button', { name: 'Start' });
    assert.equal(await start2.isDisabled(), true);
    assert.equal(await disabledReason(page, start2), 'Only one connector per charging point may charge at a time');
    assert.equal(await row(page, 'Connector 2').getByRole('button', { name: 'Stop' }).isDisabled(), true);

    await row(page, 'Connector 1').getByRole('button', { name: 'Unlock' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Unlock connector 1? A charging session is running on it: unlocking stops it.').waitFor();
    await screenshot(page, 'charger-state-1-unlock-session-en');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    assert.equal(sim.hasTransaction(1), true);

    await row(page, 'Connector 1').getByRole('button', { name: 'Stop' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Stop charging on connector 1?').waitFor();
    await dialog(page).getByLabel('Remark').fill('driver asked by phone');
    await page.waitForTimeout(400);
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.ant-message').getByText('The charger accepted the command').waitFor();
    await eventually(async () => !sim.hasTransaction(1), 'the session stopped');
    // The remark is the command's audit remark.
    const [audited] = (await api('GET', '/api/portal_action_log?size=1&page=0')).dataset.content;
    assert.deepEqual([audited.action, audited.target_id, audited.remark], ['COMMAND', String(cpId), 'driver asked by phone']);

    // Finishing: the previous car is still plugged in, no start can work there.
    await page.getByTestId('connector-status-1').filter({ hasText: 'Finishing' }).waitFor({ timeout: 15_000 });
    const start1 = row(page, 'Connector 1').getByRole('button', { name: 'Start' });
    assert.equal(await start1.isDisabled(), true);
    assert.equal(await disabledReason(page, start1), 'A remote start cannot work while the connector is Finishing');
    await sim.unplug(1);
    await page.getByTestId('connector-status-1').filter({ hasText: /^Available$/ }).waitFor({ timeout: 15_000 });
    assert.equal(await start1.isEnabled(), true);
  });

  it('shows a charger that went away Offline with what it last reported, every action off with the reason', async () => {
    await startCharging();
    await page.getByTestId('connector-status-1').filter({ hasText: 'Charging' }).waitFor({ timeout: 15_000 });
    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');

    await page.getByTestId('connector-status-1').filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });
    assert.match((await page.getByTestId('connector-last-known-1').textContent()) ?? '', /^last reported Charging at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match((await page.getByTestId('charger-offline').textContent()) ?? '', /Offline since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d — last reported Charging at \d{4}-\d\d-\d\d/);
    for (const name of ['Start', 'Stop', 'Unlock', 'Set Available', 'Set Unavailable']) {
      assert.equal(await row(page, 'Connector 1').getByRole('button', { name }).isDisabled(), true, name);
    }
    for (const name of ['Reset (Hard)', 'Reset (Soft)', 'Get diagnostics', 'Trigger message']) {
      assert.equal(await page.getByRole('button', { name }).isDisabled(), true, name);
    }
    assert.equal(await disabledReason(page, row(page, 'Connector 1').getByRole('button', { name: 'Stop' })), 'The charging point is not connected');
    await screenshot(page, 'charger-state-2-offline-actions-en');

    // The view's details, read again while open: Offline, the last known status, no "online since".
    await page.getByRole('tab', { name: 'Details' }).click();
    assert.equal(await detail(page, 'Charging Status').textContent(), 'Offline');
    assert.equal(await detail(page, 'Last Known Status (offline)').textContent(), 'Charging');
    assert.equal(await detail(page, 'Connector A Status').textContent(), 'Offline');
    assert.equal(await detail(page, 'Online Since').textContent(), '-');
    await screenshot(page, 'charger-state-3-offline-view-en');

    // The chargers list says the same.
    await page.goto(`${portal}/cps`);
    const listed = row(page, 'E2E-OFFLINE');
    await listed.waitFor();
    const cells = await listed.locator('td').allTextContents();
    assert.ok(cells.includes('Offline'), cells.join('|'));
    assert.ok(cells.includes('Charging'), cells.join('|'));
    await screenshot(page, 'charger-state-4-offline-list-en');

    await useLanguage(page, 'zh-TW');
    await listed.waitFor();
    const zhCells = await listed.locator('td').allTextContents();
    assert.ok(zhCells.includes('離線') && zhCells.includes('充電中'), zhCells.join('|'));
    await screenshot(page, 'charger-state-5-offline-list-zh-TW');
    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByRole('tab', { name: '遠端操作' }).click();
    await page.getByTestId('connector-status-1').filter({ hasText: '離線' }).waitFor();
    assert.match((await page.getByTestId('charger-offline').textContent()) ?? '', /自 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d 起離線 — 最後回報：充電中/);
    assert.equal(await disabledReason(page, row(page, '充電槍 1').getByRole('button', { name: label('解鎖') })), '充電樁未連線');
    await screenshot(page, 'charger-state-6-offline-actions-zh-TW');
  });
});
