import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, connectedCharger, disabledReason, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const section = (page: Page) => page.getByTestId('local-list');

/**
 * Issue 29: the charger view's Local list tab sends the charger its local authorization list (built from the
 * authorised cards), asks its version and shows both versions; a card blocked while the charger is offline
 * shows as pending, with the buttons off and the reason.
 */
describe('local authorization list from the charger view, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;
  let fleetCard: number;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Local List Site', 'E2E-LOCALLIST', { connectors: 1, reconnect: false }));
    fleetCard = (await api('POST', '/api/auth_card', { name: 'Fleet', rfid_cards: 'E2E-CARD1,E2E-CARD2', active: 1 })).data.id;
    await api('POST', '/api/auth_card', { name: 'Lost', rfid_cards: 'E2E-LOST', active: 0 });
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('sends the full list and shows the versions, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Local list' }).click();
    await section(page).getByText('Not asked yet').waitFor();
    await section(page).getByText('Never sent').waitFor();
    await section(page).getByRole('button', { name: 'Send full list' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText('Replace the charger\'s whole local list with 3 entries?').waitFor();
    await page.waitForTimeout(400);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'The charger answered Accepted (version 1, 3 entries sent)').waitFor();
    assert.equal(sim.localList.size, 3);
    assert.equal(sim.localList.lookup('E2E-LOST')?.status, 'Blocked');
    await section(page).getByTestId('local-list-expected').filter({ hasText: /^1$/ }).waitFor();
    assert.match(await section(page).getByTestId('local-list-last').innerText(), /Full, version 1, [\s\S]*Charger answered\s+Accepted/);

    await section(page).getByRole('button', { name: 'Check version' }).click();
    await toast(page, 'The charger holds version 1').waitFor();
    await section(page).getByTestId('local-list-reported').filter({ hasText: /^1$/ }).waitFor();
    assert.match(await section(page).getByTestId('local-list-pending').innerText(), /Up to date/);
    await screenshot(page, 'local-list-1-sent-en');
  });

  it('shows a card blocked while the charger is offline as pending, buttons off with the reason, in Traditional Chinese', async () => {
    sim.disconnect();
    await eventually(async () => (await api('GET', `/api/cps/${cpId}`)).online_flag === 0, 'the charger offline');
    await api('PUT', `/api/auth_card/${fleetCard}`, { active: 0 });
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '本地授權清單' }).click();
    await section(page).getByText('尚未送到充電樁的變更').waitFor();
    await section(page).getByTestId('local-list-pending').getByText(/充電樁下次連線時傳送/).waitFor();
    assert.match(await section(page).getByTestId('local-list-pending').innerText(), /^2/);
    const full = section(page).getByRole('button', { name: buttonName('傳送完整清單') });
    await eventually(async () => full.isDisabled(), 'Send off while offline', 15_000);
    assert.equal(await disabledReason(page, full), '充電樁未連線');
    await screenshot(page, 'local-list-2-pending-offline-zh-TW');

    // Back online: the changes go by themselves.
    await sim.reconnect();
    await eventually(async () => sim.localList.lookup('E2E-CARD1')?.status === 'Blocked', 'the card blocked on the charger', 15_000);
  });
});
