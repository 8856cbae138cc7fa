// Every kind of page of the site and the dashboard, in Chromium (testing/browser.ts), on a 360 px phone and a
// 1280 px desktop, in the light and the dark colour scheme (prefers-color-scheme): no page scrolls sideways, and
// axe-core finds no WCAG 2.1 AA violation (colour contrast included) in either scheme. The month's timetable fits a
// phone: every time of today's row lies inside the viewport. Screenshots of the place page and its month at 360 px,
// light and dark, go to the temporary folder (prayer-times-layout-*.png) for a person to look at.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, screenshot, type OpenPage } from '../../testing/browser.js';
import { outboxMail } from '../../testing/dashboardBrowser.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

const KADIKOY = { tr: '/tr/namaz-vakitleri/turkey/istanbul/kadikoy', en: '/en/prayer-times/turkey/istanbul/kadikoy' } as const;
// London's method keeps imsak and fajr apart: seven times a day, the widest month there is (Kadıköy's Diyanet shows six).
const LONDON = { tr: '/tr/namaz-vakitleri/united-kingdom/england/london', en: '/en/prayer-times/united-kingdom/england/london' } as const;

/** Every kind of page, with the status it answers; `signedIn` pages are the dashboard's, behind a session. */
const PAGES: ReadonlyArray<{ path: string; status?: number; signedIn?: boolean }> = [
  { path: '/' },
  { path: '/tr' },
  { path: '/en' },
  { path: '/en/prayer-times/turkey' },
  { path: '/tr/namaz-vakitleri/turkey/istanbul' },
  { path: KADIKOY.tr },
  { path: KADIKOY.en },
  { path: LONDON.en },
  { path: '/en/search?q=kad' },
  { path: '/tr/namaz-vakitleri/nowhere/at-all', status: 404 },
  { path: '/docs' },
  { path: '/docs/api' },
  { path: '/docs/errors' },
  { path: '/docs/mcp' },
  { path: '/docs/authentication' },
  { path: '/pricing' },
  { path: '/dashboard/sign-in?lang=en' },
  { path: '/dashboard/sign-in?lang=tr' },
  { path: '/dashboard?lang=en', signedIn: true },
  { path: '/dashboard/keys?lang=en', signedIn: true },
  { path: '/dashboard/keys?lang=tr', signedIn: true },
  { path: '/dashboard/usage?lang=en', signedIn: true },
  { path: '/dashboard/billing?lang=en', signedIn: true },
  { path: '/dashboard/passkeys?lang=en', signedIn: true },
  { path: '/dashboard/passkeys?lang=tr', signedIn: true },
];

let server: RunningServer;
/** http://localhost:<port>: the server's own origin (PUBLIC_BASE_URL unset), where the __Host- session cookie holds. */
let base: string;
let launching: Promise<Browser>;
/** The cookies of a signed-in browser with a key and a passkey, for the dashboard's pages. */
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signs up by e-mail code (read from DATA_DIR/outbox), makes a key and registers a passkey, as a user would. */
async function signUp(browser: Browser): Promise<typeof signedIn> {
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await context.newPage();
    const email = 'layout.user@example.com';
    await page.goto(`${base}/dashboard/sign-in?lang=en`);
    await page.fill('#email', email);
    await page.click('form[action="/dashboard/sign-in/email"] button[type="submit"]');
    await page.waitForURL(`${base}/dashboard/sign-in/email`);
    await page.fill('#code', (await outboxMail(server.dataDir, email)).code);
    await page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]');
    await page.waitForURL(`${base}/dashboard`);

    await page.goto(`${base}/dashboard/keys`);
    await page.fill('#key-name', 'Production server of the mosque association');
    await page.click('form[action="/dashboard/keys"] button[type="submit"]');
    await page.waitForLoadState('load');
    await page.goto(`${base}/dashboard/keys`);
    expect(await page.locator('table.keys tbody tr').count()).toBe(1);

    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(`${base}/dashboard/passkeys`);
    await page.fill('#passkey-name', 'The phone in the kitchen drawer');
    await Promise.all([page.waitForEvent('load'), page.click('#passkey-add [data-passkey-start]')]);
    await page.locator('tbody th', { hasText: 'The phone in the kitchen drawer' }).waitFor();
    return await context.storageState();
  } finally {
    await context.close();
  }
}

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  // No SMTP_URL: the sign-in code is written to DATA_DIR/outbox.
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
  base = `http://localhost:${server.port}`;
  signedIn = await signUp(await launching);
}, 90_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

