/**
 * The portal in a real browser (issue 30): Debian's Chromium driven by Playwright against the built
 * portal, served by the real server (PostgreSQL with BENCH_DATABASE_URL, else PGlite).
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/portal-browser.ts
 *
 * Options: --runs N (per timing, 10), --rows N (cp_requests rows seeded, 5000).
 * Prints
 * - bytes on the wire (compressed, as the browser received them) and files: to the sign-in page, and from the
 *   sign-in page (signing in through its form, the home page on the way) to the first list, to a charger's
 *   view, to the LMS dashboard, each in a fresh browser (cold cache);
 * - time from navigation to the cp_requests list's rows shown, at 20 and 200 rows a page, and from a click
 *   to re-sort a 200-row page, median and p95, with the assets cached (an operator's browser keeps them), beside the
 *   floor: a bare page that fetches the same API answer and draws it as a plain HTML table, and the ratio.
 *   A big page draws its rows in steps (resources/list/deferred-rows.tsx), so "shown" is when the drawn rows
 *   fill the window (or all the page's rows are drawn, if fewer): what the operator sees. The time until all
 *   of the page's rows are in the DOM is printed beside it.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.ts';

const runs = numberOption('runs', 10);
const rows = numberOption('rows', 5000);
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const { startTestServer, TEST_ADMIN_PASSWORD } = await import('../packages/server/src/testing/server.ts');
const { addCharger, addSite } = await import('../packages/server/src/testing/ocpp-support.ts');

// PORTAL_DIR: a build of one's own (as e2e/run.ts honours it), else the usual one.
const portalDir = process.env.PORTAL_DIR ?? fileURLToPath(new URL('../packages/web/dist', import.meta.url));
const s = await startTestServer({ portalDir, portalPath: '/portal/' });
const token = await s.login();
const locId = await addSite(s.db);
const cpId = await addCharger(s.db, 'BENCH-CP-1', { locId });
// Messages of the list's default types, with payloads of the size real ones have.
await s.db.query(
  `INSERT INTO cp_requests (request_type, cp_id, cp_no, connector_id, connector_status, request_data, response_data, cre_dttm, loc, uuid)
   SELECT (ARRAY[1, 2, 3, 4, 5, 7, 10, 14, 16])[1 + g % 9], $1, 'BENCH-CP-1', 1 + g % 2, 'Charging',
          jsonb_build_object('connectorId', 1 + g % 2, 'status', 'Charging', 'errorCode', 'NoError', 'timestamp', now() - g * interval '1 minute'),
          jsonb_build_object('currentTime', now() - g * interval '1 minute'), now() - g * interval '1 minute', $2, md5(g::text)
     FROM generate_series(1, $3) g`,
  [cpId, locId, rows],
);

const browser: Browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const portal = `${s.baseUrl}/portal`;
/** All `n` rows of the page drawn. */
const rowsDrawn = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length >= count, n, { timeout: 60_000 });
/** The window full of drawn rows (the last one reaches its bottom), or all `n` rows drawn. */
const rowsShown = (page: Page, n: number) =>
  page.waitForFunction((count) => {
    const drawn = document.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    return drawn.length >= count || (drawn.length > 0 && drawn[drawn.length - 1].getBoundingClientRect().bottom >= innerHeight);
  }, n, { timeout: 60_000 });

/** A context signed in (token in local storage, as the sign-in form leaves it) with the list at `size` rows a page. */
async function signedIn(size = 20): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(([t, n]) => {
    localStorage.setItem('token', t as string);
    localStorage.setItem('list:cp_requests', JSON.stringify({ size: n }));
  }, [token, size] as const);
  return context;
}

