import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, connectedCharger, eventually, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const tab = (page: Page) => page.getByTestId('charger-reservations');
const row = (page: Page, id: number) => tab(page).locator(`tr[data-row-key="${id}"]`);

/**
 * Issue 29: the charger view's Reservations tab reserves a connector (ReserveNow), the connector shows Reserved,
 * a refusal shows the charger's answer, and Cancel (after a confirmation) sends CancelReservation.
 */
describe('reservations from the charger view, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;
  let reservationId: number;

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Reservation Site', 'E2E-RESV', { connectors: 2, reconnect: false }));
    assert.equal((await api('POST', '/api/auth_card', { name: 'E2E card', rfid_cards: 'E2E-CARD', active: 1 })).status, 'success');
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  /** Opens Reserve, fills the form for connector 1 and sends it. */
  async function reserve(send: string): Promise<void> {
    await tab(page).getByTestId('reserve-button').click();
    const modal = page.locator('.ant-modal').filter({ has: page.locator('form') });
    await modal.waitFor();
    await pickOption(page, /^(Connector|充電槍)$/, '1');
    await modal.locator('#id_tag').fill('E2E-CARD');
    await modal.getByRole('button', { name: buttonName(send) }).click();
  }

  it('reserves connector 1 (Reserved), and shows the charger\'s Occupied for a second one, in English', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Reservations' }).click();
    await tab(page).getByText('No reservations').waitFor();
    await reserve('Send to the charger');
    await toast(page, 'The charger accepted the reservation').waitFor({ timeout: 20_000 });
    const [stored] = (await api('GET', `/api/reservations?cp_id=${cpId}&size=10`)).dataset.content;
    reservationId = stored.reservation_id;
    assert.equal(stored.status, 'Accepted');
    assert.deepEqual(sim.reservations.list().map((r) => [r.reservationId, r.connectorId, r.idTag]), [[reservationId, 1, 'E2E-CARD']]);
    await row(page, reservationId).getByText('Reserved', { exact: true }).waitFor();
    assert.match(await row(page, reservationId).innerText(), /E2E-CARD[\s\S]*Reserved\s+Accepted\s+admin/);

    // A second reservation of the same connector: the charger's answer, as it gave it, and nothing held.
    await reserve('Send to the charger');
    await page.getByTestId('reserve-error').getByText('The charger answered Occupied: the connector is not reserved').waitFor({ timeout: 20_000 });
    await screenshot(page, 'reservations-1-occupied-en', { fullPage: false });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    // The connector shows Reserved where its status is shown.
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await page.getByTestId('connector-status-1').filter({ hasText: 'Reserved' }).waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Reservations' }).click();
    await row(page, reservationId).waitFor();
    await screenshot(page, 'reservations-2-reserved-en');
  });

  it('cancels the reservation after a confirmation, in Traditional Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '充電預留' }).click();
    await row(page, reservationId).getByText('已預留').waitFor();
    await row(page, reservationId).getByRole('button', { name: buttonName('取消') }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText(`向充電樁發送 CancelReservation，取消預留 ${reservationId}（E2E-CARD）？`).waitFor();
    await screenshot(page, 'reservations-3-cancel-confirm-zh-TW', { fullPage: false });
    await dialog.getByRole('button', { name: buttonName('確定') }).click();
    await toast(page, '充電樁已取消預留').waitFor({ timeout: 20_000 });
    await row(page, reservationId).getByText('已取消').waitFor({ timeout: 10_000 });
    assert.deepEqual(sim.reservations.list(), []);
    await eventually(async () => sim.connectorStatus(1) === 'Available', 'connector 1 Available again');
    assert.equal((await api('GET', `/api/reservations/${reservationId}`)).status, 'Cancelled');
    await screenshot(page, 'reservations-4-cancelled-zh-TW');
  });
});
