import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, ocppUrl, portal, signedInPage, useLanguage } from '../support.ts';

/** Spec rules on screen: 9001 in the charger delete dialog, a site's provider, mode, district and rate as pickers. */
describe('spec rules in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let locId: number;

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Rules Site', address_chi: '規則站', district_id: 18, mode_id: 1, provider_id: 2 });
    locId = site.data.loc_id;
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-RULES', name: 'rules charger', loc_id: locId, ocpp_password: 'rules-pass-1' });
    cpId = cp.data.cp_id;
    await api('POST', '/api/auth_card', { name: 'rules card', rfid_cards: 'RULES-TAG', active: 1 });
    // One charging session: the charger's delete now takes its transaction records with it.
    const sim = new SimulatedCharger({ url: ocppUrl, cpNo: 'E2E-RULES', password: 'rules-pass-1', connectors: 1, reconnect: false });
    try {
      await sim.start();
      await sim.plugIn(1);
      await sim.startTransaction(1, 'RULES-TAG');
      await sim.stopTransaction(1, 'Local');
    } finally {
      await sim.stop();
    }
    ({ browser, page } = await signedInPage());
  });
  after(async () => browser?.close());

  async function deleteDialog(label: string): Promise<string> {
    await page.locator(`tr[data-row-key="${cpId}"]`).getByRole('button', { name: label }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    await page.waitForTimeout(400);
    return (await dialog.textContent()) ?? '';
  }

  it('warns in the charger delete dialog that the transaction records go too (9001), in both languages', async () => {
    await page.goto(`${portal}/cps`);
    assert.match(await deleteDialog('Delete'), /Will also delete all transaction records!/);
    await page.screenshot({ path: '/tmp/spec-rules-delete-en.png' });
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /cancel/i }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });

    await useLanguage(page, 'zh-TW');
    assert.match(await deleteDialog('刪除'), /將同時刪除所有交易記錄！/);
    await page.screenshot({ path: '/tmp/spec-rules-delete-zh.png' });
    await page.locator('.ant-modal-confirm').getByRole('button').first().click();
    await useLanguage(page, 'en');
  });

  it('shows a site\'s provider, mode and district by name and offers them as pickers', async () => {
    await page.goto(`${portal}/cp_locs/${locId}/edit`);
    const form = page.locator('form');
    await form.getByText('Islands').waitFor();
    await form.getByText('HK Electric').waitFor();
    await form.getByText('Queueing').waitFor();
    await page.screenshot({ path: '/tmp/spec-rules-site-en.png', fullPage: true });
    await useLanguage(page, 'zh-TW');
    await form.getByText('離島區').waitFor();
    await form.getByText('香港電燈').waitFor();
    await page.screenshot({ path: '/tmp/spec-rules-site-zh.png', fullPage: true });
    await useLanguage(page, 'en');
  });
});
