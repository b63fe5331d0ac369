import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { getResource } from '@ev/core';
import { SimulatedCharger } from '@ev/simulator';
import { adminPassword, api, eventually, launch, portal, screenshot, signIn, useLanguage, ocppUrl } from '../support.ts';

const OPERATOR = { username: 'site-operator', password: 'operator-pass-1' };

/** A role that may manage sites and read the user log, nothing else; and a user of it. */
async function createOperator(): Promise<void> {
  const role = await api('POST', '/api/roles', { role: 'site_operator', name_chi: '站點操作員', level: 10 });
  await api('PUT', `/api/rnp/${role.data.id}`, {
    privileges: ['READ_CP_LOCS', 'CREATE_CP_LOCS', 'EDIT_CP_LOCS', 'READ_DELETE', 'READ_USER_LOG'],
  });
  await api('POST', '/api/users', {
    name: 'Site Operator', username: OPERATOR.username, password: OPERATOR.password, confirm_password: OPERATOR.password,
    role_id: role.data.id, cp_loc_flag: 1,
  });
}

/** The data rows of the table on the page, each as its cells' text. */
async function tableRows(page: Page): Promise<string[][]> {
  await page.locator('.ant-table').waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  return page.locator('.ant-table-tbody tr.ant-table-row').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
  );
}

