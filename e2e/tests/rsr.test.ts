import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, TEST_ADMIN_PASSWORD } from '../../packages/server/src/testing/server.ts';
import { addCharger, addSite } from '../../packages/server/src/testing/ocpp-support.ts';
import { SimulatedCharger } from '@ev/simulator';

/*
 * The RSR row buttons need RSRs in every state, which the portal itself cannot make: this file runs
 * a server of its own in the test process (the built portal, a fresh embedded database) and writes
 * the states with SQL, as the lifecycle leaves them (packages/server/src/rsr tests drive the lifecycle).
 */
const s = await startTestServer({ portalDir: process.env.PORTAL_DIR ?? fileURLToPath(new URL('../../packages/web/dist', import.meta.url)) });
process.env.E2E_BASE_URL = s.baseUrl;
process.env.E2E_ADMIN_PASSWORD = TEST_ADMIN_PASSWORD;
const { buttonName, connectorsReported, pickOption, portal, screenshot, signedInPage, useLanguage } = await import('../support.ts');

let cpId = 0;
/** An RSR in this state; an Unsettled one owes fee + penalty through its payment_result. */
async function rsrIn(status: string, o: { isFree?: 'Y' | 'N'; fee?: number; penalty?: number } = {}): Promise<number> {
  const unsettled = status === 'Unsettled';
  const [r] = await s.db.query(
    `INSERT INTO cp_rsr (cp_id, connector_id, status, payment_status, max_charging_unit, duration, unit_in_minutes, charging_fee, penalty_fee, is_free,
                         external_account_id, start_time, end_time)
     VALUES ($1, 1, $2, $3, 2, 30, 15, $4, $5, $6, 'E2E-M', now() - interval '1 hour', now() - interval '30 minutes') RETURNING rsr_id`,
    [cpId, status, unsettled ? 'Unsettled' : null, o.fee ?? 1200, o.penalty ?? 0, o.isFree ?? 'N'],
  );
  if (unsettled) {
    const [pr] = await s.db.query(`INSERT INTO payment_result (rsr_id, status, amount) VALUES ($1, 'Unsettled', $2) RETURNING id`, [r.rsr_id, (o.fee ?? 1200) + (o.penalty ?? 0)]);
    await s.db.query(`UPDATE cp_rsr SET payment_result_id = $2 WHERE rsr_id = $1`, [r.rsr_id, pr.id]);
  }
  return r.rsr_id;
}
const statusOf = async (id: number) => (await s.db.query(`SELECT status, payment_status FROM cp_rsr WHERE rsr_id = $1`, [id]))[0];

