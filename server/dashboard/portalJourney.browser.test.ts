// A developer's way through the dashboard in a real Chromium (testing/browser.ts), against the real server with a
// real SMTP sink: the address the start-up banner prints is where passkeys work (the DevTools virtual authenticator),
// and at 127.0.0.1 the passkey blocks say why not and link there; sign-in keeps the page asked for (code, passkey) and
// ignores a hostile one; "You are signed out"; permanent actions ask first with JavaScript off and on (revoking a key,
// removing a passkey, cancelling and ending a subscription through the local provider); the new key's Copy buttons
// and its curl; 360 px and desktop, English and Turkish, light and dark, axe-core's WCAG 2.1 AA checks. HTTP:
// portalJourney.test.ts.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, screenshot } from '../../testing/browser.js';
import { signInMail, type SignInMail } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const REPO_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const screenshotFile = (name: string): string =>
  process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(`${REPO_SCREENSHOTS}${name}`) ? `${REPO_SCREENSHOTS}${name}` : path.join(tmpdir(), `prayer-times-${name}`);

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1200, height: 800 };

let mails: SignInMail[] = [];
let smtp: SMTPServer;
let server: RunningServer;
let launching: Promise<Browser>;
/** The dashboard's address as the start-up banner prints it (http://localhost:<port>). */
let base: string;
/** The same server at its IP address, where passkeys cannot work. */
let byIp: string;

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push(signInMail(parsed));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` });
  // The banner's line, printed right after the listening line.
  let line: string | undefined;
  for (let waited = 0; !line && waited < 5000; waited += 50) {
    line = server.output.find((l) => l.startsWith('Serving on '));
    if (!line) await new Promise((r) => setTimeout(r, 50));
  }
  base = /the dashboard: (\S+)\/dashboard\b/.exec(line ?? '')![1];
  byIp = `http://127.0.0.1:${server.port}`;
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