describe('staff portal in a real browser', () => {
  let browser: Browser;
  let page: Page;

  before(async () => {
    await createOperator();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  after(async () => browser?.close());

  it('refuses a wrong password with the spec message', async () => {
    await page.goto(`${portal}/cp_locs`);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Username').fill(OPERATOR.username);
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByTestId('login-error').getByText('Login failed, incorrect account or password').waitFor();
    await screenshot(page, '01-login-failed');
  });

  it('signs in and shows only the menu items the role may read', async () => {
    await signIn(page, OPERATOR.username, OPERATOR.password);
    const menu = page.locator('.ant-layout-sider');
    await menu.getByText('Sites', { exact: true }).waitFor();
    // Open every group so that hidden items would show if they were there.
    for (const group of await menu.locator('.ant-menu-submenu-title').all()) {
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    }
    const items = (await menu.locator('.ant-menu-item').allTextContents()).map((s) => s.trim());
    assert.deepEqual(items.sort(), ['Sites', 'User Log']);
    const groups = (await menu.locator('.ant-menu-submenu-title').allTextContents()).map((s) => s.trim());
    assert.deepEqual(groups.sort(), ['Management', 'Operation']);
    await screenshot(page, '02-operator-menu');
  });

  it('creates, filters, sorts, edits and deletes a site', async () => {
    await page.goto(`${portal}/cp_locs`);
    for (const address of ['Beta Mall Car Park', 'Alpha Tower Car Park']) {
      await page.getByRole('button', { name: /create/i }).click();
      await page.waitForURL(/\/cp_locs\/create/);
      await page.locator('form').getByLabel('Address', { exact: true }).fill(address);
      await page.getByRole('button', { name: /save/i }).click();
      await page.getByText(address).first().waitFor();
      await page.goto(`${portal}/cp_locs`);
    }
    await screenshot(page, '03-sites-list');
    const ids = (await tableRows(page)).map((r) => r.join('|'));
    assert.equal(ids.length, 2);

    // Sort by address ascending (server side), then filter by a part of the address.
    const sorted = page.waitForResponse((r) => r.url().includes('sort_by=address'));
    await page.locator('.ant-table-thead th').filter({ hasText: /^Address$/ }).click();
    await sorted;
    let rows = await tableRows(page);
    assert.ok(rows[0].some((c) => c === 'Alpha Tower Car Park'), `first row after sort: ${rows[0]}`);

    const addressHeader = page.locator('.ant-table-thead th').filter({ hasText: /^Address$/ });
    await addressHeader.locator('.ant-table-filter-trigger').click();
    await page.getByPlaceholder('Search').fill('beta');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByTestId('filter-tags').getByText(/beta/).waitFor();
    await page.locator('.ant-table-filter-dropdown').waitFor({ state: 'hidden' });
    rows = await tableRows(page);
    assert.equal(rows.length, 1);
    assert.ok(rows[0].includes('Beta Mall Car Park'));
    await screenshot(page, '04-sites-filtered');

    // Edit the filtered row.
    await page.getByRole('button', { name: 'Edit' }).first().click();
    await page.waitForURL(/\/edit$/);
    const address = page.locator('form').getByLabel('Address', { exact: true });
    await address.fill('Beta Mall Car Park B2');
    await page.getByRole('button', { name: /save/i }).click();
    await page.getByText('Beta Mall Car Park B2').first().waitFor();
    await screenshot(page, '05-site-edited');

    // Delete it, confirming the dialog that names the id.
    await page.goto(`${portal}/cp_locs`);
    rows = await tableRows(page);
    const target = rows.find((r) => r.includes('Beta Mall Car Park B2'));
    assert.ok(target, 'edited row listed');
    await page.locator('tr.ant-table-row', { hasText: 'Beta Mall Car Park B2' }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    await screenshot(page, '06-delete-confirm');
    await dialog.getByRole('button', { name: /confirm|ok|delete/i }).last().click();
    await page.locator('tr.ant-table-row', { hasText: 'Beta Mall Car Park B2' }).waitFor({ state: 'detached' });
    const stored = await api('GET', '/api/cp_locs?address=Beta&trash=1');
    assert.equal(stored.dataset.content[0].address, 'Beta Mall Car Park B2', 'the deleted site is in trash');
  });

  it('switches to Traditional Chinese and signs out', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByText('Language').hover();
    await page.getByText('繁體中文').click();
    const menu = page.locator('.ant-layout-sider');
    await menu.getByText('充電站', { exact: false }).first().waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.ant-dropdown').waitFor({ state: 'hidden' });
    await page.getByText('找不到資料').waitFor();
    await screenshot(page, '07-zh-TW');

    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown-menu-item-danger').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await screenshot(page, '08-logout-confirm');
    await confirm.locator('.ant-btn-primary').click();
    await page.waitForURL(/\/login/);
    assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => /token/i.test(k)).length), 0);
    await screenshot(page, '09-signed-out');
  });

  it('sends a user to the 403 page and drops the session when the server refuses a record', async () => {
    // Only the server knows which sites a user may see: restrict the operator to none, then open a site.
    const site = await api('POST', '/api/cp_locs', { address: 'Head Office Car Park' });
    const users = await api('GET', `/api/users?username=${OPERATOR.username}`);
    await signIn(page, OPERATOR.username, OPERATOR.password);
    await api('PUT', `/api/users/${users.dataset.content[0].id}`, { cp_loc_flag: 0, loc_id: [] });
    await page.goto(`${portal}/cp_locs/${site.data.loc_id}`);
    await page.getByText('操作權限不足或帳號已登出').waitFor();
    assert.match(page.url(), /\/error\/403/);
    await screenshot(page, '10-forbidden');
    assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => /token/i.test(k)).length), 0);
  });

  it('shows disabled chargers once the default "enabled" filter is removed', async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Filter Demo Site' });
    await api('POST', '/api/cps', { cp_no: 'E2E-ON', name: 'on', loc_id: site.data.loc_id });
    await api('POST', '/api/cps', { cp_no: 'E2E-OFF', name: 'off', loc_id: site.data.loc_id, enable_flag: 0 });
    await signIn(page, 'admin', adminPassword);
    await page.goto(`${portal}/cps`);
    await page.getByText('E2E-ON').waitFor();
    assert.equal(await page.getByText('E2E-OFF').count(), 0);
    await page.getByTestId('filter-tags').locator('.ant-tag-close-icon').first().click();
    await page.getByText('E2E-OFF').waitFor();
    await screenshot(page, '11-chargers-all');
  });

  it('adds the screens a resource declares beside the generic ones: zone assignment, the users form rules', async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Override Site' });
    const zone = await api('POST', '/api/cp_zones', { loc_id: site.data.loc_id, name_chi: 'Level 3', max_physical_current_limit: 200 });
    await api('POST', '/api/cps', { cp_no: 'E2E-ZONE', name: 'zone charger', loc_id: site.data.loc_id });
    await page.goto(`${portal}/cp_zones/${zone.data.zone_id}`);
    // The page is in the language the earlier tests left it in.
    await page.getByRole('tab', { name: /^(Charger assignment|充電樁分配)$/ }).click();
    await page.getByText('E2E-ZONE').waitFor();
    await screenshot(page, '12-zone-assignment');

    // The site list is off while "All Sites" is ticked (a rule of the users definition, not of the form code).
    await page.goto(`${portal}/users/create`);
    const sites = page.locator('.ant-form-item').filter({ has: page.getByText(/^(Sites|充電站)$/) }).locator('.ant-select');
    await sites.waitFor();
    assert.match((await sites.getAttribute('class')) ?? '', /ant-select-disabled/);
    await page.locator('.ant-form-item').filter({ has: page.getByText(/^(All Sites|所有充電站)$/) }).locator('button[role=switch]').click();
    await page.waitForFunction(() => !document.querySelector('.ant-select-disabled'));
    await screenshot(page, '13-user-sites-enabled');
  });

  it('opens /{key}/{search}/search as the list filtered by the term, a filter tag the user can remove', async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Search Demo Site' });
    for (const cp_no of ['SEARCH-A1', 'SEARCH-A2', 'SEARCH-B1']) {
      await api('POST', '/api/cps', { cp_no, name: cp_no.toLowerCase(), loc_id: site.data.loc_id });
    }
    const found = async () => (await tableRows(page)).flat().filter((c) => /^SEARCH-/.test(c)).sort();

    // Chargers: the term filters the charger number (the definition's title column).
    await page.goto(`${portal}/cps/SEARCH-A/search`);
    await page.getByText('SEARCH-A1', { exact: true }).waitFor();
    assert.deepEqual(await found(), ['SEARCH-A1', 'SEARCH-A2']);
    const tag = page.getByTestId('filter-tags').locator('.ant-tag', { hasText: 'SEARCH-A' });
    await tag.waitFor();
    await screenshot(page, '14-search-chargers');
    await tag.locator('.ant-tag-close-icon').click();
    await page.getByText('SEARCH-B1', { exact: true }).waitFor();
    assert.deepEqual(await found(), ['SEARCH-A1', 'SEARCH-A2', 'SEARCH-B1']);

    // Sites: the address.
    await page.goto(`${portal}/cp_locs/${encodeURIComponent('Search Demo')}/search`);
    await page.getByTestId('filter-tags').locator('.ant-tag', { hasText: 'Search Demo' }).waitFor();
    await page.locator('tr.ant-table-row', { hasText: 'Search Demo Site' }).waitFor();
    assert.equal((await tableRows(page)).length, 1);
    await screenshot(page, '15-search-sites');
  });

  it("shows a charger's connectors as a table on its view page", async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Connector Site' });
    const cp = await api('POST', '/api/cps', { cp_no: 'E2E-CONN', name: 'connectors', loc_id: site.data.loc_id, ocpp_password: 'conn-pass-1' });
    const id = cp.data.cp_id;
    // A charger with two connectors boots, reports every connector, and a car is plugged into the first.
    const sim = new SimulatedCharger({ url: ocppUrl, cpNo: 'E2E-CONN', password: 'conn-pass-1', connectors: 2, reconnect: false });
    try {
      await sim.start();
      await sim.plugIn(1);
      await eventually(async () => {
        const connectors = (await api('GET', `/api/cps/${id}`)).cp_connectors as { status: string }[];
        // The physical connectors: connector 0 (the charge point as a whole) is not one.
        return connectors.length === 2 && connectors.some((c) => c.status === 'Preparing');
      }, 'the connectors of E2E-CONN');
    } finally {
      await sim.stop();
    }

    await page.goto(`${portal}/cps/${id}`);
    const table = page.locator('.ant-descriptions .ant-table');
    await table.waitFor();
    const read = async () => ({
      headers: (await table.locator('thead th').allTextContents()).map((s) => s.trim()),
      rows: await table.locator('tbody tr.ant-table-row').evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
      ),
    });
    // The page is in the language the earlier tests left it in (Traditional Chinese). The simulator has stopped:
    // each connector is Offline, with what it last reported beside it.
    let { headers, rows } = await read();
    assert.deepEqual(headers, ['充電槍編號', '狀態', '最後已知狀態（離線）', '錯誤代碼', '最後狀態更新']);
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [['1', '離線', '準備中'], ['2', '離線', '可用']]);
    assert.match(rows[0][4], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(await page.locator('.ant-descriptions pre').count(), 0, 'no raw JSON block');
    await screenshot(page, '16-charger-connectors-zh-TW');

    await useLanguage(page, 'en');
    await table.locator('thead th', { hasText: 'Connector ID' }).waitFor();
    ({ headers, rows } = await read());
    assert.deepEqual(headers, ['Connector ID', 'Status', 'Last Known Status (offline)', 'Error Code', 'Last Status Update']);
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [['1', 'Offline', 'Preparing'], ['2', 'Offline', 'Available']]);
    await screenshot(page, '17-charger-connectors-en');
  });

  it('fits or scrolls every list on a 1440 × 900 screen, with the action column in reach', async () => {
    const site = await api('POST', '/api/cp_locs', { address: 'Wide List Site' });
    for (let i = 1; i <= 20; i++) await api('POST', '/api/cps', { cp_no: `WIDE-${String(i).padStart(2, '0')}`, name: `wide ${i}`, loc_id: site.data.loc_id });
    await page.setViewportSize({ width: 1440, height: 900 });
    const pageOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    for (const lang of ['en', 'zh-TW'] as const) {
      await page.goto(`${portal}/cps`);
      await useLanguage(page, lang);
      await page.getByText('WIDE-20', { exact: true }).waitFor();
      const body = page.locator('.ant-table-body');
      const { scrollWidth, clientWidth } = await body.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      // The default columns do not fit: the table scrolls sideways inside the card, the page does not.
      assert.ok(scrollWidth > clientWidth, `chargers list ${scrollWidth} px in ${clientWidth} px`);
      assert.ok((await pageOverflow()) <= 0, 'the page is no wider than the window');
      // With the table's end below the window, a scroll bar sticks to the window's bottom.
      const bar = await page.locator('.ant-table-sticky-scroll-bar').boundingBox();
      assert.ok(bar && bar.y > 850 && bar.y + bar.height <= 900, `sticky scroll bar at ${JSON.stringify(bar)}`);
      const view = await page.locator('tr.ant-table-row').first().getByRole('button').first().boundingBox();
      assert.ok(view && view.x + view.width <= 1440, 'row actions within the window');
      await screenshot(page, `18-chargers-1440-${lang}`, { fullPage: false });

      // Scrolled to the end, every column stands clear of the fixed action column.
      await body.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await page.waitForTimeout(300);
      const heads = await page.locator('.ant-table-thead th:not(.ant-table-cell-scrollbar)').evaluateAll((ths) =>
        ths.map((th) => ({ text: th.textContent?.trim(), left: th.getBoundingClientRect().left, right: th.getBoundingClientRect().right })),
      );
      const actions = heads.at(-1)!;
      assert.match(actions.text ?? '', /^(Actions|操作)$/);
      for (const h of heads.slice(0, -1)) assert.ok(h.right <= actions.left + 1, `${h.text} ends at ${h.right}, actions start at ${actions.left}`);
      await screenshot(page, `19-chargers-1440-scrolled-${lang}`, { fullPage: false });
    }

    // Every list of the menu: no page wider than the window; a table wider than its card scrolls, actions at its right.
    const menu = page.locator('.ant-layout-sider');
    for (const group of await menu.locator('.ant-menu-submenu-title').all()) {
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    }
    const keys = (await menu.locator('.ant-menu-item a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))
      .map((href) => href.replace(/^.*\/portal\//, ''))
      .filter((key) => getResource(key));
    assert.ok(keys.includes('cps') && keys.includes('cp_requests'), `menu lists: ${keys}`);
    for (const key of keys) {
      await page.goto(`${portal}/${key}`);
      await page.locator('.ant-table-body').waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      assert.ok((await pageOverflow()) <= 0, `${key}: the page is no wider than the window`);
      const fit = await page.locator('.ant-table-body').evaluate((el) => {
        const th = [...document.querySelectorAll('.ant-table-thead th:not(.ant-table-cell-scrollbar)')].at(-1)!;
        return {
          scrolls: el.scrollWidth > el.clientWidth,
          overflowX: getComputedStyle(el).overflowX,
          lastRight: th.getBoundingClientRect().right,
          bodyRight: el.getBoundingClientRect().right,
        };
      });
      if (fit.scrolls) assert.match(fit.overflowX, /auto|scroll/, `${key} scrolls`);
      assert.ok(fit.lastRight <= fit.bodyRight + 1, `${key}: the last column (actions) is in view`);
    }
  });
});
