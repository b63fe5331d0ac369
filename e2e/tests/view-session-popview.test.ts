import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page, Response } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, drawnPixels, ocppUrl, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const MINUTE = 60_000;

const isReadings = (sessionId: number) => (r: Response) =>
  r.url().includes('/api/cp_requests?') && new URL(r.url()).searchParams.get('session_id') === String(sessionId) && r.request().method() === 'GET';

/** Opens the pop-view of one session from a sessions list; resolves with the readings' request. */
async function openPopView(page: Page, list: string, sessionId: number, label: string): Promise<Response> {
  await page.goto(`${portal}/${list}`);
  const row = page.locator(`tr[data-row-key="${sessionId}"]`);
  await row.waitFor();
  const readings = page.waitForResponse(isReadings(sessionId));
  await row.getByRole('button', { name: label }).click();
  await page.getByTestId('session-popview').waitFor();
  return readings;
}

/** Session pop-view (spec part 1 §2): summary, chart of kWh / A / V and the meter table. */
describe('session pop-view in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let charged: number;
  let empty: number;
  let meterValues: { energy: number }[];

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Session Site' });
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-SESSION', name: 'session charger', loc_id: site.data.loc_id, ocpp_password: 'session-pass-1' });
    const cpId = cp.data.cp_id;
    await api('POST', '/api/auth_card', { name: 'session card', rfid_cards: 'SESSION-TAG', active: 1 });

    // Two hours of charging with a reading every 10 minutes, then a session stopped at once (no meter values).
    let clock = Date.now() - 3 * 60 * MINUTE;
    const sim = new SimulatedCharger({
      url: ocppUrl, cpNo: 'E2E-SESSION', password: 'session-pass-1', connectors: 1, reconnect: false,
      maxCurrentA: 16, clock: () => clock,
    });
    try {
      await sim.start();
      await sim.plugIn(1);
      await sim.startTransaction(1, 'SESSION-TAG');
      for (let i = 0; i < 12; i++) {
        clock += 10 * MINUTE;
        await sim.sendMeterValues(1);
      }
      clock += MINUTE;
      await sim.stopTransaction(1, 'Local');
      clock += 5 * MINUTE;
      await sim.startTransaction(1, 'SESSION-TAG');
      clock += MINUTE;
      await sim.stopTransaction(1, 'Remote');
    } finally {
      await sim.stop();
    }
    const sessions = (await api('GET', `/api/cp_sessions?cp_id=${cpId}&sort_by=session_id&order=asc`)).dataset.content;
    assert.equal(sessions.length, 2);
    [charged, empty] = sessions.map((s: { session_id: number }) => s.session_id);
    // Requests are written in batches: wait until the session's are all stored.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await api('GET', `/api/cp_requests?session_id=${charged}&type=MeterValues&size=50000&order=asc&sort_by=req_id`);
      meterValues = res.dataset.content;
      if (meterValues.length >= 12) break;
      if (Date.now() > deadline) throw new Error(`meter values not stored: ${meterValues.length} of 12`);
      await new Promise((r) => setTimeout(r, 250));
    }

    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => browser?.close());

  it('shows a session\'s summary, chart and meter table with kWh to 3 decimals, in English and Traditional Chinese', async () => {
    await page.goto(`${portal}/cp_sessions`);
    await useLanguage(page, 'en');
    const res = await openPopView(page, 'cp_sessions', charged, 'Details');
    const url = new URL(res.url());
    assert.equal(url.searchParams.get('size'), '50000');
    assert.equal(url.searchParams.get('order'), 'asc');
    assert.equal(url.searchParams.get('sort_by'), 'req_id');
    const rows = (await res.json()).dataset.content;
    assert.equal(rows.length, 14, 'start, 12 meter values, stop');

    const pop = page.getByTestId('session-popview');
    const summary = page.getByTestId('session-summary');
    for (const text of ['E2E-SESSION', 'SESSION-TAG', 'Total Energy Consumed', 'Stop Reason', '02:01:00']) await summary.getByText(text).first().waitFor();
    await pop.getByText('Energy (kWh)').first().waitFor();
    assert.ok((await drawnPixels(page, 'session-chart')) > 1000, 'the canvas is drawn');

    // The meter table: energy in kWh with 3 decimals, voltage and current.
    const table = page.getByTestId('session-meter-table');
    const firstKwh = (meterValues[0].energy / 1000).toFixed(3);
    await table.getByRole('cell', { name: firstKwh, exact: true }).waitFor();
    const energyCells = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    assert.ok(energyCells.length >= 10, `${energyCells.length} rows on the first page`);
    for (const cell of energyCells) assert.match(cell, /^\d+\.\d{3}$/);
    await table.getByRole('cell', { name: 'Meter value' }).first().waitFor();
    await screenshot(page, 'session-1-popview-en');
    await page.keyboard.press('Escape');

    // A session without meter values: its start and stop readings, said so.
    await openPopView(page, 'cp_sessions', empty, 'Details');
    await pop.getByText('The charger sent no meter values during this session', { exact: false }).waitFor();
    assert.equal(await page.getByTestId('session-meter-table').locator('tbody tr').count(), 2);
    await screenshot(page, 'session-2-no-meter-values-en');

    // The full list shares the pop-view; Traditional Chinese.
    await useLanguage(page, 'zh-TW');
    await openPopView(page, 'cp_sessions_all', charged, '詳情');
    for (const text of ['電錶讀數', '總用電量', '停止原因']) await pop.getByText(text).first().waitFor();
    await pop.getByText('電量 (kWh)').first().waitFor();
    assert.ok((await drawnPixels(page, 'session-chart')) > 1000, 'the canvas is drawn');
    await page.getByTestId('session-meter-table').getByRole('cell', { name: firstKwh, exact: true }).waitFor();
    await screenshot(page, 'session-3-popview-zh-TW');
  });
});
