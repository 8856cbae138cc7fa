// /pricing and the billing page's prices in Chromium (testing/browser.ts), on a 360 px phone and a 1280 px desktop, light
// and dark: every plan's price is shown (visible, inside the viewport, the plan table's), the trial is said to be free
// and not to end, nothing scrolls sideways and axe-core finds no WCAG 2.1 AA violation; the billing page the same in
// Turkish and English after a sign-in by e-mail code, reached from /pricing's link. (A PLANS_FILE override's prices:
// pricing.test.ts, over HTTP.) The phone's /pricing is the README's screenshot, docs/screenshots/pricing-phone.png.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, screenshot } from '../../testing/browser.js';
import { outboxMail } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const VIEWPORTS = [
  ['a 360 px phone', { width: 360, height: 800 }],
  ['a 1280 px desktop', { width: 1280, height: 800 }],
] as const;
// The screenshot in the repo is rewritten when UPDATE_SCREENSHOTS=1 or when missing; other runs write to a temporary folder.
const REPO_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const screenshotFile = (name: string): string =>
  process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(`${REPO_SCREENSHOTS}${name}`) ? `${REPO_SCREENSHOTS}${name}` : path.join(tmpdir(), `prayer-times-${name}`);

let server: RunningServer;
let base: string;
let launching: Promise<Browser>;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  server = await startServer();
  base = `http://localhost:${server.port}`;
  // Signed in by e-mail code (no SMTP_URL: the message is in DATA_DIR/outbox), a new address: a trial account.
  const context = await (await launching).newContext();
  try {
    const page = await context.newPage();
    const email = 'prices.browser@example.com';
    await page.goto(`${base}/pricing`);
    // The link's target, /dashboard with no session, is the sign-in page under the same name.
    await Promise.all([page.waitForURL((url) => url.pathname === '/dashboard'), page.click('main a[href="/dashboard"]')]);
    expect(await page.locator('h1').innerText()).toBe('Sign in or create an account');
    await page.fill('#email', email);
    await Promise.all([page.waitForURL(`${base}/dashboard/sign-in/email`), page.click('form[action="/dashboard/sign-in/email"] button[type="submit"]')]);
    await page.fill('#code', (await outboxMail(server.dataDir, email)).code);
    await Promise.all([page.waitForURL((url) => url.pathname === '/dashboard'), page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]')]);
    signedIn = await context.storageState();
  } finally {
    await context.close();
  }
}, 90_000);

afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

/** The visible text of the cells labelled Price on /pricing, each with whether it lies inside the viewport. */
const priceCells = (page: Page): Promise<Array<{ plan: string; text: string; inside: boolean; visible: boolean }>> =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    return [...doc.querySelectorAll('tr[id] td[data-label="Price"]')].map((cell: any) => {
      const box = cell.getBoundingClientRect();
      const style = (globalThis as any).getComputedStyle(cell);
      return {
        plan: cell.parentElement.id,
        text: String(cell.innerText).trim(),
        inside: box.left >= -0.5 && box.right <= width + 0.5,
        visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none',
      };
    });
  });

const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth > (globalThis as any).document.documentElement.clientWidth);

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${formatViolations(violations)}`).toEqual([]);
}

describe.each(VIEWPORTS)('on %s', (_, viewport) => {
  it('/pricing shows every plan’s price from the plan table, says the trial is free and does not end; no sideways scroll; axe clean, light and dark', async () => {
    const { page, status, problems, close } = await openPage(await launching, `${base}/pricing`, { viewport });
    try {
      expect(status).toBe(200);
      expect(await priceCells(page)).toEqual([
        { plan: 'trial', text: expect.stringMatching(/^(?:Price\s*)?Free, no card$/), inside: true, visible: true },
        { plan: 'pro', text: expect.stringMatching(/^(?:Price\s*)?9 USD a month$/), inside: true, visible: true },
        { plan: 'business', text: expect.stringMatching(/^(?:Price\s*)?49 USD a month$/), inside: true, visible: true },
      ]);
      await expect(page.locator('#trial-ends').isVisible()).resolves.toBe(true);
      expect(await page.locator('#trial-ends').innerText()).toContain('The trial does not end');
      expect(await page.locator('main a[href="/dashboard"]').innerText()).toBe('Sign in or create an account');
      expect(await scrollsSideways(page)).toBe(false);
      if (viewport.width === 360) await screenshot(page, screenshotFile('pricing-phone.png'));
      await expectAccessible(page, `/pricing at ${viewport.width} px, light`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page, `/pricing at ${viewport.width} px, dark`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it.each([
    ['en', 'Free, no card; the trial does not end', '9 USD a month', '49 USD a month'],
    ['tr', 'Ücretsiz, kart istenmez; deneme planının süresi dolmaz', 'aylık 9 USD', 'aylık 49 USD'],
  ] as const)('the billing page in %s shows the trial’s price and each paid plan’s; axe clean', async (language, trial, pro, business) => {
    const { page, status, problems, close } = await openPage(await launching, `${base}/dashboard/billing?lang=${language}`, {
      viewport,
      context: { storageState: signedIn },
    });
    try {
      expect(status).toBe(200);
      const main = page.locator('main');
      for (const text of [trial, pro, business]) await expect(main.getByText(text, { exact: true }).first().isVisible(), text).resolves.toBe(true);
      expect(await scrollsSideways(page)).toBe(false);
      await expectAccessible(page, `billing (${language}) at ${viewport.width} px`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
