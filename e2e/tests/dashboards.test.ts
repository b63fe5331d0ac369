import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, baseUrl, connectorsReported, eventually, launch, portal, screenshot, signIn, useLanguage, ocppUrl } from '../support.ts';

const SITE = 'Dashboard Site E2E';
const V1_USER = { username: 'dash-v1', password: 'dash-v1-pass-1' };

/** Picks a site in the dashboard's selector by its shown address. */
async function pickSite(page: Page, address: string): Promise<void> {
  await page.getByTestId('site-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: address }).first().click();
}

/**
 * Opens home in a language. Home is /portal/ with its slash: after sign-in the address reads /portal, which
 * the server does not serve on a reload (a 404 outside this test's scope), so never reload it.
 */
async function homeIn(page: Page, lang: 'en' | 'zh-TW'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('lang', l), lang);
  await page.goto(`${portal}/`);
}

const countOf = async (page: Page, group: string) => Number((await page.getByTestId(`count-${group}`).locator('.ant-statistic-content-value').innerText()).trim());
const statusOf = (card: Locator) => card.getByTestId('connector-status').getAttribute('data-status');

/**
 * A load-managed site (QUEUEING, one 16 A place) with two chargers, the second with a bay whose camera read a
 * car in; both cars start, so load management holds the second at 0 A in its queue.
 */
async function queueSite(): Promise<SimulatedCharger[]> {
  const site = await api('POST', '/api/cp_locs', { address: 'Queue Site E2E', address_chi: '排隊測試站' });
  const locId = site.data.loc_id;
  const zone = await api('POST', '/api/cp_zones', { loc_id: locId, name_chi: 'Q zone', max_physical_current_limit: 16 });
  const profile = await api('POST', '/api/lms_profiles', { name: 'E2E dashboard queue', cp_loc: locId, mode: 'QUEUEING' });
  await api('PUT', '/api/zone_lms_profiles', {
    lms_profile_id: profile.data.lms_profile_id,
    zones: [{ zone_id: zone.data.zone_id, zone_max_available_current: 16, max_charging_current: 16, min_charging_current: 16 }],
  });
  await api('PUT', `/api/cp_locs/${locId}`, { address: 'Queue Site E2E', enable_lms: 1, lms_profile_id: profile.data.lms_profile_id });
  const cpIds: number[] = [];
  for (const cpNo of ['E2E-Q1', 'E2E-Q2']) cpIds.push((await api('POST', '/api/cps', { cp_no: cpNo, name: cpNo, loc_id: locId, ocpp_password: 'queue-pass-1' })).data.cp_id);
  await api('PUT', `/api/cps/assign_zone/${zone.data.zone_id}`, cpIds.map((cp_id) => ({ cp_id, action: 'add' })));
  await api('POST', '/api/bay', { bayId: 'E2E-BAY-Q2', bayName: 'P2-07', cpId: cpIds[1], connectorId: 1 });
  const key = (await api('POST', '/api/third_party_conf', { key_name: 'e2e-lprs', app_id: 'e2e-lprs', privilege_key: 'EXT_LICENCE_PLATE' })).data.api_key;
  const carIn = await fetch(`${baseUrl}/api/external/v1/parking/events`, {
    method: 'POST',
    headers: { 'x-app-id': 'e2e-lprs', 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'in', bayId: 'E2E-BAY-Q2', sessionId: 'E2E-PARK-1', licensePlate: 'QU8888', time: new Date().toISOString() }),
  });
  assert.equal((await carIn.json()).status, 'success');

  const sims = ['E2E-Q1', 'E2E-Q2'].map((cpNo) => new SimulatedCharger({ url: ocppUrl, cpNo, password: 'queue-pass-1', connectors: 1, reconnect: false }));
  for (const sim of sims) await sim.start();
  await eventually(async () => sims.every((s) => s.allowedCurrent(1) === 0), 'idle chargers held at 0 A', 20_000);
  for (const sim of sims) {
    await sim.plugIn(1);
    await sim.startTransaction(1, 'DASH-TAG');
  }
  // The simulator reports a car held at 0 A as a real charger does.
  await eventually(async () => sims[0].allowedCurrent(1) === 16 && sims[1].connectorStatus(1) === 'SuspendedEVSE', 'the second car queued', 20_000);
  return sims;
}

/**
 * The live dashboards (spec part 1 §2): Quick info (/v2/quickinfo, and home with the 'Dashboard' setting) and the
 * V1 dashboard (home of a user holding only READ_V1_DASHBOARD), with a simulated charger that starts charging;
 * the 60 s refresh is driven by Playwright's clock.
 */
