import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page, WebSocketRoute } from 'playwright-core';
import { SimulatedCharger } from '@ev/simulator';
import { api, eventually, launch, portal, screenshot, signIn, useLanguage, ocppUrl } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'); a button's icon adds its own name before. */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const iconLabel = (text: string) => new RegExp(`${[...text].join('\\s*')}$`);
const CP_NOS = ['E2E-LMS-1', 'E2E-LMS-2', 'E2E-LMS-3'];
const card = (page: Page, cpNo: string): Locator => page.getByTestId(`lms-cp-${cpNo}`);
const withStatus = (page: Page, cpNo: string, status: string) => page.locator(`[data-testid="lms-cp-${cpNo}"][data-status="${status}"]`);
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).last();

/**
 * LMS dashboard and realtime log (spec part 1 §2, §4, §7, §8, §9) against the real server: a site in
 * QUEUEING mode whose one zone holds two chargers at 16 A, three simulated chargers wanting current.
 * The page's socket goes through a Playwright route so the test can cut it like a server going away.
 */
describe('LMS dashboard in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let locId: number;
  const cpIds: number[] = [];
  const sims: SimulatedCharger[] = [];
  const sockets: WebSocketRoute[] = [];

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'LMS E2E Mall', address_chi: '負載管理測試商場' });
    locId = site.data.loc_id;
    const zone = await api('POST', '/api/cp_zones', { loc_id: locId, name: 'B1 East', name_chi: 'B1 東區', max_physical_current_limit: 40 });
    const zoneId = zone.data.zone_id;
    const profile = await api('POST', '/api/lms_profiles', { name: 'E2E queueing', cp_loc: locId, mode: 'QUEUEING' });
    const profileId = profile.data.lms_profile_id;
    await api('PUT', '/api/zone_lms_profiles', {
      lms_profile_id: profileId,
      zones: [{ zone_id: zoneId, zone_max_available_current: 32, max_charging_current: 16, min_charging_current: 16 }],
    });
    await api('PUT', `/api/cp_locs/${locId}`, { address: 'LMS E2E Mall', enable_lms: 1, lms_profile_id: profileId });
    for (const cpNo of CP_NOS) {
      const cp = await api('POST', '/api/cps', { cp_no: cpNo, name: cpNo, loc_id: locId, ocpp_password: 'lms-pass-1' });
      cpIds.push(cp.data.cp_id);
    }
    await api('PUT', `/api/cps/assign_zone/${zoneId}`, cpIds.map((cp_id) => ({ cp_id, action: 'add' })));
    await api('POST', '/api/auth_card', { name: 'lms card', rfid_cards: 'LMS-TAG', active: 1 });

    for (const cpNo of CP_NOS) {
      const sim = new SimulatedCharger({ url: ocppUrl, cpNo, password: 'lms-pass-1', connectors: 1, maxCurrentA: 32 });
      sims.push(sim);
      await sim.start();
    }
    // Load management holds idle chargers at 0 A: the site is managed once every charger got its limit.
    await eventually(async () => sims.every((s) => s.allowedCurrent(1) === 0), 'idle chargers held at 0 A', 20_000);
    // Arrivals in order: two fit in the zone at 16 A, the third waits in the queue.
    for (const sim of sims) {
      await sim.plugIn(1);
      await sim.startTransaction(1, 'LMS-TAG');
    }
    await eventually(async () => sims[0].allowedCurrent(1) === 16 && sims[1].allowedCurrent(1) === 16, 'two chargers at 16 A', 20_000);
    assert.equal(sims[2].allowedCurrent(1), 0);
    for (const sim of sims.slice(0, 2)) await sim.sendMeterValues(1);

    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Every socket of the page passes through here, so that the test can close it as a failing server would.
    await page.routeWebSocket(/\/api\/lms\/status/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await signIn(page);
  });
  after(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await browser?.close();
  });

  it('shows the site, its mode and zone, charging and queueing chargers, and stops one from the tool panel, in English', async () => {
    await page.goto(`${portal}/lms/dashboard`);
    await useLanguage(page, 'en');
    const loc = page.getByTestId(`lms-loc-${locId}`);
    await loc.getByText('LMS E2E Mall').waitFor();
    assert.equal(await loc.getByTestId('lms-mode').textContent(), 'Queueing');
    await loc.getByText('B1 East').waitFor();
    await withStatus(page, 'E2E-LMS-1', 'charging').waitFor({ timeout: 15_000 });
    await withStatus(page, 'E2E-LMS-2', 'charging').waitFor();
    await withStatus(page, 'E2E-LMS-3', 'queueing').waitFor();
    const opened = sockets.length;
    // The zone's figures: 2 × 16 A handed out of 32 A.
    assert.equal(await loc.getByTestId('lms-zone-distributing').textContent(), '32 A');
    assert.equal(await loc.getByTestId('lms-zone-max').textContent(), '32 A');
    const charging = card(page, 'E2E-LMS-1');
    await charging.getByTestId('lms-cp-distributed').getByText('16 A').waitFor();
    assert.match((await charging.getByTestId('lms-cp-energy').textContent()) ?? '', /Energy \(kWh\)\d+\.\d{3}$/);
    assert.match((await charging.textContent()) ?? '', /Start time\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    const queued = card(page, 'E2E-LMS-3');
    assert.equal(await queued.getByTestId('lms-cp-queue-pos').textContent(), 'Queue position1');
    assert.equal(await queued.getByTestId('lms-cp-distributed').count(), 0);
    await page.getByTestId('lms-updated').waitFor();
    await screenshot(page, 'lms-1-dashboard-en');

    // Tool panel of the first charger: stop after the confirmation; the queue's head takes its place.
    await charging.click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByText('Charging point E2E-LMS-1').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'lms-2-tools-en', { fullPage: false });
    await drawer.getByRole('button', { name: 'Stop charging' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText('Are you sure you want to terminate the charging for E2E-LMS-1?').waitFor();
    await page.waitForTimeout(400);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Charging of E2E-LMS-1 is terminated').waitFor({ timeout: 15_000 });
    await eventually(async () => !sims[0].hasTransaction(1), 'the transaction of E2E-LMS-1 stopped');
    await withStatus(page, 'E2E-LMS-3', 'charging').waitFor({ timeout: 20_000 });
    assert.notEqual(await card(page, 'E2E-LMS-1').getAttribute('data-status'), 'charging');

    // Restart only closes the panel.
    await drawer.getByRole('button', { name: 'Restart' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await card(page, 'E2E-LMS-2').click();
    await drawer.getByText('Charging point E2E-LMS-2').waitFor();
    await page.waitForTimeout(400);
    // Charging detail: the session pop-view of the running session.
    await drawer.getByRole('button', { name: 'Charging detail' }).click();
    await page.getByTestId('session-popview').waitFor();
    await page.getByTestId('session-summary').getByText('E2E-LMS-2').waitFor();
    await screenshot(page, 'lms-3-session-en', { fullPage: false });
    await page.locator('.ant-modal').getByRole('button', { name: 'Close' }).click();
    // Charging point detail opens the charger's page of the portal in a new window.
    const popup = page.waitForEvent('popup');
    await drawer.getByRole('button', { name: 'Charging point detail' }).click();
    const win = await popup;
    await win.waitForLoadState();
    assert.match(win.url(), new RegExp(`/portal/cps/${cpIds[1]}$`));
    await win.close();
    await page.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await screenshot(page, 'lms-4-after-stop-en');
    // Updates, the panel and the stop re-rendered the page many times: still the same socket.
    assert.equal(sockets.length, opened);
  });

  it('says when the socket is lost, clears the statuses, and reconnects by itself and with the button', async () => {
    await withStatus(page, 'E2E-LMS-2', 'charging').waitFor();
    assert.equal(await page.getByTestId('lms-socket-state').getAttribute('data-state'), 'connected');
    await sockets.at(-1)!.close({ code: 1001, reason: 'server going away' });
    await page.getByTestId('lms-disconnected').getByText(/^Trying again in [1-5] s\.$/).waitFor();
    await page.locator('.ant-notification').getByText(/^Websocket (Connection )?Error$/).waitFor();
    assert.equal(await page.getByTestId('lms-socket-state').getAttribute('data-state'), 'disconnected');
    // Statuses are cleared; the layout from lms_info stays.
    await withStatus(page, 'E2E-LMS-2', 'none').waitFor();
    await screenshot(page, 'lms-5-disconnected-en', { fullPage: false });
    // By itself, on its timer (5 s).
    await page.getByTestId('lms-disconnected').waitFor({ state: 'detached', timeout: 15_000 });
    await withStatus(page, 'E2E-LMS-2', 'charging').waitFor({ timeout: 10_000 });

    // Again, and the Reconnect button does not wait for the timer.
    await sockets.at(-1)!.close();
    await page.getByTestId('lms-reconnect').click();
    await page.getByTestId('lms-disconnected').waitFor({ state: 'detached', timeout: 3_000 });
    await withStatus(page, 'E2E-LMS-2', 'charging').waitFor({ timeout: 10_000 });
  });

  it('shows the same in Traditional Chinese', async () => {
    await useLanguage(page, 'zh-TW');
    const loc = page.getByTestId(`lms-loc-${locId}`);
    await loc.getByText('負載管理測試商場').waitFor();
    await loc.getByText('B1 東區').waitFor();
    assert.equal(await loc.getByTestId('lms-mode').textContent(), '排隊');
    await withStatus(page, 'E2E-LMS-2', 'charging').waitFor({ timeout: 15_000 });
    await card(page, 'E2E-LMS-2').locator('.ant-tag').getByText('充電中').waitFor();
    for (const text of ['量度電流', '分配中電流', '最大可用電流', '已分配電流', '即時電流']) await page.getByText(text).first().waitFor();
    await screenshot(page, 'lms-6-dashboard-zh');
    await card(page, 'E2E-LMS-2').click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByText('充電樁 E2E-LMS-2').waitFor();
    await drawer.getByRole('button', { name: iconLabel('停止充電') }).click();
    await page.locator('.ant-modal-confirm-title').getByText('確定要終止 E2E-LMS-2 的充電嗎？').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'lms-7-confirm-zh', { fullPage: false });
    await page.locator('.ant-modal-confirm').getByRole('button', { name: label('取消') }).click();
    await drawer.getByRole('button', { name: iconLabel('重新啟動') }).click();
    await sockets.at(-1)!.close();
    await page.getByTestId('lms-disconnected').getByText('即時連線已中斷：恢復連線前不會顯示充電樁狀態。').waitFor();
    await page.getByTestId('lms-reconnect').getByText(label('重新連線')).waitFor();
    await screenshot(page, 'lms-8-disconnected-zh', { fullPage: false });
    await page.getByTestId('lms-reconnect').click();
    await page.getByTestId('lms-disconnected').waitFor({ state: 'detached', timeout: 3_000 });
  });

  it('shows the realtime log newest first, filtered by charger, paused and cleared, in both languages', async () => {
    await page.goto(`${portal}/realtime/log`);
    await useLanguage(page, 'en');
    const table = page.getByTestId('lms-log-table');
    await table.getByText('Queued').first().waitFor();
    await table.getByText('E2E-LMS-3').first().waitFor();
    const times = await table.locator('tbody tr td:first-child').allTextContents();
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    await page.getByTestId('lms-log-charger').click();
    await page.locator('.ant-select-dropdown').getByTitle('E2E-LMS-3').click();
    const chargers = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    assert.ok(chargers.length > 0 && chargers.every((c) => c === 'E2E-LMS-3'), chargers.join());
    await screenshot(page, 'lms-9-log-en');

    // A new page has no filter; new lines wait while paused and come on resume.
    await page.reload();
    await table.getByText('Queued').first().waitFor();
    await page.getByTestId('lms-log-pause').click();
    await page.getByTestId('lms-log-pause').getByText('Resume').waitFor();
    await page.getByTestId('lms-log-clear').click();
    await table.getByText('No log lines yet.').waitFor();
    await sims[1].stop();
    await page.getByText(/new lines wait while paused/).waitFor({ timeout: 15_000 });
    assert.equal(await table.locator('tbody tr.ant-table-row').count(), 0);
    await page.getByTestId('lms-log-pause').click();
    await table.locator('tbody tr.ant-table-row').filter({ hasText: 'E2E-LMS-2' }).filter({ hasText: 'Disconnected' }).waitFor();

    await useLanguage(page, 'zh-TW');
    await page.getByTestId('lms-log-pause').getByText(label('暫停')).waitFor();
    await table.getByText('開始排隊').first().waitFor();
    await screenshot(page, 'lms-10-log-zh');
    // The socket lost: the same banner here.
    await sockets.at(-1)!.close();
    await page.getByTestId('lms-disconnected').waitFor();
    await page.getByTestId('lms-reconnect').click();
    await page.getByTestId('lms-disconnected').waitFor({ state: 'detached', timeout: 3_000 });
  });
});
