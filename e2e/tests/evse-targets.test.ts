import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedCharger201 } from '@ev/simulator';
import { api, buttonName, connectedStation201, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const CP_NO = 'E2E-EVSE-201';
const statusOf = (page: Page, n: number) => page.getByTestId(`connector-status-${n}`);
const row = (page: Page, name: string): Locator => page.getByRole('row', { name: new RegExp(name) });
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).last();

/** The confirmation titled `title`, once antd's zoom-in (about 0.3 s) has settled. */
async function dialog(page: Page, title: string): Promise<Locator> {
  const confirm = page.locator('.ant-modal-confirm').filter({ has: page.locator('.ant-modal-confirm-title').getByText(title, { exact: true }) });
  await confirm.waitFor();
  await page.waitForTimeout(400);
  return confirm;
}

async function confirmIt(page: Page, confirm: Locator, ok = 'Confirm'): Promise<void> {
  await confirm.getByRole('button', { name: buttonName(ok) }).click();
  await confirm.waitFor({ state: 'detached', timeout: 15_000 });
}

/**
 * Issue 31 (blocks B and G): the Remote actions tab of an OCPP 2.0.1 charger resets one EVSE and changes the
 * availability of a connector within an EVSE, against the 2.0.1 simulator; a 1.6 charger's tab has neither.
 */
describe('EVSE targets of a 2.0.1 charger in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger201;

  before(async () => {
    await api('POST', '/api/auth_card', { name: 'evse card', rfid_cards: 'EVSE-TAG', active: 1 });
    ({ cpId, sim } = await connectedStation201('EVSE Depot', CP_NO, { connectors: 2 }));
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('resets EVSE 2 alone: its session ends, EVSE 1 charges on', async () => {
    await sim.plugIn(1);
    await sim.plugIn(2);
    await sim.startTransaction(1, 'EVSE-TAG');
    await sim.startTransaction(2, 'EVSE-TAG');
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await statusOf(page, 2).filter({ hasText: 'Charging' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('reset-target').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'EVSE 2' }).click();
    await page.getByRole('button', { name: 'Reset (Hard)' }).click();
    const confirm = await dialog(page, 'Reset EVSE 2 (Hard: immediately)? Its charging session ends.');
    await screenshot(page, 'evse-1-reset-confirm-en');
    await confirmIt(page, confirm);
    await toast(page, 'The charger accepted the command').waitFor();
    await eventually(async () => !sim.hasTransaction(2), 'the EVSE 2 transaction ended by its reset', 15_000);
    assert.equal(sim.hasTransaction(1), true);
    await statusOf(page, 2).filter({ hasNotText: 'Charging' }).waitFor({ timeout: 15_000 });
    const sessions = (await api('GET', `/api/cp_sessions?cp_id=${cpId}`)).dataset.content as Record<string, unknown>[];
    assert.deepEqual(sessions.filter((s) => s.session_end_time).map((s) => [s.connector_id, s.stop_reason]), [[2, 'HardReset']]);
    await sim.stopTransaction(1);
    for (const n of [1, 2]) await sim.unplug(n);
    await statusOf(page, 1).filter({ hasText: /^Available$/ }).waitFor({ timeout: 15_000 });
  });

  it('makes connector 1 within EVSE 2 unavailable, then available again, in Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '遠端操作' }).click();
    await statusOf(page, 2).filter({ hasText: '可用' }).waitFor({ timeout: 15_000 });
    await row(page, '充電槍 2').getByRole('button', { name: buttonName('設為不可用') }).click();
    const confirm = await dialog(page, '確定將充電槍 2設為不可用？');
    await confirm.getByLabel('EVSE 內的充電槍（選填）').fill('1');
    await screenshot(page, 'evse-2-connector-within-zh');
    const sent = page.waitForResponse((r) => r.url().includes(`/api/cps/change_availability/${cpId}/2?`));
    await confirmIt(page, confirm, '確定');
    const url = new URL((await sent).url());
    assert.equal(url.searchParams.get('evseConnectorId'), '1');
    await statusOf(page, 2).filter({ hasText: '不可用' }).waitFor({ timeout: 15_000 });
    assert.equal(sim.ocppStatus(2), 'Unavailable');
    // The connector field left empty: the whole EVSE, as for any charger.
    await row(page, '充電槍 2').getByRole('button', { name: buttonName('設為可用') }).click();
    const again = await dialog(page, '確定將充電槍 2設為可用？');
    const whole = page.waitForResponse((r) => r.url().includes(`/api/cps/change_availability/${cpId}/2?`));
    await confirmIt(page, again, '確定');
    assert.equal(new URL((await whole).url()).searchParams.get('evseConnectorId'), null);
    await statusOf(page, 2).filter({ hasText: /^可用$/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'evse-3-tab-zh');
    await useLanguage(page, 'en');
  });
});
