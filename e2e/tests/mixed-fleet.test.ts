import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedCharger, SimulatedCharger201 } from '@ev/simulator';
import { api, buttonName, connectorsReported, eventually, ocppUrl, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

const OLD = 'E2E-MIX-16';
const NEW = 'E2E-MIX-201';
const withStatus = (page: Page, cpNo: string, status: string) => page.locator(`[data-testid="lms-cp-${cpNo}"][data-status="${status}"]`);
const statusOf = (page: Page, n: number) => page.getByTestId(`connector-status-${n}`);
const row = (page: Page, name: string): Locator => page.getByRole('row', { name: new RegExp(name) });
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).last();

/** Clicks the OK button of the confirmation that opened, once antd's zoom-in (about 0.3 s) has settled. */
async function confirmDialog(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await page.waitForTimeout(400);
  await dialog.getByRole('button', { name: buttonName('Confirm') }).click();
  await dialog.waitFor({ state: 'detached', timeout: 15_000 });
}

/**
 * Issue 31: an OCPP 1.6 and an OCPP 2.0.1 charger side by side on one site and one load-managed zone
 * (DISTRIBUTION, 20 A shared, 6–16 A each). The portal must treat them alike: remote start and stop
 * from the charger view, the LMS dashboard's allocations (which each simulator obeys), the version in
 * the chargers list, and sessions ended with reason Remote.
 */
