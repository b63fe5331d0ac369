import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, eventually, ocppUrl, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/**
 * Issue 27: a charger that comes back without the StopTransaction of its session (here it restarts)
 * leaves the session flagged unconfirmed in the sessions list and on the charger view, and an
 * operator closes it with a reason; the auto-close is set in the app settings.
 */
describe('unconfirmed sessions in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sessionId: number;

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Unconfirmed Site' });
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-UNCONF', name: 'unconfirmed charger', loc_id: site.data.loc_id, ocpp_password: 'unconf-pass-1' });
    cpId = cp.data.cp_id;
    await api('POST', '/api/auth_card', { name: 'unconfirmed card', rfid_cards: 'UNCONF-TAG', active: 1 });
    const options = { url: ocppUrl, cpNo: 'E2E-UNCONF', password: 'unconf-pass-1', connectors: 1, reconnect: false, maxCurrentA: 16 };
    // It charges, then goes away without its StopTransaction and comes back restarted.
    const first = new SimulatedCharger(options);
    await first.start();
    await first.plugIn(1);
    await first.startTransaction(1, 'UNCONF-TAG');
    await first.sendMeterValues(1);
    await first.stop();
    const again = new SimulatedCharger(options);
    await again.start();
    await again.stop();
    await eventually(async () => {
      const [s] = (await api('GET', `/api/cp_sessions?cp_id=${cpId}&unconfirmed=Available,Boot`)).dataset.content;
      sessionId = s?.session_id;
      return Boolean(s);
    }, 'the session flagged unconfirmed');

    ({ browser, page } = await signedInPage({ width: 1600, height: 900 }));
  });
  after(async () => browser?.close());

  it('flags the session in the list and on the charger view, in English and Traditional Chinese', async () => {
    for (const [lang, tag, notice] of [
      ['en', 'Unconfirmed: the charger restarted', 'has no StopTransaction'],
      ['zh-TW', '未確認：充電樁已重新啟動', '未收到 StopTransaction'],
    ] as const) {
      await page.goto(`${portal}/cp_sessions`);
      await useLanguage(page, lang);
      const row = page.locator(`tr[data-row-key="${sessionId}"]`);
      await row.locator('.ant-tag', { hasText: tag }).waitFor();
      await screenshot(page, `unconfirmed-list-${lang}`, { fullPage: false });
      await page.goto(`${portal}/cps/${cpId}`);
      const alert = page.getByTestId(`unconfirmed-session-${sessionId}`);
      await alert.getByText(notice).waitFor();
      assert.match((await alert.textContent()) ?? '', /UNCONF-TAG/);
      await screenshot(page, `unconfirmed-charger-${lang}`, { fullPage: false });
    }
  });

  it('closes it with a reason after the dialog; the reason is required', async () => {
    await page.goto(`${portal}/cp_sessions`);
    await useLanguage(page, 'en');
    const row = page.locator(`tr[data-row-key="${sessionId}"]`);
    await row.getByTestId(`close-session-${sessionId}`).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: `Close session #${sessionId}` });
    await dialog.getByRole('button', { name: buttonName('Confirm') }).click();
    await dialog.getByText('Give the reason for closing the session.').waitFor();
    await dialog.getByTestId('close-session-reason').fill('Charger restarted without its stop; the driver left at 10:00');
    await screenshot(page, 'unconfirmed-close-dialog-en', { fullPage: false });
    await dialog.getByRole('button', { name: buttonName('Confirm') }).click();
    await row.getByText('Closed by an operator (no stop from the charger)').waitFor();
    assert.equal(await row.locator('.ant-tag').count(), 0);
    await screenshot(page, 'unconfirmed-closed-en', { fullPage: false });
    const closed = await api('GET', `/api/cp_sessions/${sessionId}`);
    assert.equal(closed.stop_reason, 'ClosedByOperator');
    assert.ok(closed.session_end_time);

    await useLanguage(page, 'zh-TW');
    await page.locator(`tr[data-row-key="${sessionId}"]`).getByText('由操作員關閉（充電樁未報告停止）').waitFor();
  });

  it('sets the auto-close in the app settings, off by default, with a select in both languages', async () => {
    const [entry] = (await api('GET', '/api/app_config?config_key=unconfirmed_auto_close_hours')).dataset.content as { id: number }[];
    await page.goto(`${portal}/app_config/${entry.id}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '設定值' }).click();
    await page.getByTestId('app-config-value').getByText('關閉').waitFor();
    await page.getByTestId('app-config-value').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '24 小時後' }).first().click();
    await screenshot(page, 'unconfirmed-auto-close-zh-TW', { fullPage: false });
    await page.getByRole('button', { name: buttonName('儲存') }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: buttonName('確定') }).click();
    await eventually(async () => (await api('GET', `/api/app_config/${entry.id}`)).config_value === '24', 'the setting saved');
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Value' }).click();
    await page.getByTestId('app-config-value').getByText('After 24 hours').waitFor();
    await screenshot(page, 'unconfirmed-auto-close-en', { fullPage: false });
  });
});