describe('live dashboards in a real browser', () => {
  let browser: Browser;
  let sim: SimulatedCharger;
  let cpId: number;

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: SITE, address_chi: '儀表板測試站' });
    const cp = await api('POST', '/api/cps', {
      cp_no: 'E2E-DASH', name: 'Dashboard charger', name_chi: '儀表板充電樁', loc_id: site.data.loc_id, ocpp_password: 'dash-pass-1',
    });
    cpId = cp.data.cp_id;
    await api('POST', '/api/auth_card', { name: 'dash card', rfid_cards: 'DASH-TAG', active: 1 });
    const role = await api('POST', '/api/roles', { role: 'dash_v1', name_chi: '儀表板一', level: 10 });
    await api('PUT', `/api/rnp/${role.data.id}`, { privileges: ['READ_V1_DASHBOARD', 'READ_DASHBOARD_SUMMARY'] });
    await api('POST', '/api/users', {
      name: 'Dashboard Viewer', username: V1_USER.username, password: V1_USER.password, confirm_password: V1_USER.password,
      role_id: role.data.id, cp_loc_flag: 1,
    });
    await api('PUT', '/api/app/settings', { home_screen: 'Dashboard' });

    sim = new SimulatedCharger({ url: ocppUrl, cpNo: 'E2E-DASH', password: 'dash-pass-1', connectors: 2, reconnect: false });
    await sim.start();
    await connectorsReported(cpId, 2);
    browser = await launch();
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await api('PUT', '/api/app/settings', { home_screen: 'CpList' });
  });

  it('Quick info: home shows it, counts and cards of the chosen site update with the 60 s refresh, in both languages', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.clock.install();
    await signIn(page);
    // Home with the 'Dashboard' setting and READ_V2_DASHBOARD: the Quick info dashboard itself.
    await homeIn(page, 'en');
    await page.getByTestId('quick-info').waitFor();
    await page.goto(`${portal}/v2/quickinfo`);
    await page.getByRole('heading', { name: 'Quick info' }).waitFor();
    await pickSite(page, SITE);
    const cards = page.locator('[data-testid=connector-card][data-cp=E2E-DASH]');
    await eventually(async () => (await page.getByTestId('connector-card').count()) === 2, 'the two connectors of the site');
    assert.deepEqual([await statusOf(cards.nth(0)), await statusOf(cards.nth(1))], ['Available', 'Available']);
    assert.equal(await countOf(page, 'available'), 2);
    assert.equal(await countOf(page, 'charging'), 0);
    await page.getByTestId('usage-summary').waitFor();
    assert.equal(await page.getByTestId('connector-card').first().getAttribute('href'), `/portal/cps/${cpId}`);

    await sim.plugIn(1);
    await sim.startTransaction(1, 'DASH-TAG');
    await sim.sendMeterValues(1);
    await eventually(async () => {
      const info = await api('GET', '/api/v2/quickInfo');
      return info.cpQuickInfoDTOS.some((c: { cpNo: string; connectorStatus: string; kwh: number | null }) => c.cpNo === 'E2E-DASH' && c.connectorStatus === 'Charging' && c.kwh != null);
    }, 'the charger charging');
    // Nothing changes until the minute's refresh.
    assert.equal(await statusOf(cards.nth(0)), 'Available');
    await page.clock.fastForward('01:01');
    await eventually(async () => (await statusOf(cards.nth(0))) === 'Charging', 'the card to show Charging');
    assert.equal(await countOf(page, 'charging'), 1);
    assert.equal(await countOf(page, 'available'), 1);
    assert.equal(await cards.nth(0).getByTestId('card-id-tag').innerText(), 'DASH-TAG');
    assert.match(await cards.nth(0).getByTestId('card-kwh').innerText(), /kWh$/);
    await screenshot(page, 'dash-1-quickinfo-en');

    await useLanguage(page, 'zh-TW');
    await page.getByRole('heading', { name: '快速資訊' }).waitFor();
    await pickSite(page, '儀表板測試站');
    await eventually(async () => (await page.getByTestId('connector-card').count()) === 2, 'the site in Chinese');
    assert.equal(await cards.nth(0).getByTestId('connector-status').innerText(), '充電中');
    await page.getByText('使用摘要').waitFor();
    await screenshot(page, 'dash-2-quickinfo-zh-TW');

    // A card opens its charger.
    await cards.nth(0).click();
    await page.waitForURL(`${portal}/cps/${cpId}`);
    await page.close();
  });

  it('V1 dashboard: home of a user with READ_V1_DASHBOARD only, tiles flip to their usage, in both languages', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.clock.install();
    await signIn(page, V1_USER.username, V1_USER.password);
    await homeIn(page, 'en');
    await page.getByTestId('v1-dashboard').waitFor();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The selector offers All first.
    await page.getByTestId('site-select').click();
    assert.equal((await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().innerText()).trim(), 'All');
    await page.keyboard.press('Escape');
    await pickSite(page, SITE);
    const tiles = page.locator('[data-testid=connector-tile][data-cp=E2E-DASH]');
    await eventually(async () => (await tiles.count()) === 2, 'the two tiles of the site');
    assert.equal(await statusOf(tiles.nth(0)), 'Charging');
    assert.equal(await countOf(page, 'charging'), 1);
    assert.equal(await tiles.nth(0).getByTestId('tile-id-tag').innerText(), 'DASH-TAG');
    await page.getByTestId('usage-summary').waitFor();

    await tiles.nth(0).getByTestId('tile-flip').click();
    await tiles.nth(0).getByTestId('tile-usage-today').waitFor();
    await tiles.nth(0).getByTestId('tile-usage-weekly').waitFor();
    await screenshot(page, 'dash-3-v1-en');
    await tiles.nth(0).getByTestId('tile-flip').click();
    await tiles.nth(0).getByTestId('tile-id-tag').waitFor();

    // The charger stops: at the next refresh the connector no longer counts as charging.
    await sim.stopTransaction(1);
    await eventually(async () => {
      const info = await api('GET', '/api/quick_info');
      return !info.response.info.acc_charging_status.some((s: { cp_id: number }) => s.cp_id === cpId);
    }, 'the session closed');
    await page.clock.fastForward('01:01');
    await eventually(async () => (await countOf(page, 'charging')) === 0, 'the charging count to drop');
    assert.equal(await tiles.nth(0).getByTestId('tile-id-tag').innerText(), '–');

    await homeIn(page, 'zh-TW');
    await page.getByRole('heading', { name: '儀表板' }).waitFor();
    await pickSite(page, '儀表板測試站');
    await eventually(async () => (await tiles.count()) === 2, 'the tiles in Chinese');
    await page.getByText('使用摘要').waitFor();
    await tiles.nth(1).getByTestId('tile-flip').click();
    await tiles.nth(1).getByText('過去 7 天').waitFor();
    await screenshot(page, 'dash-4-v1-zh-TW');
    await page.close();
  });

  it('a car held at 0 A by load management shows and counts as queueing, with its bay and plate, on both dashboards and languages', async () => {
    const sims = await queueSite();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await signIn(page);
      await page.goto(`${portal}/v2/quickinfo`);
      await pickSite(page, 'Queue Site E2E');
      const q2 = page.locator('[data-testid=connector-card][data-cp=E2E-Q2]');
      await eventually(async () => (await page.getByTestId('connector-card').count()) === 2, 'the two connectors of the queue site');
      assert.equal(await q2.getByTestId('queue-status').innerText(), 'Queueing #1');
      // The status the charger reports stays with the queue tag (its tooltip).
      assert.equal(await q2.getByTestId('queue-status').getAttribute('data-status'), 'SuspendedEVSE');
      assert.equal(await q2.getByTestId('connector-status').count(), 0);
      assert.equal(await page.locator('[data-testid=connector-card][data-cp=E2E-Q1]').getByTestId('queue-status').count(), 0);
      assert.deepEqual([await countOf(page, 'charging'), await countOf(page, 'queueing'), await countOf(page, 'available')], [1, 1, 0]);
      assert.equal(await q2.getByTestId('card-bay').innerText(), 'P2-07 · Occupied');
      assert.equal(await q2.getByTestId('card-car-reg-no').innerText(), 'QU8888');
      await screenshot(page, 'dash-5-queue-quickinfo-en');
      await useLanguage(page, 'zh-TW');
      await pickSite(page, '排隊測試站');
      await eventually(async () => (await page.getByTestId('connector-card').count()) === 2, 'the queue site in Chinese');
      assert.equal(await q2.getByTestId('queue-status').innerText(), '排隊中 第 1 位');
      assert.equal(await q2.getByTestId('card-bay').innerText(), 'P2-07 · 已佔用');
      await page.getByTestId('count-queueing').getByText('排隊中').waitFor();
      await q2.getByTestId('queue-status').hover();
      await page.locator('.ant-tooltip').getByText('充電樁狀態：暫停（充電樁）').waitFor();
      await screenshot(page, 'dash-6-queue-quickinfo-zh-TW');
      await page.close();

      const v1 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await signIn(v1, V1_USER.username, V1_USER.password);
      await homeIn(v1, 'en');
      await v1.getByTestId('v1-dashboard').waitFor();
      await pickSite(v1, 'Queue Site E2E');
      const tile = v1.locator('[data-testid=connector-tile][data-cp=E2E-Q2]');
      await eventually(async () => (await v1.getByTestId('connector-tile').count()) === 2, 'the two tiles of the queue site');
      assert.equal(await tile.getByTestId('queue-status').innerText(), 'Queueing #1');
      assert.deepEqual([await countOf(v1, 'charging'), await countOf(v1, 'queueing')], [1, 1]);
      assert.equal(await tile.getByTestId('tile-bay').innerText(), 'P2-07 · Occupied');
      assert.equal(await tile.getByTestId('tile-car-reg-no').innerText(), 'QU8888');
      await screenshot(v1, 'dash-7-queue-v1-en');
      await homeIn(v1, 'zh-TW');
      await pickSite(v1, '排隊測試站');
      await eventually(async () => (await v1.getByTestId('connector-tile').count()) === 2, 'the queue tiles in Chinese');
      assert.equal(await tile.getByTestId('queue-status').innerText(), '排隊中 第 1 位');
      await screenshot(v1, 'dash-8-queue-v1-zh-TW');
      await v1.close();
    } finally {
      await Promise.all(sims.map((s) => s.stop()));
    }
  });
});