/** Bytes (as received, compressed) and files the page fetched while `step` ran. */
async function transferred(page: Page, step: () => Promise<unknown>): Promise<{ bytes: number; files: number }> {
  const sizes: Promise<number>[] = [];
  const listener = (r: import('playwright-core').Request) => sizes.push(r.sizes().then((x) => x.responseBodySize + x.responseHeadersSize));
  page.on('requestfinished', listener);
  await step();
  await page.waitForLoadState('networkidle');
  page.off('requestfinished', listener);
  const all = await Promise.all(sizes);
  return { bytes: all.reduce((a, b) => a + b, 0), files: all.length };
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
console.log(`cp_requests rows ${rows}, ${runs} runs per timing; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}\n`);
console.log('| step (cold cache) | bytes on the wire | files |');
console.log('|---|---:|---:|');
{
  const context = await browser.newContext();
  const page = await context.newPage();
  const r = await transferred(page, async () => {
    await page.goto(`${portal}/login`);
    await page.locator('form input[type=password]').waitFor();
  });
  console.log(`| to the sign-in page | ${kb(r.bytes)} | ${r.files} |`);
  await context.close();
}
for (const [name, path, ready] of [
  ['sign-in → the first list (cp_requests)', '/cp_requests', '.ant-table-tbody tr.ant-table-row'],
  ['sign-in → a charger\'s view', `/cps/${cpId}`, '.ant-descriptions, .ant-tabs'],
  ['sign-in → the LMS dashboard', '/lms/dashboard', '[data-testid=lms-dashboard]'],
] as const) {
  // From the sign-in page (its own files already there) through the form, the home page, then the screen:
  // what an operator's browser fetches on the way, on a first visit.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${portal}/login`);
  await page.locator('form input[type=password]').waitFor();
  await page.waitForLoadState('networkidle');
  const r = await transferred(page, async () => {
    await page.locator('form input').first().fill('admin');
    await page.locator('form input[type=password]').fill(TEST_ADMIN_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('user-menu').waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate((p) => {
      history.pushState({}, '', `/portal${p}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
  });
  console.log(`| ${name} | ${kb(r.bytes)} | ${r.files} |`);
  await context.close();
}

/** The nearest-rank percentile: the smallest value at least a fraction `p` of the values are not above. */
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)];

/** The list call the portal made for each page size: the bare page fetches the very same. */
const listCalls = new Map<number, string>();

/** Navigation to `size` rows shown (and all drawn) in the portal's list, assets cached (one warm-up load first). */
async function portalList(size: number): Promise<{ shown: number[]; drawn: number[] }> {
  const context = await signedIn(size);
  const page = await context.newPage();
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/cp_requests') listCalls.set(size, url.pathname + url.search);
  });
  await page.goto(`${portal}/cp_requests`);
  await rowsDrawn(page, size);
  const shown: number[] = [];
  const drawn: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await page.goto(`${portal}/cp_requests`);
    await rowsShown(page, size);
    shown.push(performance.now() - t);
    await rowsDrawn(page, size);
    drawn.push(performance.now() - t);
  }
  await context.close();
  return { shown, drawn };
}

/** The floor: the same API answer fetched and drawn as a plain HTML table, from a navigation on the same origin. */
async function barePage(size: number): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t = performance.now();
    await page.goto(`${s.baseUrl}/api/health`);
    await page.evaluate(async ([auth, call]) => {
      const res = await fetch(call, { headers: { authorization: `Bearer ${auth}` } });
      const { content } = ((await res.json()) as { dataset: { content: Record<string, unknown>[] } }).dataset;
      const keys = Object.keys(content[0]);
      const table = document.createElement('table');
      table.innerHTML = `<tr>${keys.map((k) => `<th>${k}</th>`).join('')}</tr>` +
        content.map((r) => `<tr>${keys.map((k) => `<td>${typeof r[k] === 'object' ? JSON.stringify(r[k]) : String(r[k] ?? '')}</td>`).join('')}</tr>`).join('');
      document.body.replaceChildren(table);
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    }, [token, listCalls.get(size)!] as const);
    if (i > 0) times.push(performance.now() - t); // the first is the warm-up
  }
  await context.close();
  return times;
}

/** Clicking a column's header on a 200-row page until the re-sorted rows are shown (and all drawn). */
async function resort(): Promise<{ shown: number[]; drawn: number[] }> {
  const context = await signedIn(200);
  const page = await context.newPage();
  await page.goto(`${portal}/cp_requests`);
  await rowsDrawn(page, 200);
  const firstId = () => page.locator('.ant-table-tbody tr.ant-table-row').first().getAttribute('data-row-key');
  const shown: number[] = [];
  const drawn: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = await firstId();
    // Timed from the click, the pointer already on the header as an operator's is (its hover hint drawn before).
    const header = page.locator('.ant-table-thead th.ant-table-column-has-sorters', { hasText: 'Request Type' });
    await header.hover();
    await page.waitForTimeout(300);
    const t = performance.now();
    await header.click();
    await page.waitForFunction((b) => document.querySelector('.ant-table-tbody tr.ant-table-row')?.getAttribute('data-row-key') !== b, before, { timeout: 60_000 });
    await rowsShown(page, 200);
    shown.push(performance.now() - t);
    await rowsDrawn(page, 200);
    drawn.push(performance.now() - t);
  }
  await context.close();
  return { shown, drawn };
}

console.log('\n| timing (assets cached) | median ms | p95 ms | all rows drawn, median ms | bare page median ms | ratio to bare (median) |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const size of [20, 200]) {
  const [own, bare] = [await portalList(size), await barePage(size)];
  const ratio = (pct(own.shown, 0.5) / pct(bare, 0.5)).toFixed(1);
  console.log(`| navigation → ${size} rows shown | ${pct(own.shown, 0.5).toFixed(0)} | ${pct(own.shown, 0.95).toFixed(0)} | ${pct(own.drawn, 0.5).toFixed(0)} | ${pct(bare, 0.5).toFixed(0)} | ${ratio} |`);
}
const sorted = await resort();
console.log(`| re-sort a 200-row page | ${pct(sorted.shown, 0.5).toFixed(0)} | ${pct(sorted.shown, 0.95).toFixed(0)} | ${pct(sorted.drawn, 0.5).toFixed(0)} | | |`);

await browser.close();
await s.close();
