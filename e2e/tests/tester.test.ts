import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SimulatedCharger201 } from '@ev/simulator';
import { api, connectorsReported, launch, ocppUrl, portal, screenshot, signIn, useLanguage } from '../support.ts';

const CP_NO = 'E2E-TESTER';

/** Opens an antd Select by its test id, types to narrow it and picks the option whose text starts so. */
async function choose(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

/** What the charger reported for the connector: not connected, it is shown Offline with that as its last known status. */
async function connectorStatus(cpId: number, connectorId: number): Promise<string | null> {
  const res = await api('GET', `/api/cp_connectors?cp_id=${cpId}&size=100&page=0`);
  const connector = (res.dataset.content as { connector_id: number; last_known_status: string | null }[]).find((c) => c.connector_id === connectorId);
  return connector?.last_known_status ?? null;
}

describe('OCPP message tester /test/cp_request', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Tester Site' });
    const cp = await api('POST', '/api/cps', { cp_no: CP_NO, name: 'tester charger', loc_id: site.data.loc_id });
    cpId = cp.data.cp_id;
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  });
  after(async () => browser?.close());

  for (const [lang, status, shot] of [['en', 'Preparing', 'tester-en'], ['zh-TW', 'SuspendedEV', 'tester-zh-TW']] as const) {
    it(`sends a StatusNotification as the charger and shows the answer and the stored request (${lang})`, async () => {
      if (lang === 'en') await signIn(page);
      await page.goto(`${portal}/test/cp_request`);
      await useLanguage(page, lang);
      // The sidebar offers the screen (admin holds READ_TEST_CP_REQUEST).
      await page.locator(`a[href$="/test/cp_request"]`).first().waitFor();
      assert.notEqual(await connectorStatus(cpId, 1), status);

      await choose(page, 'tester-charger', CP_NO);
      await choose(page, 'tester-message', 'StatusNotification');
      const payload = page.getByTestId('tester-payload');
      assert.deepEqual(JSON.parse(await payload.inputValue()), { connectorId: 1, errorCode: 'NoError', status: 'Available' });
      await payload.fill(JSON.stringify({ connectorId: 1, errorCode: 'NoError', status }, null, 2));
      await page.locator('form button[type=submit]').click();

      const answer = page.getByTestId('tester-answer');
      await answer.waitFor();
      assert.equal((await page.getByTestId('tester-response').textContent())?.trim(), '{}');
      await page.getByTestId('tester-stored').getByText(status, { exact: true }).waitFor();
      await answer.getByText(lang === 'en' ? 'Success' : '成功', { exact: true }).waitFor();
      // Handled as the charger's own message: the connector's status changed.
      assert.equal(await connectorStatus(cpId, 1), status);
      await screenshot(page, shot);
    });
  }

  it('shows the schema problem of an invalid payload and links the stored request', async () => {
    const payload = page.getByTestId('tester-payload');
    await payload.fill(JSON.stringify({ connectorId: 1, errorCode: 'NoError', status: 'Asleep' }));
    await page.locator('form button[type=submit]').click();
    await page.locator('.ant-alert-error').waitFor();
    assert.match((await page.locator('.ant-alert-error').textContent()) ?? '', /status/);
    assert.equal(await connectorStatus(cpId, 1), 'SuspendedEV');
    await screenshot(page, 'tester-invalid');

    await payload.fill(JSON.stringify({ connectorId: 1, errorCode: 'NoError', status: 'Available' }));
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('tester-stored').getByText('Available', { exact: true }).waitFor();
    await page.getByTestId('tester-stored').locator('a').click();
    await page.waitForURL(/\/cp_requests\/\d+$/);
    await page.getByText(CP_NO).first().waitFor();
  });
});

