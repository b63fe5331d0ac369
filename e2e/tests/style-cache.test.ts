import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { portal, signedInPage } from '../support.ts';

/**
 * antd's styles kept between visits (issue 30, packages/web/src/app/style-cache.ts): what one visit generated is
 * put back before the next one draws, and antd takes it instead of generating it again.
 */
describe('antd styles kept between visits', () => {
  let browser: Browser;
  let page: Page;
  const stored = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('antd-styles:')));

  before(async () => {
    ({ browser, page } = await signedInPage());
  });
  after(async () => {
    await browser?.close();
  });

  it('draws a reloaded list with the kept styles, and drops another antd version\'s', async () => {
    await page.goto(`${portal}/cp_requests`);
    await page.locator('.ant-table-thead th').first().waitFor();
    await page.reload(); // leaving the page keeps its styles
    await page.locator('.ant-table-thead th').first().waitFor();
    const [key] = await stored();
    assert.ok(key, 'the styles were kept');

    // Mark every kept style: antd that generated a style again would write its own text over the mark.
    await page.evaluate((k) => {
      const kept = JSON.parse(localStorage.getItem(k)!) as { map: string; styles: { css: string }[] };
      for (const style of kept.styles) style.css += '/*kept*/';
      localStorage.setItem(k, JSON.stringify(kept));
      localStorage.setItem('antd-styles:0.0.1', '{"map":"x:y","styles":[]}');
    }, key);
    await page.reload();
    await page.locator('.ant-table-tbody tr.ant-table-row, .ant-table-placeholder').first().waitFor();

    const tableStyles = await page.evaluate(() =>
      [...document.querySelectorAll('head > style[data-css-hash]')].map((s) => s.textContent ?? '').filter((css) => css.includes('.ant-table-thead')),
    );
    assert.ok(tableStyles.length > 0, 'the table\'s style is in the page');
    assert.ok(tableStyles.every((css) => css.endsWith('/*kept*/')), 'the table\'s style is the kept one, not generated again');
    // And it applies: the header cells (but the sorted column's) have antd's header background.
    const headerBg = await page.locator('.ant-table-thead th:not(.ant-table-column-sort)').first().evaluate((th) => getComputedStyle(th).backgroundColor);
    assert.equal(headerBg, 'rgb(250, 250, 250)');
    assert.deepEqual(await stored(), [key], 'only this antd version\'s styles are kept');
  });

  it('draws as usual over kept styles it cannot read, and keeps good ones again', async () => {
    const [key] = await stored();
    await page.evaluate((k) => localStorage.setItem(k, '{"map":"a:b","styles":[{"attrs":5}]}'), key);
    await page.reload();
    await page.locator('.ant-table-tbody tr.ant-table-row, .ant-table-placeholder').first().waitFor();
    await page.reload(); // leaving saves what this visit generated
    await page.locator('.ant-table-thead th').first().waitFor();
    const kept = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)!) as { styles: unknown[] }, key);
    assert.ok(kept.styles.length > 10, `${kept.styles.length} styles kept`);
  });
});
