import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { SimulatedCharger } from '@ev/simulator';
import { api, buttonName, connectedCharger, pickOption, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/**
 * Issue 29: a firmware image made in its generic form, a job for one charger started from the jobs list, its
 * progress followed live until the simulated charger reboots into the new version (Verified), the charger
 * view's Firmware tab, and a second job stopped from its page; in English and Traditional Chinese.
 */
describe('firmware updates in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  let sim: SimulatedCharger;
  const form = () => page.locator('form');
  const confirmDialog = async (ok: string) => {
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    await page.waitForTimeout(400);
    await dialog.getByRole('button', { name: buttonName(ok) }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
  };

  before(async () => {
    ({ cpId, sim } = await connectedCharger('Firmware Site', 'E2E-FW', { connectors: 1, reconnect: false, rebootDelayMs: 300, firmwareVersion: '1.0.0' }));
    // Statuses a little apart, so that the progress page can be seen moving.
    sim.firmware.options = { stepMs: 700 };
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
  });

  it('makes an image, starts a job for the charger and follows it to Verified, in English', async () => {
    await page.goto(`${portal}/firmware/create`);
    await useLanguage(page, 'en');
    await form().getByLabel('Version', { exact: true }).fill('2.0.0');
    await form().getByLabel('Charger Model', { exact: true }).fill('Sim-AC22');
    await form().getByLabel('Download URL', { exact: true }).fill('https://fw.example.com/evsim-2.0.0.bin');
    await form().locator('button[type=submit]').click();
    await page.waitForURL(/\/firmware\/\d+$/);

    await page.goto(`${portal}/firmware_jobs`);
    await page.getByTestId('firmware-new-job').click();
    const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('firmware-job-form') });
    await pickOption(page, /^Firmware image$/, '2.0.0');
    await modal.getByText('Chargers', { exact: true }).click();
    await pickOption(page, /^Targets$/, 'E2E-FW');
    await modal.locator('.ant-modal-title').click();
    await screenshot(page, 'firmware-1-new-job-en', { fullPage: false });
    await modal.getByRole('button', { name: buttonName('Start job') }).click();
    await confirmDialog('Confirm');
    await page.waitForURL(/\/firmware_jobs\/\d+$/);
    await page.getByRole('tab', { name: 'Progress' }).click();
    const state = page.getByTestId('firmware-state-E2E-FW');
    // Live: the page reads the progress again by itself while the charger downloads, installs and reboots.
    await state.filter({ hasText: /^(Downloading|Downloaded|Installing)$/ }).waitFor({ timeout: 20_000 });
    await state.filter({ hasText: /^Verified$/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId('firmware-job-status').filter({ hasText: 'Finished' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('firmware-count-Verified').textContent(), 'Verified: 1');
    await screenshot(page, 'firmware-2-job-verified-en');

    // Remote actions: the charger's last diagnostics status beside Get diagnostics.
    assert.equal((await api('GET', `/api/cps/getDiagnostics/${cpId}`)).status, 'success');
    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByRole('tab', { name: 'Remote actions' }).click();
    await page.getByTestId('diagnostics-status').filter({ hasText: /^Last diagnostics status: Uploaded \(/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'firmware-3-diagnostics-en', { fullPage: false });
    await page.getByRole('tab', { name: 'Firmware' }).click();
    await page.getByTestId('firmware-installed').filter({ hasText: '2.0.0' }).waitFor({ timeout: 10_000 });
    await page.getByTestId('charger-firmware').getByText('Verified').waitFor();
    await screenshot(page, 'firmware-3-charger-tab-en');
  });

  it('stops a running job from its page after a confirmation, in Traditional Chinese', async () => {
    const [image] = (await api('GET', '/api/firmware?size=10')).dataset.content;
    // Downloaded in an hour: the charger holds the job running meanwhile.
    const started = await api('POST', '/api/firmware_jobs/start', {
      firmwareId: image.firmware_id, targetKind: 'chargers', targetIds: [cpId], retrieveDate: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(started.status, 'success');
    await page.goto(`${portal}/firmware_jobs/${started.jobId}`);
    await useLanguage(page, 'zh-TW');
    await page.getByRole('tab', { name: '進度' }).click();
    await page.getByTestId('firmware-state-E2E-FW').filter({ hasText: '已發送' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('firmware-stop').click();
    await page.locator('.ant-modal-confirm-title').getByText(`停止工作 ${started.jobId}？`, { exact: false }).waitFor();
    await screenshot(page, 'firmware-4-stop-confirm-zh', { fullPage: false });
    await confirmDialog('確定');
    await page.getByTestId('firmware-job-status').filter({ hasText: '已停止' }).waitFor({ timeout: 10_000 });
    await page.getByText('由使用者停止').waitFor();
    await screenshot(page, 'firmware-5-stopped-zh');

    await page.goto(`${portal}/cps/${cpId}`);
    await page.getByRole('tab', { name: '韌體' }).click();
    await page.getByTestId('firmware-installed').filter({ hasText: '2.0.0' }).waitFor();
    await screenshot(page, 'firmware-6-charger-tab-zh');
  });
});