describe('remote start request buttons in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const row = (id: number) => page.locator(`tr[data-row-key="${id}"]`);
  const count = (id: number, name: string) => row(id).getByRole('button', { name: buttonName(name) }).count();

  /** Clicks the row's button, checks the confirmation's title and text, screenshots it, confirms. */
  async function confirmOnRow(id: number, button: string, title: string, text: string, ok: string, shot: string) {
    await row(id).getByRole('button', { name: buttonName(button) }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText(title, { exact: true }).waitFor();
    await dialog.getByText(text, { exact: false }).waitFor();
    await screenshot(page, shot, { fullPage: false });
    await dialog.getByRole('button', { name: buttonName(ok) }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
  }

  before(async () => {
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'RSR-E2E', { locId });
    ({ browser, page } = await signedInPage({ width: 1500, height: 900 }));
  });
  after(async () => {
    await browser?.close();
    await s.close();
  });

  it('shows cancel, edit and mark-settled per state, and cancels and settles after a confirmation, in English', async () => {
    const started = await rsrIn('RemoteStarted');
    const charging = await rsrIn('Charging');
    const penalty = await rsrIn('UnderPenalty', { penalty: 400 });
    const freePenalty = await rsrIn('UnderPenalty', { isFree: 'Y', fee: 0 });
    const unsettled = await rsrIn('Unsettled', { fee: 1200, penalty: 350 });
    await page.goto(`${portal}/cp_rsr`);
    await useLanguage(page, 'en');
    await row(unsettled).getByText('Unsettled', { exact: true }).first().waitFor();
    assert.equal(await row(penalty).getByText('4.00', { exact: true }).count(), 1);
    assert.deepEqual(
      await Promise.all([started, charging, penalty, freePenalty, unsettled].map(async (id) => [await count(id, 'Cancel request'), await count(id, 'Edit'), await count(id, 'Mark settled')])),
      [[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 1]],
    );
    await screenshot(page, 'rsr-1-list-en');

    await confirmOnRow(started, 'Cancel request', `Cancel remote start request #${started}?`, 'Vouchers used by the request are given back', 'Confirm', 'rsr-2-cancel-confirm-en');
    await page.locator('.ant-message-notice', { hasText: 'Success' }).last().waitFor();
    assert.deepEqual(await statusOf(started), { status: 'Cancelled', payment_status: null });
    await row(started).getByText('Cancelled', { exact: true }).waitFor();
    assert.equal(await count(started, 'Cancel request'), 0);

    await confirmOnRow(unsettled, 'Mark settled', `Mark remote start request #${unsettled} as settled?`, 'Record that $15.50 was paid', 'Confirm', 'rsr-3-settle-confirm-en');
    await page.locator('.ant-message-notice', { hasText: 'Success' }).last().waitFor();
    assert.deepEqual(await statusOf(unsettled), { status: 'Settled', payment_status: 'Settled' });
    await row(unsettled).getByText('Settled', { exact: true }).first().waitFor();
    assert.equal(await count(unsettled, 'Mark settled'), 0);
    await screenshot(page, 'rsr-4-after-en');

    // Its view links to the bay and the payment result (the manual settlement just recorded).
    const [bay] = await s.db.query(`INSERT INTO bay ("bayId", "bayName", "cpId", "connectorId") VALUES ('E2E-B1', 'Bay E2E', $1, 1) RETURNING id`, [cpId]);
    await s.db.query(`UPDATE cp_rsr SET bay_id = $2 WHERE rsr_id = $1`, [unsettled, bay.id]);
    const [detail] = await s.db.query(`SELECT max(d.id) AS id FROM payment_result_detail d JOIN payment_result p ON p.id = d."resultId" WHERE p.rsr_id = $1`, [unsettled]);
    await page.goto(`${portal}/cp_rsr/${unsettled}`);
    await page.getByText('Bay E2E', { exact: true }).first().waitFor();
    assert.equal(await page.locator(`a[href="/portal/payment_result_detail/${detail.id}"]`).count(), 1);
    assert.equal(await page.locator(`a[href="/portal/bay/${bay.id}"]`).count(), 1);
    await screenshot(page, 'rsr-4b-view-en');
    await page.goto(`${portal}/cp_rsr`);

    // The edit of an UnderPenalty RSR: remarks, free flag and penalty only.
    await row(penalty).getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(new RegExp(`/cp_rsr/${penalty}/edit$`));
    const form = page.locator('form');
    await form.getByLabel('Penalty ($)', { exact: true }).fill('2.5');
    await form.getByLabel('Remarks', { exact: true }).fill('half waived');
    await screenshot(page, 'rsr-5-edit-en', { fullPage: false });
    await page.getByRole('button', { name: buttonName('Save') }).click();
    await page.waitForURL(new RegExp(`/cp_rsr/${penalty}$`));
    const [edited] = await s.db.query(`SELECT penalty_fee, remarks, penalty_mode FROM cp_rsr WHERE rsr_id = $1`, [penalty]);
    assert.deepEqual(edited, { penalty_fee: 250, remarks: 'half waived', penalty_mode: 'Manual' });
  });

  it('in Traditional Chinese: the same buttons and confirmations, a refused cancel explained', async () => {
    const started = await rsrIn('RemoteStarted');
    const unsettled = await rsrIn('Unsettled', { fee: 600 });
    await page.goto(`${portal}/cp_rsr`);
    await useLanguage(page, 'zh-TW');
    await row(unsettled).getByText('未結算', { exact: true }).first().waitFor();
    assert.equal(await count(started, '取消請求'), 1);
    assert.equal(await count(unsettled, '標記為已結算'), 1);
    await screenshot(page, 'rsr-6-list-zh');

    // Charging began meanwhile: the cancel is refused with the message of 10013.
    await s.db.query(`UPDATE cp_rsr SET status = 'Charging' WHERE rsr_id = $1`, [started]);
    await confirmOnRow(started, '取消請求', `取消遙距啟動請求 #${started}？`, '充電器尚未開始充電', '確定', 'rsr-7-cancel-confirm-zh');
    await page.locator('.ant-message-notice', { hasText: '遙距啟動記錄無效' }).last().waitFor();
    assert.equal((await statusOf(started)).status, 'Charging');
    await screenshot(page, 'rsr-8-refused-zh', { fullPage: false });

    await confirmOnRow(unsettled, '標記為已結算', `將遙距啟動請求 #${unsettled} 標記為已結算？`, '記錄 $6.00 已在付款閘道以外支付', '確定', 'rsr-9-settle-confirm-zh');
    await page.locator('.ant-message-notice', { hasText: '成功' }).last().waitFor();
    assert.deepEqual(await statusOf(unsettled), { status: 'Settled', payment_status: 'Settled' });
  });

  it('starts, stops and unlocks from the RSR screen through the charger view\'s routes (spec part 2 §6), in both languages', async () => {
    const sim = new SimulatedCharger({ url: `${s.wsUrl}/ocpp`, cpNo: 'RSR-CMD', password: 'rsr-cmd-pass', connectors: 1, maxCurrentA: 16 });
    const cmdCp = await addCharger(s.db, 'RSR-CMD', { password: 'rsr-cmd-pass' });
    await sim.start();
    try {
      await connectorsReported(cmdCp, 1);
      const [charging] = await s.db.query(
        `INSERT INTO cp_rsr (cp_id, connector_id, status, max_charging_unit, duration, unit_in_minutes) VALUES ($1, 1, 'Charging', 1, 15, 15) RETURNING rsr_id`,
        [cmdCp],
      );
      await page.goto(`${portal}/cp_rsr`);
      await useLanguage(page, 'en');
      await row(charging.rsr_id).waitFor();
      assert.deepEqual([await count(charging.rsr_id, 'Stop charging'), await count(charging.rsr_id, 'Unlock connector')], [1, 1]);
      // Unlock answers as from the charger view (not a 404): the charger released the cable.
      const unlocked = page.waitForResponse((r) => r.url().endsWith(`/api/cp_rsr/unlockCharger/${cmdCp}`));
      await confirmOnRow(charging.rsr_id, 'Unlock connector', `Unlock the connector of remote start request #${charging.rsr_id}?`, 'Charger RSR-CMD, connector 1', 'Confirm', 'rsr-10-unlock-confirm-en');
      assert.equal((await unlocked).status(), 200);
      await page.locator('.ant-message-notice', { hasText: 'Success' }).last().waitFor();
      // Stop: the same answer as the charger view's (here no session runs on the connector).
      const stopped = page.waitForResponse((r) => r.url().endsWith(`/api/cp_rsr/rsrStopCharger/${cmdCp}`));
      await confirmOnRow(charging.rsr_id, 'Stop charging', `Stop the charging of remote start request #${charging.rsr_id}?`, 'Charger RSR-CMD, connector 1', 'Confirm', 'rsr-11-stop-confirm-en');
      assert.equal((await stopped).status(), 200);
      assert.equal((await (await stopped).json()).status, 'error');

      // Start: a charger picked in the list's popup, then the charger view's own start form.
      await page.getByTestId('rsr-remote-start').click();
      const pick = page.getByTestId('rsr-start-form');
      await pick.waitFor();
      await pickOption(page, /^Charger$/, 'RSR-CMD');
      await page.locator('.ant-modal').filter({ has: pick }).getByRole('button', { name: buttonName('Next') }).click();
      const form = page.getByTestId('start-form');
      await form.getByLabel('Duration (minutes)').fill('30');
      await form.getByLabel('Member ID').fill('E2E-M');
      await screenshot(page, 'rsr-12-start-form-en', { fullPage: false });
      const started = page.waitForResponse((r) => r.url().endsWith(`/api/cp_rsr/rsrStartCharger/${cmdCp}`));
      await page.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: buttonName('Start') }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: buttonName('Confirm') }).click();
      assert.equal((await started).status(), 200);
      await page.locator('.ant-message-notice').last().waitFor();
      await screenshot(page, 'rsr-13-started-en', { fullPage: false });

      await useLanguage(page, 'zh-TW');
      await row(charging.rsr_id).getByRole('button', { name: buttonName('停止充電') }).waitFor();
      await page.getByTestId('rsr-remote-start').click();
      await page.getByTestId('rsr-start-form').getByText('充電樁', { exact: true }).waitFor();
      await screenshot(page, 'rsr-14-start-form-zh', { fullPage: false });
    } finally {
      await sim.stop();
    }
  });
});
