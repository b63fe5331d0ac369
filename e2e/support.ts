import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { SimulatedCharger, SimulatedCharger201, type SimulatedChargerOptions } from '@ev/simulator';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080';
export const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? 'admin';
export const portal = `${baseUrl}/portal`;
/** Where simulated chargers connect (the charger id follows). */
export const ocppUrl = `${baseUrl.replace(/^http/, 'ws')}/ocpp`;
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    // Headless Chromium hides scroll bars by default: show them, so that screenshots show what a user sees.
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
}

/**
 * Saves e2e/screenshots/<name>.png so that a person can look at what the test saw: the whole page,
 * or only the window (`fullPage: false`) where what sticks to the window's edges matters.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(shots, { recursive: true });
  // antd animates menus, modals and dropdowns for about 0.3 s: let them settle so the picture shows the end state.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${shots}${name}.png`, fullPage });
}

/** Sets the portal's language (kept in local storage) and reloads the page in it. */
export async function useLanguage(page: Page, lang: 'en' | 'zh-TW'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('lang', l), lang);
  await page.reload();
}

/** Calls the API directly (test set-up), as admin unless a token is given. */
export async function api(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const auth = token ?? (await adminToken());
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

let cachedToken: string | undefined;
async function adminToken(): Promise<string> {
  if (cachedToken) return cachedToken;
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: adminPassword }),
  });
  cachedToken = ((await res.json()) as { token: string }).token;
  return cachedToken;
}

/** Signs in through the login form (admin unless told), by the form's structure: the page may be in either language. */
export async function signIn(page: Page, username = 'admin', password = adminPassword): Promise<void> {
  await page.goto(`${portal}/login`);
  await page.locator('form input').first().fill(username);
  await page.locator('form input[type=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.getByTestId('user-menu').waitFor();
}

/** A browser of its own with one page, at `viewport`, signed in as the admin: where most browser tests start. */
export async function signedInPage(viewport = { width: 1400, height: 900 }): Promise<{ browser: Browser; page: Page }> {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport });
    await signIn(page);
    return { browser, page };
  } catch (err) {
    await browser.close(); // the test's own `after` never got it
    throw err;
  }
}

/** How many pixels of the chart's canvas (by its test id) have been drawn on: 0 for an empty canvas. */
export async function drawnPixels(page: Page, testId: string): Promise<number> {
  const canvas = page.getByTestId(testId).locator('canvas').first();
  await canvas.waitFor();
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
    return drawn;
  });
}

/** Polls check until it holds (state the server writes after a socket event); throws naming what was awaited. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until a charger has reported this many physical connectors (its boot's StatusNotifications are stored). */
export async function connectorsReported(cpId: number, count: number): Promise<void> {
  await eventually(async () => {
    const res = await api('GET', `/api/cp_connectors?cp_id=${cpId}&size=10`);
    return res.dataset.content.length >= count;
  }, `the connectors of charger ${cpId}`, 15_000);
}

/**
 * A button's accessible name: antd writes a space between two CJK characters of a button ('確 定'), and a button that
 * was loading can keep its hidden loading icon (aria-label "loading") when the icon's leave motion never ends in
 * headless Chromium.
 */
export const buttonName = (text: string) => new RegExp(`^(loading\\s+)?${[...text].join('\\s*')}$`);

/** Picks an option of the select in the form item labelled `item`. */
export async function pickOption(page: Page, item: RegExp, option: string): Promise<void> {
  await page.locator('.ant-form-item').filter({ has: page.locator('label').getByText(item) }).locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** Clicks `button`, waits for the confirmation titled `title` and confirms it with `ok`. */
export async function clickAndConfirm(page: Page, button: string, title: string, ok: string): Promise<void> {
  await page.getByRole('button', { name: buttonName(button) }).click();
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.locator('.ant-modal-confirm-title').getByText(title, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: buttonName(ok) }).click();
  await dialog.waitFor({ state: 'detached', timeout: 20_000 });
}

type ConnectedOptions = Omit<SimulatedChargerOptions, 'url' | 'cpNo' | 'password'> & { connectors: number };

/**
 * A site named `site`, a charger `cpNo` on it with an OCPP password, and a simulated charger connected as it
 * whose boot's StatusNotifications are stored (every connector listed).
 */
export function connectedCharger(site: string, cpNo: string, options: ConnectedOptions): Promise<{ cpId: number; sim: SimulatedCharger }> {
  return connected(site, cpNo, options, (o) => new SimulatedCharger(o));
}

/** The same with an OCPP 2.0.1 station of the simulator. */
export function connectedStation201(site: string, cpNo: string, options: ConnectedOptions): Promise<{ cpId: number; sim: SimulatedCharger201 }> {
  return connected(site, cpNo, options, (o) => new SimulatedCharger201(o));
}

async function connected<T extends { start(): Promise<unknown> }>(
  site: string,
  cpNo: string,
  options: ConnectedOptions,
  make: (options: SimulatedChargerOptions) => T,
): Promise<{ cpId: number; sim: T }> {
  const { cpId, password } = await registered(site, cpNo);
  const sim = make({ url: ocppUrl, cpNo, password, ...options });
  await sim.start();
  await connectorsReported(cpId, options.connectors);
  return { cpId, sim };
}

/** A site and a charger on it, with a password of its own. */
async function registered(site: string, cpNo: string): Promise<{ cpId: number; password: string }> {
  const loc = await api('POST', '/api/cp_locs', { address: site });
  const password = `${cpNo.toLowerCase()}-pass-1`;
  const cp = await api('POST', '/api/cps', { cp_no: cpNo, name: `${site} charger`, loc_id: loc.data.loc_id, ocpp_password: password });
  return { cpId: cp.data.cp_id, password };
}

/** The tooltip a disabled button shows on hover: the reason it is off. */
export async function disabledReason(page: Page, button: Locator): Promise<string> {
  // A disabled button takes no pointer events: hover the wrapper antd's Tooltip listens on.
  await button.locator('xpath=..').hover();
  const tip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-container, .ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-inner').last();
  await tip.waitFor();
  const text = (await tip.textContent())?.trim() ?? '';
  await page.mouse.move(0, 0);
  return text;
}
