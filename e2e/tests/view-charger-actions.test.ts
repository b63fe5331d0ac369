import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, connectedCharger, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** Clicks the OK button of the confirmation dialog that opened. */
async function confirmDialog(page: Page, ok: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  // antd zooms the dialog in for about 0.3 s: click once it has settled.
  await page.waitForTimeout(400);
  await dialog.getByRole('button', { name: label(ok) }).click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The start form's popup once it has opened: like the confirmation, it zooms in for about 0.3 s. */
async function startForm(page: Page): Promise<Locator> {
  const form = page.getByTestId('start-form');
  await form.waitFor();
  await page.waitForTimeout(400);
  return form;
}

/** The latest toast message with this text. */
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).last();

const statusOf = (page: Page, n: number) => page.getByTestId(`connector-status-${n}`);
const row = (page: Page, name: string): Locator => page.getByRole('row', { name: new RegExp(name) });

/** Charger view, Remote actions tab (spec part 1 §2, §4, §7, §8) against a simulated charger. */
describe('charger remote actions in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Actions Site', 'E2E-ACTIONS', { connectors: 2, maxCurrentA: 16 }));
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('starts and stops, refuses with the code text, changes availability, triggers a message and resets, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await statusOf(page, 1).filter({ hasText: 'Available' }).waitFor();
    await statusOf(page, 2).filter({ hasText: 'Available' }).waitFor();
    // Physical connectors only.
    assert.equal(await page.getByTestId('connector-status-0').count(), 0);
    // Nothing charges: stop is off on both, start on.
    assert.equal(await row(page, 'Connector 1').getByRole('button', { name: 'Stop' }).isDisabled(), true);
    assert.equal(await row(page, 'Connector 1').getByRole('button', { name: 'Start' }).isEnabled(), true);

    // Start on connector 1: the form, then the confirmation.
    await row(page, 'Connector 1').getByRole('button', { name: 'Start' }).click();
    const form = await startForm(page);
    await form.getByLabel('Duration (minutes)').fill('30');
    await form.getByLabel('Licence plate').fill('AB1234');
    await form.getByLabel('Remark').fill('e2e remote start');
    await screenshot(page, 'actions-1-start-form-en');
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: 'Start' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Start charging on connector 1?').waitFor();
    await confirmDialog(page, 'Confirm');
    await toast(page, 'The charger accepted the command').waitFor();
    await statusOf(page, 1).filter({ hasText: 'Charging' }).waitFor({ timeout: 15_000 });
    assert.equal(sim.hasTransaction(1), true);
    // §4: a charging connector may be stopped, not started.
    assert.equal(await row(page, 'Connector 1').getByRole('button', { name: 'Start' }).isDisabled(), true);
    assert.equal(await row(page, 'Connector 1').getByRole('button', { name: 'Stop' }).isEnabled(), true);

    // One connector at a time on this charger (code 10022): start is offered only where it can work, the code's text says why not.
    const start2 = row(page, 'Connector 2').getByRole('button', { name: 'Start' });
    assert.equal(await start2.isDisabled(), true);
    await start2.locator('xpath=..').hover();
    await page.locator('.ant-tooltip').getByText('Only one connector per charging point may charge at a time').waitFor();
    await screenshot(page, 'actions-2-charging-refused-en');
    await page.mouse.move(0, 0);
    assert.equal(sim.hasTransaction(2), false);

    // Stop connector 1.
    await row(page, 'Connector 1').getByRole('button', { name: 'Stop' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Stop charging on connector 1?').waitFor();
    await confirmDialog(page, 'Confirm');
    await toast(page, 'The charger accepted the command').waitFor();
    await statusOf(page, 1).filter({ hasNotText: 'Charging' }).waitFor({ timeout: 15_000 });
    assert.equal(sim.hasTransaction(1), false);

    // Availability of connector 2: Unavailable, then Available again.
    await row(page, 'Connector 2').getByRole('button', { name: 'Set Unavailable' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Make Connector 2 unavailable?').waitFor();
    await confirmDialog(page, 'Confirm');
    await statusOf(page, 2).filter({ hasText: 'Unavailable' }).waitFor({ timeout: 15_000 });
    assert.equal(sim.connectorStatus(2), 'Unavailable');
    await screenshot(page, 'actions-3-unavailable-en');
    await row(page, 'Connector 2').getByRole('button', { name: 'Set Available' }).click();
    await confirmDialog(page, 'Confirm');
    await statusOf(page, 2).filter({ hasText: /^Available$/ }).waitFor({ timeout: 15_000 });

    // Trigger message: Heartbeat, for the whole charger.
    const trigger = page.getByTestId('trigger-message');
    await trigger.getByRole('combobox', { name: 'Requested message' }).click();
    await page.locator('.ant-select-dropdown').getByTitle('Heartbeat').click();
    const triggered = page.waitForResponse((r) => r.url().includes(`/api/cps/triggerMessage/${cpId}`));
    await trigger.getByRole('button', { name: 'Trigger message' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Ask the charger to send Heartbeat (All connectors)?').waitFor();
    await confirmDialog(page, 'Confirm');
    const answer = await triggered;
    assert.equal(new URL(answer.url()).searchParams.get('requestedMessage'), 'Heartbeat');
    assert.equal(new URL(answer.url()).searchParams.has('connectorId'), false);
    assert.equal((await answer.json()).status, 'success');
    await toast(page, 'The charger accepted the command').waitFor();

    // Reset (Soft): the charger restarts and comes back.
    const reset = page.waitForResponse((r) => r.url().includes(`/api/cps/rsrResetCharger/${cpId}?type=Soft`));
    await page.getByRole('button', { name: 'Reset (Soft)' }).click();
    await confirmDialog(page, 'Confirm');
    assert.equal((await (await reset).json()).status, 'success');
    await toast(page, 'The charger accepted the command').waitFor();
    await screenshot(page, 'actions-4-reset-en');
  });

  it('shows the buttons and a refusal in Traditional Chinese', async () => {
    // Back from the reset: connected again.
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 1, 'the charger back after the reset', 20_000);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '遠端操作' }).click();
    await statusOf(page, 1).filter({ hasText: '可用' }).waitFor({ timeout: 15_000 });
    await row(page, '充電槍 1').getByRole('button', { name: label('啟動') }).click();
    const form = await startForm(page);
    await form.getByLabel('時長（分鐘）').fill('20');
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: label('啟動') }).click();
    await page.locator('.ant-modal-confirm-title').getByText('確定在充電槍 1 開始充電？').waitFor();
    await confirmDialog(page, '確定');
    await toast(page, '充電樁已接受指令').waitFor();
    await statusOf(page, 1).filter({ hasText: '充電中' }).waitFor({ timeout: 15_000 });
    const start2 = row(page, '充電槍 2').getByRole('button', { name: label('啟動') });
    assert.equal(await start2.isDisabled(), true);
    await start2.locator('xpath=..').hover();
    await page.locator('.ant-tooltip').getByText('每個充電樁同一時間只可一支充電槍充電').waitFor();
    await screenshot(page, 'actions-5-refused-zh-TW');
    await page.mouse.move(0, 0);
    await row(page, '充電槍 1').getByRole('button', { name: label('停止') }).click();
    await confirmDialog(page, '確定');
    await statusOf(page, 1).filter({ hasNotText: '充電中' }).waitFor({ timeout: 15_000 });
  });
});