interface Tab {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

async function newTab(options: { javaScript?: boolean; viewport?: { width: number; height: number }; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {}): Promise<Tab> {
  const context = await (await launching).newContext({ javaScriptEnabled: options.javaScript ?? true, viewport: options.viewport ?? DESKTOP, storageState: options.storageState });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return { page, context, problems };
}

const main = (page: Page): Promise<string> => page.locator('main').innerText();

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${formatViolations(violations)}`).toEqual([]);
}

/** At 360 px and on a desktop, in this language, light and dark: no sideways scroll, axe clean. */
async function expectGoodEverywhere(page: Page, what: string): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number), `${what} at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page, `${what} at ${viewport.width} px, ${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

/**
 * The same checks for a page reached without JavaScript, in a tab with it (Playwright's evaluate, which axe needs,
 * does not run where scripts are off): the same URL and cookies, so the same HTML.
 */
async function expectGoodAt(url: string, from: BrowserContext, what: string): Promise<void> {
  const tab = await newTab({ storageState: await from.storageState() });
  try {
    await tab.page.goto(url);
    await expectGoodEverywhere(tab.page, what);
  } finally {
    await tab.context.close();
  }
}

function mailTo(email: string): SignInMail {
  const found = mails.filter((m) => m.to.toLowerCase() === email.toLowerCase()).pop();
  if (!found) throw new Error(`no message to ${email}`);
  return found;
}

const press = (page: Page, name: string | RegExp): Promise<void> => page.getByRole('button', { name, exact: typeof name === 'string' }).click();

/** Signs in by code from `/dashboard/sign-in` (with `?next=` when given); resolves on the page signed in to. */
async function signInByCode(page: Page, email: string, next?: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.fill('#email', email);
  await Promise.all([page.waitForURL(`${base}/dashboard/sign-in/email`), page.click('form[action="/dashboard/sign-in/email"] button[type="submit"]')]);
  await page.fill('#code', mailTo(email).code);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/dashboard/sign-in')), page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]')]);
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await Promise.all([page.waitForURL(`${base}/dashboard/sign-in?signed-out=1`), page.click('form[action="/dashboard/sign-out"] button[type="submit"]')]);
}

async function addAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

const apiStatus = async (key: string): Promise<number> => (await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).status;

async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('passkeys at the address the banner prints', () => {
  it('work there; at 127.0.0.1 the page says why and links there; sign-in keeps the page asked for; a passkey is removed after asking, without JavaScript', async () => {
    expect(base).toBe(`http://localhost:${server.port}`);
    const { page, context, problems } = await newTab();
    try {
      // At the IP address: the block explains and links to the same page at the relying party's address.
      await page.goto(`${byIp}/dashboard/sign-in?next=%2Fdashboard%2Fpasskeys`);
      const note = page.locator('#passkey-sign-in [data-passkey-elsewhere]');
      await expect.poll(() => note.isVisible()).toBe(true);
      expect(await note.innerText()).toContain('this site’s passkeys belong to the address localhost');
      expect(await page.locator('#passkey-sign-in [data-passkey-start]').isDisabled()).toBe(true);
      expect(await note.locator('a').getAttribute('href')).toBe(`${base}/dashboard/sign-in?next=%2Fdashboard%2Fpasskeys`);
      await expectGoodEverywhere(page, 'the sign-in page at 127.0.0.1');
      await page.goto(`${byIp}/dashboard/sign-in?lang=tr`);
      await expect.poll(() => page.locator('#passkey-sign-in [data-passkey-elsewhere]').innerText()).toContain('geçiş anahtarları localhost adresine aittir');
      await expectGoodEverywhere(page, 'the sign-in page at 127.0.0.1 (tr)');
      await page.goto(`${byIp}/dashboard/sign-in?lang=en&next=%2Fdashboard%2Fpasskeys`);
      await Promise.all([page.waitForURL(`${base}/dashboard/sign-in?next=%2Fdashboard%2Fpasskeys`), note.locator('a').click()]);
      expect(await note.isVisible()).toBe(false);
      expect(await page.locator('#passkey-sign-in [data-passkey-start]').isEnabled()).toBe(true);

      // Signed in by code from there: the page asked for, then a passkey added on it.
      await signInByCode(page, 'banner.user@example.com', '/dashboard/passkeys');
      expect(page.url()).toBe(`${base}/dashboard/passkeys`);
      await addAuthenticator(page);
      expect(await page.locator('#passkey-add [data-passkey-elsewhere]').isVisible()).toBe(false);
      await page.fill('#passkey-name', 'Laptop');
      await Promise.all([page.waitForEvent('load'), page.click('#passkey-add [data-passkey-start]')]);
      await expect.poll(() => page.locator('tbody th').allTextContents()).toEqual(['Laptop']);

      // Signed out: the notice. Signed in with the passkey from a page that asked for billing: billing.
      await signOut(page);
      expect(await page.locator('main [role="status"]').first().innerText()).toBe('You are signed out.');
      await expectGoodEverywhere(page, 'the signed-out page');
      await page.goto(`${base}/dashboard/billing`);
      expect(page.url()).toBe(`${base}/dashboard/sign-in?next=%2Fdashboard%2Fbilling`);
      await Promise.all([page.waitForURL(`${base}/dashboard/billing`), page.click('#passkey-sign-in [data-passkey-start]')]);
      // A hostile `next` is ignored: the passkey lands on the dashboard's home.
      await signOut(page);
      await page.goto(`${base}/dashboard/sign-in?next=${encodeURIComponent('//evil.example/dashboard')}`);
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#passkey-sign-in [data-passkey-start]')]);
      expect(problems).toEqual([]);

      // Removing the passkey without JavaScript: the question first ("Keep it" changes nothing), then removed.
      const noScript = await newTab({ javaScript: false, storageState: await context.storageState() });
      try {
        const p = noScript.page;
        await p.goto(`${base}/dashboard/passkeys`);
        await p.click('button[aria-label="Remove the passkey Laptop"]');
        await p.waitForURL(/\/dashboard\/passkeys\/remove\?id=/);
        expect(await p.locator('h1').innerText()).toBe('Remove the passkey “Laptop”?');
        expect(await main(p)).toContain('This cannot be undone');
        await expectGoodAt(p.url(), noScript.context, 'the passkey removal question');
        await Promise.all([p.waitForURL(`${base}/dashboard/passkeys`), p.getByRole('link', { name: 'Keep it: back to your passkeys' }).click()]);
        expect(await p.locator('tbody th').allTextContents()).toEqual(['Laptop']);
        await p.click('button[aria-label="Remove the passkey Laptop"]');
        await Promise.all([p.waitForURL(`${base}/dashboard/passkeys?removed=1`), press(p, 'Remove the passkey')]);
        expect(await main(p)).toContain('You have no passkeys yet.');
      } finally {
        await noScript.context.close();
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('revoking a key asks first, and the new key’s page', () => {
  for (const javaScript of [false, true]) {
    it(`with JavaScript ${javaScript ? 'on' : 'off'}: Copy buttons${javaScript ? ' that copy' : ' hidden'}, the question, "Keep it", then revoked`, async () => {
      const { page, context, problems } = await newTab({ javaScript });
      try {
        if (javaScript) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
        const email = `keys.${javaScript ? 'js' : 'nojs'}@example.com`;
        await signInByCode(page, email, '/dashboard/keys');
        expect(page.url()).toBe(`${base}/dashboard/keys`);
        await page.fill('#key-name', 'Production');
        const [created] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/dashboard/keys` && r.request().method() === 'POST'), page.click('form[action="/dashboard/keys"] button[type="submit"]')]);
        expect(created.headers()['cache-control']).toBe('no-store');
        const key = (await page.locator('code.new-key').innerText()).trim();
        const curl = await page.locator('#new-key-curl').inputValue();
        expect(curl).toBe(`curl -H 'X-API-Key: ${key}' '${base}/api/v1/times?lat=41.0082&lon=28.9784'`);
        expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs/api');
        const copyKey = page.getByRole('button', { name: 'Copy the key' });
        const copyCurl = page.getByRole('button', { name: 'Copy the command' });
        if (javaScript) {
          await copyKey.click();
          await expect.poll(() => page.locator('#new-key-status').innerText()).toBe('Copied.');
          expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(key);
          await copyCurl.click();
          await expect.poll(() => page.locator('#new-key-curl-status').innerText()).toBe('Copied.');
          expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(curl);
          await page.setViewportSize(DESKTOP);
          await screenshot(page, screenshotFile('dashboard-new-key.png'));
        } else {
          expect(await copyKey.count()).toBe(0); // hidden: not in the accessibility tree
          expect(await page.locator('button[data-copy]').first().isVisible()).toBe(false);
        }
        if (javaScript) await expectGoodEverywhere(page, "the new key's page");
        await within(1000, async () => (await apiStatus(key)) === 200);

        // Revoke: the question, in both languages, at 360 px and on a desktop.
        await page.goto(`${base}/dashboard/keys`);
        await page.getByRole('button', { name: /^Revoke Production/ }).click();
        await page.waitForURL(/\/dashboard\/keys\/[0-9a-f]{16}\/revoke\??$/);
        const question = page.url().replace(/\?$/, '');
        expect(await page.locator('h1').innerText()).toBe(`Revoke the key “Production” (${key.slice(0, 9)}…${key.slice(-4)})?`);
        expect(await main(page)).toContain('This cannot be undone');
        if (javaScript) await expectGoodEverywhere(page, 'the revoke question');
        else {
          await page.setViewportSize(PHONE);
          await screenshot(page, screenshotFile('dashboard-confirm-revoke.png'));
        }
        await page.goto(`${question}?lang=tr`);
        expect(await page.locator('h1').innerText()).toBe(`“Production” (${key.slice(0, 9)}…${key.slice(-4)}) anahtarı iptal edilsin mi?`);
        if (javaScript) await expectGoodEverywhere(page, 'the revoke question (tr)');
        await page.goto(`${question}?lang=en`);
        // "Keep it" changes nothing.
        await Promise.all([page.waitForURL(`${base}/dashboard/keys`), page.getByRole('link', { name: 'Keep it: back to your keys' }).click()]);
        expect(await page.locator('tbody tr').first().innerText()).toContain('active');
        expect(await apiStatus(key)).toBe(200);
        // Revoked from the question's button.
        await page.getByRole('button', { name: /^Revoke Production/ }).click();
        await Promise.all([page.waitForURL(/\/dashboard\/keys\?revoked=[0-9a-f]{16}$/), press(page, 'Revoke the key')]);
        expect(await page.locator('main [role="status"]').innerText()).toContain('Revoked Production');
        await within(1000, async () => (await apiStatus(key)) === 403);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }
});

describe('ending a subscription asks first (local provider)', () => {
  it('cancels at period end without JavaScript and ends it with JavaScript, each after the question; the billing page says so', async () => {
    const noScript = await newTab({ javaScript: false });
    let withScript: Tab | undefined;
    try {
      const page = noScript.page;
      await signInByCode(page, 'subscriber@example.com', '/dashboard/billing');
      expect(page.url()).toBe(`${base}/dashboard/billing`);
      await press(page, 'Subscribe to Pro');
      await page.waitForURL(/\/dashboard\/billing\/local\/checkout\?/);
      await press(page, 'Pay');
      await page.waitForURL(/\/dashboard\/billing(\?.*)?$/);
      expect(await main(page)).toContain('Active (Pro)');

      await press(page, 'Manage subscription');
      await page.waitForURL(/\/dashboard\/billing\/local\/portal/);
      await press(page, 'Cancel at period end');
      await page.waitForURL(/[?&]ask=cancel/);
      expect(await page.locator('h1').innerText()).toBe('Cancel the Pro subscription at the end of the period?');
      await expectGoodAt(page.url(), noScript.context, 'the cancel question');
      await Promise.all([page.waitForURL(/\/dashboard\/billing\/local\/portal\?return=[^&]+$/), page.getByRole('link', { name: 'Keep it: back to the portal' }).click()]);
      expect(await main(page)).toContain('Active (Pro)');
      await press(page, 'Cancel at period end');
      await page.waitForURL(/[?&]ask=cancel/);
      await Promise.all([page.waitForURL(/\/dashboard\/billing\/local\/portal\?return=[^&]+$/), press(page, 'Cancel at period end')]);
      await page.getByRole('link', { name: 'Back to billing' }).click();
      await page.waitForURL(/\/dashboard\/billing$/);
      const cancelled = await main(page);
      expect(cancelled).not.toContain('Active (Pro)');
      expect(cancelled).toMatch(/Cancelled: Pro until \d{1,2} \w+ \d{4}, then Trial/);
      await expectGoodAt(page.url(), noScript.context, 'the billing page after a cancellation');

      // With JavaScript: end it now, after the question.
      withScript = await newTab({ storageState: await noScript.context.storageState() });
      const p = withScript.page;
      await p.goto(`${base}/dashboard/billing`);
      await press(p, 'Manage subscription');
      await p.waitForURL(/\/dashboard\/billing\/local\/portal/);
      await press(p, /^End subscription now/);
      await p.waitForURL(/[?&]ask=end_now/);
      expect(await p.locator('h1').innerText()).toBe('End the Pro subscription now?');
      expect(await main(p)).toContain('This cannot be undone');
      await expectGoodEverywhere(p, 'the end-now question');
      await Promise.all([p.waitForURL(/\/dashboard\/billing\/local\/portal\?return=[^&]+$/), press(p, 'End the subscription now')]);
      await p.getByRole('link', { name: 'Back to billing' }).click();
      await p.waitForURL(/\/dashboard\/billing$/);
      const ended = await main(p);
      expect(ended).toMatch(/Subscription\s+Ended/);
      expect(ended).toMatch(/Current plan\s+Trial/);
      expect(withScript.problems).toEqual([]);
    } finally {
      await noScript.context.close();
      await withScript?.context.close();
    }
  }, 90_000);
});
