import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, TEST_ADMIN_PASSWORD } from '../../packages/server/src/testing/server.ts';
import { addCharger, addSite } from '../../packages/server/src/testing/ocpp-support.ts';
import { addUnsettledRsr, startStubGateway, type StubAnswer } from '../../packages/server/src/payments/test-support.ts';
import { autoPay } from '../../packages/server/src/payments/collect.ts';

/*
 * Payments need what a browser test cannot make through the portal: RSRs that ended owing money
 * and a payment gateway that approves or declines on cue. So this file runs a server of its own in
 * the test process (the built portal, a fresh embedded database, a stub HTTP gateway beside it)
 * and points the shared helpers at it before loading them.
 */
const stub = await startStubGateway();
const s = await startTestServer({
  paymentGateway: { url: stub.url, key: stub.key, timeoutMs: 2000 },
  portalDir: process.env.PORTAL_DIR ?? fileURLToPath(new URL('../../packages/web/dist', import.meta.url)),
});
process.env.E2E_BASE_URL = s.baseUrl;
process.env.E2E_ADMIN_PASSWORD = TEST_ADMIN_PASSWORD;
const { buttonName, portal, screenshot, signedInPage, useLanguage } = await import('../support.ts');

/** An RSR owing `amount` cents whose automatic payment the gateway answered with `answer`; its payment_result id. */
async function paidAutomatically(cpId: number, amount: number, answer: StubAnswer) {
  const made = await addUnsettledRsr(s.db, cpId, { amount, member: `M-${amount}` });
  stub.answers.push(answer);
  await autoPay(s.app, made.rsrId);
  const [d] = await s.db.query(`SELECT id FROM payment_result_detail WHERE "resultId" = $1`, [made.resultId]);
  return { ...made, detailId: Number(d.id) };
}
const rsrStatus = async (rsrId: number) => (await s.db.query(`SELECT status, payment_status FROM cp_rsr WHERE rsr_id = $1`, [rsrId]))[0];

