// The place page's "add to calendar" form in Chromium, with JavaScript off (it is a plain GET form) and on: choosing a
// reminder and pressing "Download" fetches the place's .ics with `?alarm=`, whose events ical.js finds each with a
// DISPLAY alarm that many minutes before; "Subscribe" sends the same query to the feed's webcal: address (which the
// page's CSP allows a form to reach), with the page's method and madhab. A screenshot of the section at 360 px goes to
// the temporary folder (prayer-times-calendar-*.png); docs/screenshots/calendar-en.png is a copy of it.
import { tmpdir } from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage } from '../../testing/browser.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { WORDS } from './words.js';

const PHONE = { width: 360, height: 800 };
const PAGES = { en: '/en/prayer-times/turkey/istanbul/kadikoy', tr: '/tr/namaz-vakitleri/turkey/istanbul/kadikoy' } as const;

let server: RunningServer;
let launching: Promise<Browser>;
beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' });
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

/** Presses a button of the form and resolves with the URL the browser then asked to go to (any scheme). */
async function submittedTo(page: Page, button: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  const requested = new Promise<string>((resolve) => cdp.on('Page.frameRequestedNavigation', (event) => resolve(event.url)));
  await page.locator('form.calendar-choice').getByRole('button', { name: button, exact: true }).click({ noWaitAfter: true });
  return requested;
}

/** Every event's alarms in a feed, as (trigger seconds, action). */
function alarms(text: string): Array<Array<[number, string]>> {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return calendar.getAllSubcomponents('vevent').map((event) =>
    event.getAllSubcomponents('valarm').map((a) => [(a.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds(), a.getFirstPropertyValue('action') as string]),
  );
}

describe.each([
  ['without JavaScript', false],
  ['with JavaScript', true],
] as const)('the form, %s', (_, javaScript) => {
  it.each(['en', 'tr'] as const)('in %s: Download with "10 minutes before" gives a feed with a reminder 10 minutes before each event', async (language) => {
    const { page, problems, close } = await openPage(await launching, server.baseUrl + PAGES[language], { viewport: PHONE, javaScript });
    try {
      // Ten minutes is chosen at first; choosing it again changes nothing.
      expect(await page.locator('#alarm').inputValue()).toBe('10');
      await page.selectOption('#alarm', '10');
      const download = page.waitForEvent('download');
      expect(await submittedTo(page, WORDS[language].calendarDownload)).toBe(`${server.baseUrl}${PAGES[language]}.ics?alarm=10`);
      const url = (await download).url();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const found = alarms(await res.text());
      expect(found.length).toBeGreaterThanOrEqual(365 * 6);
      expect(found.every((a) => a.length === 1 && a[0][0] === -600 && a[0][1] === 'DISPLAY')).toBe(true);
      // A navigation that turns into a download ends, as a navigation, "aborted": that is the download itself.
      expect(problems.filter((p) => p !== `failed: ${url} (net::ERR_ABORTED)`)).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('Subscribe sends the reminder and the page\'s method and madhab to the webcal: address', async () => {
    const { page, problems, close } = await openPage(await launching, `${server.baseUrl}${PAGES.en}?method=muslimWorldLeague&madhab=hanafi`, { viewport: PHONE, javaScript });
    try {
      await page.selectOption('#alarm', '30');
      expect(await submittedTo(page, WORDS.en.calendarSubscribe)).toBe(`webcal://prayer-times.example${PAGES.en}.ics?alarm=30&method=muslimWorldLeague&madhab=hanafi`);
      // Nothing refused by the page's CSP (form-action allows webcal:).
      expect(problems.filter((p) => p.startsWith('CSP'))).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('"No reminder"', () => {
  it('downloads the feed without alarms', async () => {
    const { page, close } = await openPage(await launching, server.baseUrl + PAGES.tr, { viewport: PHONE, javaScript: false });
    try {
      await page.selectOption('#alarm', '');
      const download = page.waitForEvent('download');
      expect(await submittedTo(page, WORDS.tr.calendarDownload)).toBe(`${server.baseUrl}${PAGES.tr}.ics?alarm=`);
      const text = await (await fetch((await download).url())).text();
      expect(alarms(text).every((a) => a.length === 0)).toBe(true);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('screenshot', () => {
  it('the calendar section in English at 360 px', async () => {
    const { page, close } = await openPage(await launching, server.baseUrl + PAGES.en, { viewport: PHONE });
    try {
      const widths = await page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return { scroll: root.scrollWidth as number, client: root.clientWidth as number };
      });
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      await page.locator('section.calendar-section').screenshot({ path: path.join(tmpdir(), 'prayer-times-calendar-en.png') });
    } finally {
      await close();
    }
  });
});