const open = async (path: string, viewport: { width: number; height: number }, options: { signedIn?: boolean; scheme?: Scheme } = {}): Promise<OpenPage> =>
  openPage(await launching, base + path, {
    viewport,
    context: { colorScheme: options.scheme ?? 'light', ...(options.signedIn ? { storageState: signedIn } : {}) },
  });

/**
 * How wide the page is against its viewport, the outermost elements that stick out on the right (for the message),
 * and the links and controls not wholly inside the viewport (one in a box that scrolls sideways counts: a Revoke
 * button out of sight is no better for the page not scrolling). The skip link waits off-screen by design.
 */
const sideways = (page: Page): Promise<{ scrollWidth: number; clientWidth: number; innerWidth: number; outside: string[]; controlsOut: string[] }> =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    const outside: string[] = [];
    for (const element of doc.querySelectorAll('body *')) {
      const beyond = (e: any): boolean => e.getBoundingClientRect().right > width + 0.5;
      if (beyond(element) && !(element.parentElement && beyond(element.parentElement))) {
        outside.push(`${element.tagName.toLowerCase()}${element.className ? `.${element.className}` : ''}: ${String(element.textContent).trim().slice(0, 60)}`);
      }
    }
    const controlsOut: string[] = [];
    for (const control of doc.querySelectorAll('a[href]:not(.skip), button, input:not([type="hidden"]), select, textarea')) {
      const box = control.getBoundingClientRect();
      if (box.width > 1 && box.height > 1 && (box.left < -0.5 || box.right > width + 0.5)) {
        controlsOut.push(`${control.tagName.toLowerCase()} ${String(control.textContent).trim().slice(0, 40)} at ${Math.round(box.left)}..${Math.round(box.right)}`);
      }
    }
    return { scrollWidth: doc.documentElement.scrollWidth, clientWidth: width, innerWidth: (globalThis as any).innerWidth, outside, controlsOut };
  });