/** A 2.0.1 station (issue 31): the tester offers and injects its own messages, a transaction as TransactionEvents. */
describe('message tester with an OCPP 2.0.1 station', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let station: SimulatedCharger201;
  const CS_NO = 'E2E-TESTER-201';

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Tester 2.0.1 Site' });
    cpId = (await api('POST', '/api/cps', { cp_no: CS_NO, name: 'tester station', loc_id: site.data.loc_id, ocpp_password: 'tester-201-pass' })).data.cp_id;
    await api('POST', '/api/auth_card', { name: 'tester card', rfid_cards: 'TESTTAG', active: 1 });
    station = new SimulatedCharger201({ url: ocppUrl, cpNo: CS_NO, password: 'tester-201-pass', connectors: 1 });
    await station.start();
    await connectorsReported(cpId, 1);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  });
  after(async () => {
    await station?.stop();
    await browser?.close();
  });

  it('offers the 2.0.1 messages once the station is chosen; TransactionEvent Started then Ended make a session (en)', async () => {
    await signIn(page);
    await page.goto(`${portal}/test/cp_request`);
    await useLanguage(page, 'en');
    await choose(page, 'tester-message', 'StatusNotification');
    assert.ok('errorCode' in JSON.parse(await page.getByTestId('tester-payload').inputValue()), '1.6 template before a charger is chosen');
    await choose(page, 'tester-charger', CS_NO);
    await page.getByTestId('tester-version').getByText(/OCPP 2\.0\.1/).waitFor();
    // The message picked stays, in its 2.0.1 form.
    await page.waitForFunction(() => (document.querySelector('[data-testid="tester-payload"]') as HTMLTextAreaElement)?.value.includes('connectorStatus'));

    for (const [name, sessionEnded] of [['TransactionEvent: Started', false], ['TransactionEvent: Ended', true]] as const) {
      await choose(page, 'tester-message', name);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('tester-stored').getByText('TransactionEvent (2.0.1)').waitFor();
      await page.getByTestId('tester-answer').getByText('Success', { exact: true }).waitFor();
      const sessions = (await api('GET', `/api/cp_sessions?cp_id=${cpId}`)).dataset.content as Record<string, unknown>[];
      assert.equal(sessions.length, 1);
      assert.equal(Boolean(sessions[0].session_end_time), sessionEnded, name);
      if (!sessionEnded) await screenshot(page, 'tester-201-en');
    }
    // The 1.6 messages are not offered for it.
    await page.getByTestId('tester-message').click();
    await page.keyboard.type('StartTransaction');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-empty').waitFor();
    await page.keyboard.press('Escape');
  });
});

/** The charger simulator for load management: the same screen with the LMS set (spec part 1 §2). */
describe('charger simulator /lms/cp_simulator', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  const SIM_NO = 'E2E-SIMULATOR';

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Simulator Site' });
    const cp = await api('POST', '/api/cps', { cp_no: SIM_NO, name: 'simulated charger', loc_id: site.data.loc_id });
    cpId = cp.data.cp_id;
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  });
  after(async () => browser?.close());

  it('sends a per-phase MeterValues as the charger (en)', async () => {
    await signIn(page);
    await page.goto(`${portal}/lms/cp_simulator`);
    await useLanguage(page, 'en');
    // The sidebar offers the screen (admin holds READ_LMS_CP_SIMULATOR).
    await page.locator(`a[href$="/lms/cp_simulator"]`).first().waitFor();
    await page.getByText('Charger Simulator').first().waitFor();

    await choose(page, 'tester-charger', SIM_NO);
    await choose(page, 'tester-message', 'MeterValues');
    const template = JSON.parse(await page.getByTestId('tester-payload').inputValue());
    const sampled = template.meterValue[0].sampledValue as { measurand: string; phase?: string }[];
    assert.deepEqual(sampled.filter((v) => v.measurand === 'Current.Import').map((v) => v.phase), ['L1', 'L2', 'L3']);
    assert.deepEqual(sampled.filter((v) => v.measurand === 'Power.Active.Import').map((v) => v.phase), ['L1', 'L2', 'L3']);
    await page.locator('form button[type=submit]').click();

    const answer = page.getByTestId('tester-answer');
    await answer.waitFor();
    await answer.getByText('Success', { exact: true }).waitFor();
    await page.getByTestId('tester-stored').getByText(SIM_NO, { exact: true }).waitFor();
    await screenshot(page, 'simulator-en');
  });

  it('sends StatusNotification SuspendedEVSE as the charger (zh-TW)', async () => {
    await useLanguage(page, 'zh-TW');
    await page.getByText('充電樁模擬器').first().waitFor();
    assert.notEqual(await connectorStatus(cpId, 1), 'SuspendedEVSE');
    // The reload in the other language starts the screen afresh.
    await choose(page, 'tester-charger', SIM_NO);
    await choose(page, 'tester-message', 'StatusNotification: SuspendedEVSE');
    assert.deepEqual(JSON.parse(await page.getByTestId('tester-payload').inputValue()), { connectorId: 1, errorCode: 'NoError', status: 'SuspendedEVSE' });
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('tester-stored').getByText('SuspendedEVSE', { exact: true }).waitFor();
    await page.getByTestId('tester-answer').getByText('成功', { exact: true }).waitFor();
    assert.equal(await connectorStatus(cpId, 1), 'SuspendedEVSE');
    await screenshot(page, 'simulator-zh-TW');
  });
});