describe('payment results and their Retry in a real browser', () => {
  let browser: Browser;
  let page: Page;
  let cpId: number;
  const row = (id: number) => page.locator(`tr[data-row-key="${id}"]`);

  /** Clicks the row's Retry, checks the confirmation, confirms, and waits for the message. */
  async function retry(id: number, confirmTitle: string, ok: string, shot: string, body?: string) {
    await row(id).getByRole('button', { name: /Retry|重\s*試/ }).click();
    // The confirmation only: a refusal's own dialog may open while it fades out.
    const dialog = page.locator('.ant-modal-confirm').filter({ hasText: confirmTitle });
    await dialog.locator('.ant-modal-confirm-title').getByText(confirmTitle, { exact: true }).waitFor();
    if (body) await dialog.getByText(body, { exact: false }).waitFor();
    await screenshot(page, shot, { fullPage: false });
    await dialog.getByRole('button', { name: buttonName(ok) }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
  }

  before(async () => {
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'PAY-E2E', { locId });
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
    await s.close();
    await stub.close();
  });

  it('retries a declined automatic payment: Success settles the RSR, in English', async () => {
    const settled = await paidAutomatically(cpId, 980, 'approve');
    const failed = await paidAutomatically(cpId, 1550, 'decline');
    await page.goto(`${portal}/payment_result_detail`);
    await useLanguage(page, 'en');
    await row(failed.detailId).getByText('Error', { exact: true }).waitFor();
    // Amount in dollars, the RSR linked, a Retry on the failed AutoPay only.
    await row(failed.detailId).getByText('15.50', { exact: true }).waitFor();
    assert.equal(await row(failed.detailId).getByRole('link', { name: String(failed.rsrId) }).getAttribute('href'), `/portal/cp_rsr/${failed.rsrId}`);
    assert.equal(await row(failed.detailId).getByRole('button', { name: /Retry/ }).count(), 1);
    assert.equal(await row(settled.detailId).getByRole('button', { name: /Retry/ }).count(), 0);
    // The gateway's reason is listed with the attempt.
    await row(failed.detailId).getByText('Insufficient funds', { exact: true }).waitFor();
    await screenshot(page, 'payments-1-list-en');

    // A retry declined again: the reason and what to do next, not only "Failed".
    const again = await paidAutomatically(cpId, 700, 'decline');
    await page.reload();
    stub.answers.push('decline');
    await retry(again.detailId, `Retry the payment of RSR ${again.rsrId}?`, 'Confirm', 'payments-1b-confirm-reason-en', 'The last attempt was refused by the payment gateway: Insufficient funds.');
    const refused = page.locator('.ant-modal-confirm').filter({ hasText: 'The payment was not approved' });
    await refused.getByText('Payment gateway: Insufficient funds', { exact: false }).waitFor();
    await refused.getByText(`use Mark settled on remote start request ${again.rsrId}`, { exact: false }).waitFor();
    await screenshot(page, 'payments-1c-declined-en', { fullPage: false });
    await refused.getByRole('button', { name: buttonName('Confirm') }).click();
    await refused.waitFor({ state: 'detached' });

    stub.answers.push('approve');
    await retry(failed.detailId, `Retry the payment of RSR ${failed.rsrId}?`, 'Confirm', 'payments-2-confirm-en');
    await page.locator('.ant-message-notice', { hasText: 'Success' }).last().waitFor();
    assert.deepEqual(await rsrStatus(failed.rsrId), { status: 'Settled', payment_status: 'Settled' });
    // The list reloads: the retry's Success row on top, no Retry left on the failed one.
    const [retried] = await s.db.query(`SELECT id FROM payment_result_detail WHERE "resultId" = $1 AND "actionType" = 'Retry'`, [failed.resultId]);
    await row(Number(retried.id)).getByText('Success', { exact: true }).waitFor();
    assert.equal(await row(failed.detailId).getByRole('button', { name: /Retry/ }).count(), 0);
    await screenshot(page, 'payments-3-retried-en');
  });

  it('in Traditional Chinese: a declined retry and a retry of a payment settled meanwhile show the code\'s message', async () => {
    const declined = await paidAutomatically(cpId, 2200, 'decline');
    const raced = await paidAutomatically(cpId, 600, 'decline');
    await page.goto(`${portal}/payment_result_detail`);
    await useLanguage(page, 'zh-TW');
    await row(declined.detailId).getByText('錯誤', { exact: true }).waitFor();
    await screenshot(page, 'payments-4-list-zh');

    stub.answers.push('decline');
    await retry(declined.detailId, `重試遙距充電請求 ${declined.rsrId} 的付款？`, '確定', 'payments-5-confirm-zh', '上次嘗試被付款閘道拒絕：Insufficient funds。');
    const refused = page.locator('.ant-modal-confirm').filter({ hasText: '付款未獲批准' });
    await refused.getByText('付款閘道：Insufficient funds', { exact: false }).waitFor();
    await refused.getByText(`請在遙距充電請求 ${declined.rsrId} 使用「標記為已結算」`, { exact: false }).waitFor();
    assert.deepEqual(await rsrStatus(declined.rsrId), { status: 'Unsettled', payment_status: 'Unsettled' });
    await screenshot(page, 'payments-6-declined-zh', { fullPage: false });
    await refused.getByRole('button', { name: buttonName('確定') }).click();
    await refused.waitFor({ state: 'detached' });

    // Someone settles the other payment by hand while its Retry is still on screen: 40002.
    const token = await s.login();
    assert.deepEqual((await s.api('POST', '/api/cp_rsr/setup_settled/', { token, body: { rsr_id: raced.rsrId } })).body, { status: 'success' });
    const calls = stub.calls.length;
    await retry(raced.detailId, `重試遙距充電請求 ${raced.rsrId} 的付款？`, '確定', 'payments-7-confirm-raced-zh');
    await page.locator('.ant-message-notice', { hasText: '付款已結算' }).last().waitFor();
    assert.equal(stub.calls.length, calls);
    await screenshot(page, 'payments-8-already-settled-zh', { fullPage: false });

    // The record's view: every column, in Chinese.
    await page.goto(`${portal}/payment_result_detail/${declined.detailId}`);
    await page.getByText('自動付款', { exact: true }).first().waitFor();
    await screenshot(page, 'payments-9-view-zh');
  });
});
