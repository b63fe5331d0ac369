import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, baseUrl, buttonName, connectorsReported, launch, ocppUrl, pickOption, portal, screenshot, signIn, useLanguage } from '../support.ts';

/** The parking system's car-in event, as it calls the external API with its app id and key. */
async function parkingEvent(appId: string, apiKey: string, body: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${baseUrl}/api/external/v1/parking/events`, {
    method: 'POST',
    headers: { 'x-app-id': appId, 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

const row = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });

/** Closes the start form's popup with its Cancel button. */
async function closeStartForm(page: Page, form: Locator, cancel: string): Promise<void> {
  await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: buttonName(cancel) }).click();
  await form.waitFor({ state: 'hidden' });
}

/** The start form of a connector, once its popup has settled (antd zooms it in for about 0.3 s). */
async function openStartForm(page: Page, connector: string, start: string): Promise<Locator> {
  await page.getByRole('row', { name: new RegExp(connector) }).getByRole('button', { name: new RegExp(`^${[...start].join('\\s*')}$`) }).click();
  const form = page.getByTestId('start-form');
  await form.waitFor();
  await page.waitForTimeout(400);
  return form;
}

/** Parking bays (spec part 2 §4, §7, §8): Tesla bays locked; a car-in event, then Get LP in the charger's start form. */
describe('parking bays and licence plates in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;
  let apiKey: string;
  let teslaId: number;
  const cspRefusals: string[] = [];

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Parking E2E Mall', address_chi: '停車測試商場' });
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-PARK', name: 'parking charger', loc_id: site.data.loc_id, ocpp_password: 'parking-pass-1' });
    cpId = cp.data.cp_id;
    sim = new SimulatedCharger({ url: ocppUrl, cpNo: 'E2E-PARK', password: 'parking-pass-1', connectors: 2, maxCurrentA: 16 });
    await sim.start();
    await connectorsReported(cpId, 2);
    apiKey = (await api('POST', '/api/third_party_conf', { key_name: 'LPRS', app_id: 'e2e-lprs', privilege_key: 'EXT_LICENCE_PLATE' })).data.api_key;
    await api('POST', '/api/bay', { bayId: 'E2E-P1', bayName: 'Bay P1', cpId, connectorId: 1 });
    teslaId = (await api('POST', '/api/bay', { bayId: 'E2E-T1', bayName: 'Tesla T1', type: 'Tesla', locId: site.data.loc_id })).data.id;
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) cspRefusals.push(m.text());
    });
    await signIn(page);
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('shows a Tesla bay locked and the form\'s Tesla rules, then fills the plate of a car in with Get LP, in English', async () => {
    await page.goto(`${portal}/bay`);
    await useLanguage(page, 'en');
    const tesla = row(page, 'Tesla T1');
    await tesla.getByTestId('tesla-locked').waitFor();
    assert.equal(await tesla.getByRole('button', { name: 'Edit' }).count(), 0);
    assert.equal(await row(page, 'Bay P1').getByRole('button', { name: 'Edit' }).count(), 1);
    await screenshot(page, 'parking-1-bays-en');
    await page.goto(`${portal}/bay/${teslaId}`);
    await page.getByText('Tesla T1').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Edit' }).count(), 0);
    // Nor by its URL: the edit page says it cannot be edited (the server refuses the PUT too: parking/bays.test.ts).
    await page.goto(`${portal}/bay/${teslaId}/edit`);
    await page.getByText('This record cannot be edited.').waitFor();
    assert.equal(await page.locator('form').count(), 0);
    await screenshot(page, 'parking-1b-tesla-edit-url-en', { fullPage: false });

    // The form: the charger and connector for a Normal bay, the site only for a Tesla bay.
    await page.goto(`${portal}/bay/create`);
    const form = page.locator('form');
    await form.getByLabel('Bay Name', { exact: true }).waitFor();
    const charger = form.locator('.ant-form-item').filter({ hasText: /^Charger/ }).locator('.ant-select');
    const site = form.locator('.ant-form-item').filter({ hasText: /^Site/ }).locator('.ant-select');
    assert.equal(await charger.evaluate((el) => el.classList.contains('ant-select-disabled')), false);
    assert.equal(await site.evaluate((el) => el.classList.contains('ant-select-disabled')), true);
    await pickOption(page, /^Type$/, 'Tesla');
    await page.waitForTimeout(200);
    assert.equal(await charger.evaluate((el) => el.classList.contains('ant-select-disabled')), true);
    assert.equal(await form.getByLabel('Connector ID', { exact: true }).isDisabled(), true);
    assert.equal(await site.evaluate((el) => el.classList.contains('ant-select-disabled')), false);
    await screenshot(page, 'parking-2-tesla-form-en');

    // The parking system reports a car in at bay P1 (connector 1).
    const sent = await parkingEvent('e2e-lprs', apiKey, { event: 'in', bayId: 'E2E-P1', sessionId: 'E2E-S1', licensePlate: 'PK2024', brand: 'Tesla', image: 'https://lprs.example/e2e.jpg', time: new Date().toISOString() });
    assert.equal(sent.status, 'success');
    const expected = JSON.parse((await api('GET', `/api/cps/getLp/${cpId}?connectorId=1`)).data);
    assert.equal(expected.ResCode, 0);

    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    let start = await openStartForm(page, 'Connector 1', 'Start');
    await start.getByRole('button', { name: 'Get LP' }).click();
    await page.locator('.ant-message').getByText(`Licence plate PK2024, in since ${expected.EntryTime}`).waitFor();
    assert.equal(await start.getByLabel('Licence plate').inputValue(), 'PK2024');
    assert.equal(await start.getByLabel('Entry time').inputValue(), expected.EntryTime);
    await page.mouse.move(0, 0);
    await screenshot(page, 'parking-3-get-lp-en');
    await closeStartForm(page, start, 'Cancel');

    // Connector 2 has no bay: the answer's message, and nothing filled.
    start = await openStartForm(page, 'Connector 2', 'Start');
    await start.getByRole('button', { name: 'Get LP' }).click();
    await page.locator('.ant-message').getByText('No parking bay at this connector').waitFor();
    assert.equal(await start.getByLabel('Licence plate').inputValue(), '');
    await page.mouse.move(0, 0);
    await screenshot(page, 'parking-4-no-bay-en');
    await closeStartForm(page, start, 'Cancel');

    // The bay's view lists the event.
    const bay = (await api('GET', '/api/bay?bayId=E2E-P1')).dataset.content[0];
    await page.goto(`${portal}/bay/${bay.id}`);
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('row').filter({ hasText: 'E2E-S1' }).filter({ hasText: 'Accepted' }).waitFor();
    await screenshot(page, 'parking-5-bay-events-en');
    // The car's picture shows as a picture, not as its address, and the policy lets an HTTPS one load.
    await page.getByRole('tab', { name: 'Details', exact: true }).click();
    await page.locator('img[src="https://lprs.example/e2e.jpg"]').first().waitFor({ state: 'attached' });
    assert.equal(await page.getByText('https://lprs.example/e2e.jpg').count(), 0);
    assert.deepEqual(cspRefusals, []);
  });

  it('in Traditional Chinese: the bay list, the lock, and Get LP', async () => {
    await page.goto(`${portal}/bay`);
    await useLanguage(page, 'zh-TW');
    await row(page, 'Tesla T1').getByTestId('tesla-locked').waitFor();
    await page.getByText('已佔用').first().waitFor();
    await screenshot(page, 'parking-6-bays-zh');
    await page.goto(`${portal}/bay/${teslaId}/edit`);
    await page.getByText('此記錄不可編輯。').waitFor();
    await screenshot(page, 'parking-6b-tesla-edit-url-zh', { fullPage: false });

    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByRole('tab', { name: '遠端操作' }).click();
    let start = await openStartForm(page, '充電槍 1', '啟動');
    await start.getByRole('button', { name: /取\s*得\s*車\s*牌/ }).click();
    await page.locator('.ant-message').getByText('車牌 PK2024', { exact: false }).waitFor();
    assert.equal(await start.getByLabel('車牌').inputValue(), 'PK2024');
    await page.mouse.move(0, 0);
    await screenshot(page, 'parking-7-get-lp-zh');
    await closeStartForm(page, start, '取消');
    start = await openStartForm(page, '充電槍 2', '啟動');
    await start.getByRole('button', { name: /取\s*得\s*車\s*牌/ }).click();
    await page.locator('.ant-message').getByText('此充電槍沒有停車位').waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'parking-8-no-bay-zh');
    await closeStartForm(page, start, '取消');

    // A refused event (no such bay) in the bay log, beside the accepted one.
    const refused = await parkingEvent('e2e-lprs', apiKey, { event: 'out', bayId: 'E2E-NONE', sessionId: 'E2E-S9', time: new Date().toISOString() });
    assert.equal(refused.errorCode, 'unknown_bay');
    await page.goto(`${portal}/bay_log`);
    await row(page, 'E2E-S9').filter({ hasText: '已拒絕' }).filter({ hasText: 'unknown_bay' }).waitFor();
    await row(page, 'E2E-S1').filter({ hasText: '已接受' }).filter({ hasText: '改為已佔用' }).waitFor();
    await screenshot(page, 'parking-9-bay-log-zh');

    // A bay's picture in its view, in Traditional Chinese (a picture inline, so that it loads without a network).
    const p2 = (await api('POST', '/api/bay', { bayId: 'E2E-P2', bayName: 'Bay P2', cpId, connectorId: 2 })).data.id;
    const picture = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAU0lEQVR42u3XsQ0AIAgEQMZxREdkEudwAaloNB6hpOCqz8cqZsw87m33AQAAAADQArzyaHUPAAAAANADSGIAAAAAfUASAwAAAOgDkhgAAADgS8AGvjKDLd+XPCsAAAAASUVORK5CYII=';
    assert.equal((await parkingEvent('e2e-lprs', apiKey, { event: 'in', bayId: 'E2E-P2', sessionId: 'E2E-S2', licensePlate: 'PK2025', image: picture, time: new Date().toISOString() })).status, 'success');
    await page.goto(`${portal}/bay/${p2}`);
    const shown = page.locator(`img[src="${picture}"]`).first();
    await shown.waitFor();
    assert.ok(await shown.evaluate((el) => (el as HTMLImageElement).naturalWidth > 0));
    await screenshot(page, 'parking-10-bay-image-zh', { fullPage: false });
  });
});
