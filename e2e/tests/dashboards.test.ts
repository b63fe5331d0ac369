import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, connectorsReported, eventually, launch, portal, screenshot, signIn, useLanguage, ocppUrl } from '../support.ts';

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
});