/** The page's background colour's relative luminance (0 black … 1 white), as WCAG computes it. */
const backgroundLuminance = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const [r, g, b] = ((globalThis as any).getComputedStyle((globalThis as any).document.documentElement).backgroundColor.match(/\d+(\.\d+)?/g) as string[])
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${formatViolations(violations)}`).toEqual([]);
}

describe.each([
  ['a 360 px phone', PHONE],
  ['a 1280 px desktop', DESKTOP],
] as const)('on %s', (_, viewport) => {
  it.each(PAGES)('$path: no sideways scroll; axe finds nothing in light and dark', async ({ path: pagePath, status = 200, signedIn: behindSession }) => {
    const { page, status: answered, problems, close } = await open(pagePath, viewport, { signedIn: behindSession });
    try {
      expect(answered, pagePath).toBe(status);
      // A dashboard page that fell back to the sign-in form would prove nothing about the page itself.
      if (behindSession) expect(await page.locator('.site-header a[href="/dashboard/passkeys"]').count(), pagePath).toBe(1);
      const widths = await sideways(page);
      expect(widths.scrollWidth, `${pagePath} at ${viewport.width} px:\n${widths.outside.join('\n')}`).toBeLessThanOrEqual(widths.clientWidth);
      expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
      expect(widths.controlsOut, `${pagePath} at ${viewport.width} px`).toEqual([]);
      await expectAccessible(page, `${pagePath} at ${viewport.width} px, light`);
      expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);

      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await backgroundLuminance(page)).toBeLessThan(0.05);
      expect((await sideways(page)).scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
      await expectAccessible(page, `${pagePath} at ${viewport.width} px, dark`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe.each(['tr', 'en'] as const)('the month on a phone, in %s', (language) => {
  it.each([
    ['Kadıköy', KADIKOY[language]],
    ['London', LONDON[language]],
  ])('%s: every time of today’s row is inside the viewport, with no scrolling at all', async (_, pagePath) => {
    const { page, status, close } = await open(pagePath, PHONE);
    try {
      expect(status).toBe(200);
      const today = page.locator('table.month tbody tr.today');
      expect(await today.count()).toBe(1);
      const cells = today.locator('td');
      const shown: Array<{ text: string; left: number; right: number }> = [];
      for (let i = 0; i < (await cells.count()); i++) {
        if (!(await cells.nth(i).isVisible())) continue;
        const box = (await cells.nth(i).boundingBox())!;
        shown.push({ text: (await cells.nth(i).innerText()).trim(), left: box.x, right: box.x + box.width });
      }
      // The times are the visible cells: as many as the month has time columns, all HH:MM.
      const timeColumns = await page.locator('table.month thead th').count() - 2;
      expect(shown.map((c) => c.text)).toHaveLength(timeColumns);
      for (const cell of shown) {
        expect(cell.text).toMatch(/^\d\d:\d\d$/);
        expect(cell.left, cell.text).toBeGreaterThanOrEqual(0);
        expect(cell.right, cell.text).toBeLessThanOrEqual(PHONE.width);
      }
      // The date is in view too, and the table's own box has nothing to scroll either.
      const date = (await today.locator('th').boundingBox())!;
      expect(date.x).toBeGreaterThanOrEqual(0);
      const box = await page.locator('.month-section .table-wrap').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(box.scroll).toBeLessThanOrEqual(box.client);
      const widths = await sideways(page);
      expect(widths.scrollWidth, widths.outside.join('\n')).toBeLessThanOrEqual(widths.clientWidth);
    } finally {
      await close();
    }
  });

  it('keeps the Hijri column on a desktop, and leaves it to the page’s heading on a phone', async () => {
    const hijriHeader = 'table.month thead th:nth-child(2)';
    const desktop = await open(LONDON[language], DESKTOP);
    try {
      expect(await desktop.page.locator(hijriHeader).isVisible()).toBe(true);
      expect(await desktop.page.locator('table.month tbody tr.today td').first().innerText()).toMatch(/\d{4}$/); // "16 Cemaziyelahir 1448"
    } finally {
      await desktop.close();
    }
    const phone = await open(LONDON[language], PHONE);
    try {
      expect(await phone.page.locator(hijriHeader).isVisible()).toBe(false);
    } finally {
      await phone.close();
    }
  });
});

describe('the colour schemes', () => {
  it.each(['tr', 'en'] as const)('the place page in %s at 360 px, light and dark, screenshot to the temporary folder', async (language) => {
    for (const scheme of SCHEMES) {
      const { page, close } = await open(KADIKOY[language], PHONE, { scheme });
      try {
        expect(await backgroundLuminance(page)).toSatisfy((l: number) => (scheme === 'dark' ? l < 0.05 : l > 0.9));
        const whole = await screenshot(page, path.join(tmpdir(), `prayer-times-layout-place-${language}-360-${scheme}.png`));
        expect(whole.readUInt32BE(16)).toBe(PHONE.width); // the PNG's width: nothing wider than the phone
        // The month as it is seen: the table's own rectangle (it reaches the screen's edges).
        await page.locator('table.month').scrollIntoViewIfNeeded();
        const table = (await page.locator('table.month').boundingBox())!;
        const scroll = await page.evaluate(() => (globalThis as any).scrollY as number);
        await page.screenshot({ path: path.join(tmpdir(), `prayer-times-layout-month-${language}-360-${scheme}.png`), fullPage: true, clip: { x: 0, y: table.y + scroll, width: PHONE.width, height: table.height } });
      } finally {
        await close();
      }
    }
  });

  it('prints dark ink on white paper, the whole month, even from a phone in the dark', async () => {
    const { page, close } = await open(KADIKOY.en, PHONE, { scheme: 'dark' });
    try {
      expect(await backgroundLuminance(page)).toBeLessThan(0.05);
      await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
      expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);
      // An A4 page is narrower than the phone rules' limit, but they are for screens: the whole month, Hijri included.
      expect(await page.locator('table.month thead th:nth-child(2)').isVisible()).toBe(true);
    } finally {
      await close();
    }
  });
});
