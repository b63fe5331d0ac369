import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, connectorsReported, ocppUrl, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** A current configuration wanting this sample interval (the simulator has 60 s). */
const settings = (interval: number) => ({
  'Meter Value Sample Interval (s)': { Type: 'Range', Authority: 'Everyone', Value: interval, Option: [5, 900, 5] },
  'End upon state A': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
});

async function makeCurrent(cpId: number, interval: number): Promise<void> {
  const created = await api('PUT', `/api/cps/${cpId}/cpConfig`, { description: 'site standard', config_json: JSON.stringify(settings(interval)) });
  assert.equal(created.status, 'success');
  assert.equal((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: created.data.cp_config_id, current: 1 })).status, 'success');
}

const row = (page: Page, cpNo: string) => page.getByTestId('config-fleet-table').locator('tr.ant-table-row').filter({ hasText: cpNo });

/**
 * Issue 29, the configuration fleet view: a site's chargers (two connected, one never connected) read all at
 * once from the site view, the progress to the end, the offline one reported, and the key that differs shown.
 */
describe('configuration fleet view of a site, in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let locId: number;
  const sims: SimulatedCharger[] = [];

  before(async () => {
    locId = (await api('POST', '/api/cp_locs', { address: 'Fleet Drift Site' })).data.loc_id;
    for (const [n, interval] of [[1, 30], [2, 60], [3, 30]] as const) {
      const cpNo = `E2E-FLEET-${n}`;
      const password = `${cpNo.toLowerCase()}-pass-1`;
      const cp = await api('POST', '/api/cps', { cp_no: cpNo, name: `Fleet charger ${n}`, loc_id: locId, ocpp_password: password });
      await makeCurrent(cp.data.cp_id, interval);
      // The third one never connects.
      if (n === 3) continue;
      const sim = new SimulatedCharger({ url: ocppUrl, cpNo, password, connectors: 1, reconnect: false, meterIntervalSec: 60 });
      await sim.start();
      sims.push(sim);
      await connectorsReported(cp.data.cp_id, 1);
    }
    ({ browser, page } = await signedInPage({ width: 1400, height: 1000 }));
  });
  after(async () => {
    for (const sim of sims) await sim.stop();
    await browser?.close();
  });

  it('reads all chargers from the site view and shows which key differs where, in English', async () => {
    await page.goto(`${portal}/cp_locs/${locId}`);
    await useLanguage(page, 'en');
    await page.getByRole('tab', { name: 'Configuration drift' }).click();
    const fleet = page.getByTestId('config-fleet');
    await row(page, 'E2E-FLEET-1').getByText('Never read').waitFor();
    assert.match(await row(page, 'E2E-FLEET-3').innerText(), /Offline/);
    assert.match(await page.getByTestId('config-fleet-summary').innerText(), /3 chargers\s+0 read\s+3 never read\s+0 with drift\s+1 offline/);

    await fleet.getByRole('button', { name: buttonName('Read all chargers') }).click();
    // The button's hint would cover the page in the picture.
    await page.mouse.move(0, 0);
    await page.getByTestId('config-fleet-progress-text').getByText('Read finished: 2 read, 0 failed, 1 offline').waitFor({ timeout: 30_000 });
    assert.match(await page.getByTestId('config-fleet-failures').innerText(), /E2E-FLEET-3: Offline: not read/);
    // The drift of the new reads: charger 1 has 60 where its configuration wants 30; charger 2 has what it wants.
    await page.getByTestId('config-fleet-drift-E2E-FLEET-1').waitFor();
    assert.match(await page.getByTestId('config-fleet-drift-E2E-FLEET-1').innerText(), /MeterValueSampleInterval\s*Meter Value Sample Interval \(s\):\s*30\s*→\s*60/);
    assert.match(await row(page, 'E2E-FLEET-2').innerText(), /No drift/);
    assert.match(await row(page, 'E2E-FLEET-3').innerText(), /Never read/);
    assert.match(await page.getByTestId('config-fleet-summary').innerText(), /2 read\s+1 never read\s+1 with drift\s+1 offline/);
    await screenshot(page, 'config-fleet-1-read-en');

    await page.getByTestId('config-fleet-only-drift').click();
    assert.equal(await page.getByTestId('config-fleet-table').locator('tr.ant-table-row').count(), 1);
  });

  it('opens the fleet page for the site and shows the drift in Traditional Chinese', async () => {
    await page.getByTestId('config-fleet-open').click();
    await page.waitForURL(/\/config\/fleet\?site=/);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('heading', { name: '各站設定差異' }).waitFor();
    await page.getByTestId('config-fleet-drift-E2E-FLEET-1').waitFor();
    assert.match(await row(page, 'E2E-FLEET-3').innerText(), /離線/);
    assert.match(await row(page, 'E2E-FLEET-2').innerText(), /沒有差異/);
    assert.match(await page.getByTestId('config-fleet-failures').innerText(), /E2E-FLEET-3:\s*離線：未讀取/);
    await page.getByRole('button', { name: buttonName('讀取所有充電樁') }).waitFor();
    await screenshot(page, 'config-fleet-2-page-zh-TW');
  });
});
