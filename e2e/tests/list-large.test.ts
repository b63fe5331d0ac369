import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { api, eventually, portal, screenshot, signedInPage, useLanguage } from '../support.ts';

/**
 * A 200-row page (issue 30, big list pages): its rows are drawn in steps (resources/list/deferred-rows.tsx),
 * yet it shows, filters, sorts, selects and offers row actions as a small page does. Chargers: the list with
 * mass-update selection and a 200-row page size.
 */
describe('a 200-row list page', () => {
  let browser: Browser;
  let page: Page;
  const stamp = `LG${Date.now() % 100000}`;
  const cpNo = (i: number) => `${stamp}-${String(i).padStart(3, '0')}`;
  const rows = () => page.locator('.ant-table-tbody tr.ant-table-row');
  const cpNos = async () => (await rows().locator('td:nth-child(3)').allTextContents()).map((s) => s.trim());
  const allDrawn = (count: number) => eventually(async () => (await rows().count()) === count, `${count} rows drawn`, 30_000);

  before(async () => {
    const site = await api('POST', '/api/cp_locs', { address: `Large list site ${stamp}` });
    for (let i = 1; i <= 230; i++) await api('POST', '/api/cps', { cp_no: cpNo(i), name: cpNo(i), loc_id: site.data.loc_id });
    ({ browser, page } = await signedInPage());
    await page.evaluate(() => localStorage.setItem('list:cps', JSON.stringify({ size: 200 })));
  });
  after(async () => {
    await browser?.close();
  });

  it('filters, sorts both ways, selects all 200 and opens the last row', async () => {
    await page.goto(`${portal}/cps`);
    await useLanguage(page, 'en');
    await allDrawn(200);

    // Filter by the charger number: a tag, and 200 of the 230 matching chargers on the page.
    const header = page.locator('.ant-table-thead th').filter({ hasText: /^Charger No\.$/ });
    const filterBy = async (text: string) => {
      const input = page.locator('.ant-table-filter-dropdown input');
      // The trigger toggles: it opens the box only where it is not open already (a retry).
      if (!(await input.isVisible())) await header.locator('.ant-table-filter-trigger').click();
      await input.fill(text);
      await eventually(async () => (await input.inputValue()) === text, 'the typed filter in its box');
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
    };
    const tag = page.getByTestId('filter-tags').getByText(stamp, { exact: false });
    await filterBy(stamp);
    try {
      await tag.waitFor({ timeout: 15_000 });
    } catch {
      // Once in CI the filter was applied without its text (no tag in 30 s), never locally: the case is printed
      // and tried once more, so that what follows (filtered rows, sorting, selection) is still checked.
      console.log(`# list-large: no filter tag 15 s after Filter; box now "${await page.locator('.ant-table-filter-dropdown input').inputValue().catch(() => '(closed)')}"`);
      await filterBy(stamp);
      await tag.waitFor();
    }
    await eventually(async () => (await cpNos()).every((n) => n.startsWith(stamp)), 'only the filtered chargers');
    await allDrawn(200);
    await page.getByText('Total 230 entries', { exact: false }).waitFor();

    // Sorted by number, ascending then descending: every row of the page in order.
    const sorted = async (order: 'asc' | 'desc', first: number, last: number) => {
      const answer = page.waitForResponse((r) => r.url().includes('sort_by=cp_no') && r.url().includes(`order=${order}`));
      await header.click();
      await answer;
      await eventually(async () => (await cpNos())[0] === cpNo(first), `${cpNo(first)} first`);
      await allDrawn(200);
      const nos = await cpNos();
      assert.equal(nos.at(-1), cpNo(last));
      assert.deepEqual(nos, [...nos].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
    };
    await sorted('asc', 1, 200);
    await sorted('desc', 230, 31);
    await screenshot(page, 'list-large-sorted', { fullPage: false });

    // Select all: every row of the page, the mass update offered.
    await page.locator('.ant-table-thead th.ant-table-selection-column input').check();
    await page.getByText('200 selected').waitFor();
    assert.equal(await page.locator('.ant-table-tbody tr.ant-table-row-selected').count(), 200);
    assert.equal(await page.getByRole('button', { name: 'Mass update' }).isEnabled(), true);

    // The last row's own view button, with its tooltip.
    const last = rows().last();
    await last.scrollIntoViewIfNeeded();
    const view = last.getByRole('button', { name: 'View' });
    await view.hover();
    await page.locator('.ant-tooltip').getByText('View', { exact: true }).waitFor();
    await view.click();
    await page.waitForURL(/\/cps\/\d+$/);
    await page.getByText(cpNo(31)).first().waitFor();
  });
});