describe('a mixed OCPP 1.6 / 2.0.1 fleet in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let locId: number;
  const cpIds: Record<string, number> = {};
  let old16: SimulatedCharger;
  let new201: SimulatedCharger201;

  before(async () => {
    locId = (await api('POST', '/api/cp_locs', { address: 'Mixed Fleet Depot', address_chi: '混合車隊場站' })).data.loc_id;
    const zoneId = (await api('POST', '/api/cp_zones', { loc_id: locId, name: 'Bay A', name_chi: 'A 區', max_physical_current_limit: 40 })).data.zone_id;
    const profileId = (await api('POST', '/api/lms_profiles', { name: 'E2E mixed sharing', cp_loc: locId, mode: 'DISTRIBUTION' })).data.lms_profile_id;
    await api('PUT', '/api/zone_lms_profiles', {
      lms_profile_id: profileId,
      zones: [{ zone_id: zoneId, zone_max_available_current: 20, max_charging_current: 16, min_charging_current: 6 }],
    });
    await api('PUT', `/api/cp_locs/${locId}`, { address: 'Mixed Fleet Depot', enable_lms: 1, lms_profile_id: profileId });
    for (const cpNo of [OLD, NEW]) {
      cpIds[cpNo] = (await api('POST', '/api/cps', { cp_no: cpNo, name: cpNo, loc_id: locId, ocpp_password: 'mixed-fleet-pass-1' })).data.cp_id;
    }
    await api('PUT', `/api/cps/assign_zone/${zoneId}`, Object.values(cpIds).map((cp_id) => ({ cp_id, action: 'add' })));

    const options = { url: ocppUrl, password: 'mixed-fleet-pass-1', connectors: 1, maxCurrentA: 32 };
    old16 = new SimulatedCharger({ ...options, cpNo: OLD });
    new201 = new SimulatedCharger201({ ...options, cpNo: NEW });
    await old16.start();
    await new201.start();
    await connectorsReported(cpIds[OLD], 1);
    await connectorsReported(cpIds[NEW], 1);
    // Load management holds idle chargers at 0 A: both got their limit, whatever their protocol.
    await eventually(async () => old16.allowedCurrent(1) === 0 && new201.allowedCurrent(1) === 0, 'both idle chargers held at 0 A', 20_000);

    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await old16?.stop();
    await new201?.stop();
    await browser?.close();
  });

  /** Start on connector 1 from the charger view's Remote actions tab, as an operator does. */
  async function remoteStart(cpNo: string): Promise<void> {
    await page.goto(`${portal}/cps/${cpIds[cpNo]}`);
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await statusOf(page, 1).filter({ hasText: /^(Available|Preparing)$/ }).waitFor({ timeout: 15_000 });
    await row(page, 'Connector 1').getByRole('button', { name: 'Start' }).click();
    const form = page.getByTestId('start-form');
    await form.waitFor();
    await page.waitForTimeout(400);
    await form.getByLabel('Duration (minutes)').fill('60');
    await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: 'Start' }).click();
    await page.locator('.ant-modal-confirm-title').getByText('Start charging on connector 1?').waitFor();
    await confirmDialog(page);
    await toast(page, 'The charger accepted the command').waitFor();
    await statusOf(page, 1).filter({ hasText: 'Charging' }).waitFor({ timeout: 15_000 });
  }

  it('starts both from the charger view; the LMS dashboard shares the zone and each charger obeys it', async () => {
    await page.goto(`${portal}/lms/dashboard`);
    await useLanguage(page, 'en');
    await remoteStart(OLD);
    assert.equal(old16.hasTransaction(1), true);
    // Alone in the zone: its max.
    await eventually(async () => old16.allowedCurrent(1) === 16, 'the 1.6 charger alone at 16 A', 20_000);
    await remoteStart(NEW);
    assert.equal(new201.hasTransaction(1), true);
    await screenshot(page, 'mixed-1-started-201-en');
    // Two sharers of 20 A: 10 A each, the 1.6 one slowed down by the 2.0.1 arrival like by any other.
    await eventually(async () => old16.allowedCurrent(1) === 10 && new201.allowedCurrent(1) === 10, 'both chargers at 10 A', 20_000);
    await old16.sendMeterValues(1);
    await new201.sendMeterValues(1);

    await page.goto(`${portal}/lms/dashboard`);
    const loc = page.getByTestId(`lms-loc-${locId}`);
    await loc.getByText('Mixed Fleet Depot').waitFor();
    assert.equal(await loc.getByTestId('lms-mode').textContent(), 'Distribution');
    for (const cpNo of [OLD, NEW]) {
      await withStatus(page, cpNo, 'charging').waitFor({ timeout: 15_000 });
      await page.getByTestId(`lms-cp-${cpNo}`).getByTestId('lms-cp-distributed').getByText('10 A').waitFor();
    }
    assert.equal(await loc.getByTestId('lms-zone-distributing').textContent(), '20 A');
    await screenshot(page, 'mixed-2-lms-dashboard-en');
  });

  it('lists each charger with its OCPP version, in both languages', async () => {
    await page.goto(`${portal}/cps`);
    await page.getByRole('columnheader', { name: /OCPP Version/i }).waitFor();
    await page.locator('.ant-table-row').filter({ hasText: OLD }).filter({ hasText: 'OCPP 1.6' }).waitFor();
    await page.locator('.ant-table-row').filter({ hasText: NEW }).filter({ hasText: 'OCPP 2.0.1' }).waitFor();
    await screenshot(page, 'mixed-3-chargers-en', { fullPage: false });
    await useLanguage(page, 'zh-TW');
    await page.getByRole('columnheader', { name: /OCPP 版本/ }).waitFor();
    await page.locator('.ant-table-row').filter({ hasText: NEW }).filter({ hasText: 'OCPP 2.0.1' }).waitFor();
    await screenshot(page, 'mixed-4-chargers-zh', { fullPage: false });
    await useLanguage(page, 'en');
  });

  it('stops both from the charger view: sessions end with reason Remote and the zone is idle again', async () => {
    for (const cpNo of [OLD, NEW]) {
      await page.goto(`${portal}/cps/${cpIds[cpNo]}`);
      await page.getByRole('tab', { name: 'Remote actions' }).click();
      await statusOf(page, 1).filter({ hasText: 'Charging' }).waitFor({ timeout: 15_000 });
      await row(page, 'Connector 1').getByRole('button', { name: 'Stop' }).click();
      await page.locator('.ant-modal-confirm-title').getByText('Stop charging on connector 1?').waitFor();
      await confirmDialog(page);
      await toast(page, 'The charger accepted the command').waitFor();
      await statusOf(page, 1).filter({ hasNotText: 'Charging' }).waitFor({ timeout: 15_000 });
      if (cpNo === NEW) await screenshot(page, 'mixed-5-stopped-201-en');
    }
    assert.equal(old16.hasTransaction(1), false);
    assert.equal(new201.hasTransaction(1), false);
    for (const cpNo of [OLD, NEW]) {
      const sessions = (await api('GET', `/api/cp_sessions?cp_id=${cpIds[cpNo]}`)).dataset.content as Record<string, unknown>[];
      assert.equal(sessions.length, 1, `${cpNo}: one session`);
      assert.ok(sessions[0].session_end_time, `${cpNo}: session ended`);
      assert.equal(sessions[0].stop_reason, 'Remote', `${cpNo}: stop reason`);
    }
    await eventually(async () => old16.allowedCurrent(1) === 0 && new201.allowedCurrent(1) === 0, 'both chargers back at 0 A', 20_000);
    await page.goto(`${portal}/lms/dashboard`);
    for (const cpNo of [OLD, NEW]) {
      await page.getByTestId(`lms-cp-${cpNo}`).waitFor();
      await eventually(async () => (await page.getByTestId(`lms-cp-${cpNo}`).getAttribute('data-status')) !== 'charging', `${cpNo} not charging on the dashboard`);
    }
    await screenshot(page, 'mixed-6-lms-idle-en');
  });
});
