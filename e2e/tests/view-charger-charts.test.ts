import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page, Response } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, drawnPixels, ocppUrl, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const HOUR = 3_600_000;

const isChart = (cpId: number) => (r: Response) => r.url().includes(`/api/cps/${cpId}/meter_chart`) && r.request().method() === 'GET';

/** Charger view, Charts tab (spec part 1 §2): a connector's meter values over today, 7 days or a month. */
describe('charger meter charts in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Chart Site' });
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-CHART', name: 'chart charger', loc_id: site.data.loc_id, ocpp_password: 'chart-pass-1' });
    cpId = cp.data.cp_id;
    await api('POST', '/api/auth_card', { name: 'chart card', rfid_cards: 'CHART-TAG', active: 1 });

    // A charger whose clock we move: it charges on connector 1 from two days ago until now, sending a
    // reading every 30 minutes, then every 2 minutes over the last six hours.
    const now = Date.now();
    let clock = now - 48 * HOUR;
    const sim = new SimulatedCharger({
      url: ocppUrl, cpNo: 'E2E-CHART', password: 'chart-pass-1', connectors: 2, reconnect: false,
      maxCurrentA: 16, clock: () => clock,
    });
    let sent = 0;
    try {
      await sim.start();
      await sim.plugIn(1);
      await sim.startTransaction(1, 'CHART-TAG');
      while (clock < now - 60_000) {
        clock += clock < now - 6 * HOUR ? 30 * 60_000 : 2 * 60_000;
        await sim.sendMeterValues(1);
        sent++;
      }
    } finally {
      await sim.stop();
    }
    // Meter values are written in batches: wait until they are all stored.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await api('GET', `/api/cps/${cpId}/meter_chart?connector_id=1&from=${Math.floor((now - 49 * HOUR) / 1000)}&to=${Math.ceil(Date.now() / 1000)}`);
      if (res.data.points.length >= 90) break;
      if (Date.now() > deadline) throw new Error(`meter values not stored: ${res.data.points.length} buckets of ${sent} readings`);
      await new Promise((r) => setTimeout(r, 250));
    }

    ({ browser, page } = await signedInPage());
  });
  after(async () => browser?.close());

  it('draws the chart of a connector, switches range with a new request, in English and Traditional Chinese', async () => {
    await page.goto(`${portal}/cps/${cpId}`);
    await useLanguage(page, 'en');
    const today = page.waitForResponse(isChart(cpId));
    await page.getByRole('tab', { name: 'Charts' }).click();
    // The physical connectors only: 1 and 2, not the charger itself (0).
    await page.getByRole('tab', { name: 'Connector 2' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: /^Connector 0/ }).count(), 0);
    const first = await (await today).json();
    assert.equal(first.status, 'success');
    assert.ok(first.data.points.length > 0, 'readings today');
    assert.ok((await drawnPixels(page, 'meter-chart')) > 1000, 'the canvas is drawn');
    for (const text of ['Energy (kWh)', 'Current (A)', 'Voltage (V)']) await page.getByText(text).count();
    await screenshot(page, 'charts-1-today-en');

    // 7 days: a new request from a week ago, holding the readings of two days ago too.
    const week = page.waitForResponse(isChart(cpId));
    await page.getByTestId('meter-chart-range').getByText('7 days').click();
    const res = await week;
    const from = Number(new URL(res.url()).searchParams.get('from'));
    assert.ok(Math.abs(from - (Date.now() / 1000 - 7 * 86_400)) < 120, `7 days from ${from}`);
    const body = await res.json();
    assert.ok(body.data.points[0].t < Date.now() / 1000 - 40 * 3600, 'readings of two days ago');
    assert.ok(body.data.points.length > first.data.points.length || first.data.points.length >= 90);
    await page.waitForTimeout(300);
    assert.ok((await drawnPixels(page, 'meter-chart')) > 1000);
    await screenshot(page, 'charts-2-7days-en');

    // Connector 2 has no readings.
    const second = page.waitForResponse((r) => isChart(cpId)(r) && r.url().includes('connector_id=2'));
    await page.getByRole('tab', { name: 'Connector 2' }).click();
    await second;
    await page.getByText('No meter values in this period.').waitFor();
    await page.getByRole('tab', { name: 'Connector 1' }).click();

    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '圖表' }).click();
    await page.getByRole('tab', { name: '充電槍 1' }).waitFor();
    const month = page.waitForResponse(isChart(cpId));
    await page.getByTestId('meter-chart-range').getByText('1 個月').click();
    assert.equal((await month).status(), 200);
    await page.waitForTimeout(300);
    assert.ok((await drawnPixels(page, 'meter-chart')) > 1000);
    await page.getByText('每分鐘自動更新', { exact: false }).waitFor();
    await screenshot(page, 'charts-3-month-zh-TW');
  });
});
