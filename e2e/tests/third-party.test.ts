import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/** antd writes a space between two CJK characters of a button ('確 定'); an icon's name comes before the text. */
const label = (text: string) => new RegExp(`${[...text].join('\\s*')}$`);

/** Third-party access (issue 8 §4): the secret shown once at creation, masked afterwards, removed with a named confirmation. */
describe('third-party access in a real browser', () => {
  let browser: Browser;
  let page: Page;
  /** App ids are unique among live keys: a run of its own against a server that is kept. */
  const run = Date.now().toString(36);
  const formItem = (name: RegExp) => page.locator('.ant-modal .ant-form-item').filter({ has: page.locator('label').getByText(name) });

  before(async () => {
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  async function createConf(lang: 'en' | 'zh-TW', keyName: string, appId: string): Promise<{ id: number; secret: string }> {
    await page.goto(`${portal}/third_party_conf`);
    await useLanguage(page, lang);
    const t = lang === 'en'
      ? { create: 'Create', name: /^Key Name$/, app: /^App ID$/, privilege: /^Privilege$/, option: 'Remote charging (start, stop)', save: 'Save' }
      : { create: '新增', name: /^金鑰名稱$/, app: /^應用程式編號$/, privilege: /^權限$/, option: '遙距充電（開始、停止）', save: '儲存' };
    await page.getByRole('button', { name: label(t.create) }).click();
    await formItem(t.name).locator('input').fill(keyName);
    await formItem(t.app).locator('input').fill(appId);
    await formItem(t.privilege).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: t.option }).first().click();
    await screenshot(page, `third-party-1-create-${lang}`, { fullPage: false });
    await page.locator('.ant-modal').getByRole('button', { name: label(t.save) }).click();
    const secret = (await page.getByTestId('app-secret').innerText()).trim();
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    await page.getByText(lang === 'en' ? 'Copy it now, it will not be shown again.' : '請立即複製，此金鑰不會再次顯示。').waitFor();
    await screenshot(page, `third-party-2-secret-${lang}`, { fullPage: false });
    const rows = (await api('GET', `/api/third_party_conf?app_id=${appId}`)).dataset.content as { id: number; api_key: string }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].api_key, '••••••••');
    return { id: rows[0].id, secret };
  }

  it('creates a key, shows its secret once, then only masked, in English', async () => {
    const { id, secret } = await createConf('en', 'Harbour Mall', `harbour-mall-${run}`);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByTestId('app-secret').waitFor({ state: 'detached' });
    // Reopening the record shows the key masked, never the secret.
    await page.goto(`${portal}/third_party_conf/${id}`);
    await page.getByText('••••••••').first().waitFor();
    assert.equal(await page.getByText(secret).count(), 0);
    await screenshot(page, 'third-party-3-view-en');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('button', { name: 'Remove secret' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText('Remove the app secret of ID: ' + id + ', key name: Harbour Mall?', { exact: true }).waitFor();
    await screenshot(page, 'third-party-4-remove-en', { fullPage: false });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('secret-state').getByText('The app has no secret: its calls are refused.').waitFor();
    const res = await fetch(`${portal.replace(/\/portal$/, '')}/api/external/v1/chargers/X/stop`, {
      method: 'POST',
      headers: { 'x-app-id': `harbour-mall-${run}`, 'x-api-key': secret, 'content-type': 'application/json' },
      body: JSON.stringify({ connectorId: 1 }),
    });
    assert.equal(res.status, 401);
  });

  it('does the same in Traditional Chinese, the removal from the list pop-view', async () => {
    const { id } = await createConf('zh-TW', '海港停車場', `harbour-park-${run}`);
    await page.getByRole('button', { name: label('我已複製') }).click();
    await page.getByTestId('app-secret').waitFor({ state: 'detached' });
    const row = page.locator('.ant-table-row', { hasText: `harbour-park-${run}` });
    await row.getByText('••••••••').waitFor();
    await screenshot(page, 'third-party-5-list-zh-TW');
    await row.getByRole('button', { name: '詳情' }).click();
    await page.locator('.ant-modal').getByRole('button', { name: label('移除金鑰') }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('.ant-modal-confirm-title').getByText(`確定移除編號：${id}、金鑰名稱：海港停車場 的應用程式金鑰？`, { exact: true }).waitFor();
    await screenshot(page, 'third-party-6-remove-zh-TW', { fullPage: false });
    await dialog.getByRole('button', { name: label('確定') }).click();
    await dialog.waitFor({ state: 'detached' });
    const [conf] = (await api('GET', `/api/third_party_conf?app_id=harbour-park-${run}`)).dataset.content as { api_key: string | null }[];
    assert.equal(conf.api_key, null);
  });
});
