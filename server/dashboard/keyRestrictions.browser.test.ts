// A key restricted to web origins, in Chromium (issue 32): signed in through the real SMTP sink, a key is made and
// its settings page lists the origin of "our site" (a page served from another port); that page's fetch with the key
// is served, and the same page served from a third port (another site) is refused with 403 key_restricted, which
// the browser can read (CORS *). The settings page at 360 px and at desktop width, in English and Turkish, with an
// invalid entry's message too, is axe clean; it works without JavaScript (a plain form).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, screenshot } from '../../testing/browser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtpSink.js';

const REPO_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const screenshotFile = (name: string): string =>
  process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(`${REPO_SCREENSHOTS}${name}`) ? `${REPO_SCREENSHOTS}${name}` : path.join(tmpdir(), `prayer-times-${name}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sink: SmtpSink;
let server: RunningServer;
let browser: Browser;
let base = '';
/** Two "web sites" of the test's own, each on its port: the key's own, and another. */
let ownSite: Server;
let otherSite: Server;
let ownOrigin = '';
let otherOrigin = '';

/** A page that calls the API from the browser with the key it is given (window.callApi). */
const sitePage = (): string => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A site</title></head><body><main><h1>A site</h1></main>
<script>
window.callApi = async (key) => {
  const response = await fetch(${JSON.stringify('API_BASE')} + '/api/v1/qibla?lat=41&lon=29', { headers: { 'X-API-Key': key } });
  return { status: response.status, body: await response.json() };
};
</script></body></html>`;

async function startSite(): Promise<{ site: Server; origin: string }> {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(sitePage().replace('"API_BASE"', JSON.stringify(base)));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { site, origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({ SMTP_URL: sink.url });
  base = `http://localhost:${server.port}`;
  ({ site: ownSite, origin: ownOrigin } = await startSite());
  ({ site: otherSite, origin: otherOrigin } = await startSite());
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.close();
  for (const site of [ownSite, otherSite]) await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${formatViolations(violations)}`).toEqual([]);
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in?lang=en`);
  await page.fill('#email', email);
  await page.click('form[action="/dashboard/sign-in/email"] button[type="submit"]');
  await page.waitForURL(`${base}/dashboard/sign-in/email`);
  const mail = sink.messages.filter((m) => m.envelopeTo.includes(email) && m.code !== '').pop()!;
  await page.fill('#code', mail.code);
  await page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]');
  await page.waitForURL(`${base}/dashboard`);
}

async function callFrom(page: Page, origin: string, key: string): Promise<{ status: number; body: any }> {
  await page.goto(`${origin}/`);
  return page.evaluate((k) => (globalThis as unknown as { callApi(key: string): Promise<{ status: number; body: any }> }).callApi(k), key);
}

describe('a key restricted to web origins, in the browser', () => {
  it('is served from its own site and refused from another, after the settings page says so', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
      page.on('console', (message) => {
        if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
      });
      await signIn(page, 'browser.restrict@example.com');
      await page.goto(`${base}/dashboard/keys?lang=en`);
      await page.fill('#key-name', 'Site widget');
      await page.click('form[action="/dashboard/keys"] button[type="submit"]');
      const key = (await page.locator('code.new-key').innerText()).trim();
      expect(key).toMatch(/^mk_[0-9A-Za-z]{32}$/);
      await sleep(1100);
      // Unrestricted: both sites may use it.
      expect((await callFrom(page, ownOrigin, key)).status).toBe(200);
      expect((await callFrom(page, otherOrigin, key)).status).toBe(200);

      // The list links to the settings page.
      await page.goto(`${base}/dashboard/keys`);
      await page.getByRole('link', { name: /^Site widget \(mk_/ }).click();
      await page.waitForURL(/\/dashboard\/keys\/[0-9a-f]{16}$/);
      const settingsUrl = page.url();
      expect(await page.locator('h1').innerText()).toBe('Key settings: Site widget');
      await expectAccessible(page, 'key settings (en, desktop)');

      // An invalid entry: its message beside the field, the text kept.
      await page.fill('#key-origins', `${ownOrigin}/path`);
      await page.click('form.key-settings button[type="submit"]');
      expect(await page.locator('#key-origins-error').innerText()).toContain('is not an origin');
      expect(await page.locator('#key-origins').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'key settings with an invalid origin');

      await page.fill('#key-origins', ownOrigin);
      await page.fill('#key-name', 'Site widget (public)');
      await page.click('form.key-settings button[type="submit"]');
      await page.waitForURL(`${settingsUrl}?saved=1`);
      expect(await page.locator('[role="status"]').innerText()).toContain('Saved.');
      expect(await page.locator('#key-origins').inputValue()).toBe(ownOrigin);
      await screenshot(page, screenshotFile('dashboard-key-settings.png'));
      await sleep(1100);

      const own = await callFrom(page, ownOrigin, key);
      expect(own.status).toBe(200);
      expect(own.body.bearing).toBeTypeOf('number');
      const other = await callFrom(page, otherOrigin, key);
      expect(other.status).toBe(403);
      expect(other.body.error.code).toBe('key_restricted');
      expect(other.body.error.message).toContain(`Origin ${otherOrigin} is not one of them`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the settings page at 360 px and desktop, English and Turkish, is axe clean and needs no JavaScript', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1200, height: 800 } });
      try {
        const page = await context.newPage();
        await signIn(page, javaScriptEnabled ? 'layout.restrict@example.com' : 'nojs.restrict@example.com');
        await page.goto(`${base}/dashboard/keys`);
        await page.fill('#key-name', 'Server');
        await page.click('form[action="/dashboard/keys"] button[type="submit"]');
        await page.goto(`${base}/dashboard/keys`);
        await page.getByRole('link', { name: /^Server \(mk_/ }).click();
        await page.waitForURL(/\/dashboard\/keys\/[0-9a-f]{16}$/);
        const settingsUrl = page.url();
        // Layout and axe with JavaScript on (axe runs as a script); the form alone without it.
        for (const language of javaScriptEnabled ? (['en', 'tr'] as const) : []) {
          for (const width of [360, 1280]) {
            await page.setViewportSize({ width, height: 800 });
            await page.goto(`${settingsUrl}?lang=${language}`);
            expect(await page.locator('html').getAttribute('lang')).toBe(language);
            // Nothing wider than the screen.
            expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(width);
            await expectAccessible(page, `key settings (${language}, ${width} px)`);
            if (language === 'en' && width === 360) await screenshot(page, screenshotFile('dashboard-key-settings-360.png'));
          }
        }
        // The form works as it is: save a range, see it back.
        await page.setViewportSize({ width: 360, height: 800 });
        await page.goto(`${settingsUrl}?lang=en`);
        await page.fill('#key-ranges', '203.0.113.0/24\n2001:DB8::/32');
        await page.click('form.key-settings button[type="submit"]');
        await page.waitForURL(`${settingsUrl}?saved=1`);
        expect(await page.locator('#key-ranges').inputValue()).toBe('203.0.113.0/24\n2001:db8::/32');
      } finally {
        await context.close();
      }
    }
  });
});
