// The site in a real browser (Debian's chromium through playwright-core, testing/browser.ts): the place pages work
// with JavaScript off and show the API's times; with it on, the next prayer is marked and counted down on the
// browser's clock; axe-core finds no WCAG 2.1 AA violation; the month prints on one A4 page. It also writes the
// screenshots in docs/screenshots/. One server for the file, with the test catalog; pages compute live.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, pdfPageCount, printToPdf, screenshot, type OpenPage, type PageOptions } from '../../testing/browser.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { NEXT_PRAYERS, TIME_NAMES, type TimeName } from './placeView.js';
import { WORDS } from './words.js';

const PLACE = 'turkey/istanbul/kadikoy';
// Kadıköy's method is Diyanet's, whose imsak is its fajr: the page shows them as one row and one column, "İmsak".
const SHOWN: readonly TimeName[] = TIME_NAMES.filter((name) => name !== 'fajr');
const COUNTED_AS: Partial<Record<TimeName, TimeName>> = { fajr: 'imsak' };
const PLACE_PAGES = {
  tr: `/tr/namaz-vakitleri/${PLACE}`,
  en: `/en/prayer-times/${PLACE}`,
} as const;
// The screenshots in the repo (shown in the README) are rewritten when UPDATE_SCREENSHOTS=1 or when missing; other runs
// write theirs to a temporary folder, so a test run leaves the work tree clean (they show the day's date and times).
const REPO_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const screenshotFile = (name: string): string =>
  process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(`${REPO_SCREENSHOTS}${name}`) ? `${REPO_SCREENSHOTS}${name}` : path.join(tmpdir(), `prayer-times-${name}`);

let server: RunningServer;
let key: string;
let launching: Promise<Browser>;
beforeAll(async () => {
  // Without chromium every test fails with the message that says how to install it (a hook's failure would only
  // show them as skipped).
  launching = launchBrowser();
  launching.catch(() => undefined);
  // A public base URL as in production, so the screenshots show it rather than a random port (links are paths).
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' }));
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

/** A page in a context of its own (testing/browser.ts). */
const open = async (url: string, options?: PageOptions): Promise<OpenPage> => openPage(await launching, url, options);

async function api(path: string): Promise<any> {
  const res = await fetch(server.baseUrl + path, { headers: { 'X-API-Key': key } });
  expect(res.status, path).toBe(200);
  return res.json();
}

interface Today {
  date: string;
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
}

/** Today at the place, as the API says, and its month. */
async function todayAndMonth(): Promise<{ today: Today; month: { days: Array<{ date: string; times: Record<TimeName, string> }> } }> {
  const today: Today = await api(`/api/v1/times?city=${PLACE}`);
  const [year, month] = today.date.split('-').map(Number);
  return { today, month: await api(`/api/v1/month?city=${PLACE}&year=${year}&month=${month}`) };
}

/** Seconds as the countdown shows them: hh:mm:ss. */
const hms = (s: number): string => [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');

const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).allTextContents().then((all) => all.map((t) => t.trim()));

describe.each(['tr', 'en'] as const)('the place page in %s', (language) => {
  const w = WORDS[language];

  it('shows today’s times (imsak and fajr as one İmsak) and the month, with today marked, with JavaScript off', async () => {
    const { today, month } = await todayAndMonth();
    const { page, status, close } = await open(server.baseUrl + PLACE_PAGES[language], { javaScript: false });
    try {
      expect(status).toBe(200);

      const rows = page.locator('table.today-times tbody tr');
      expect(await rows.count()).toBe(SHOWN.length);
      for (const [i, name] of SHOWN.entries()) {
        const row = rows.nth(i);
        expect((await row.locator('th').textContent())?.trim(), name).toBe(w.times[name]);
        expect((await row.locator('td').textContent())?.trim(), name).toBe(today.times[name]);
      }

      const days = page.locator('table.month tbody tr');
      expect(await days.count()).toBe(month.days.length);
      for (const [i, day] of month.days.entries()) {
        const cells = await texts(page, `table.month tbody tr:nth-child(${i + 1}) td`);
        // The Hijri date, then the times.
        expect(cells.slice(1), day.date).toEqual(SHOWN.map((name) => day.times[name]));
        expect(await days.nth(i).locator('th time').getAttribute('datetime')).toBe(day.date);
      }
      // The next prayer, marked by the server for its own clock: the API's /next at the same moment.
      const { next } = await api(`/api/v1/next?city=${PLACE}`);
      expect((await page.locator('#next-prayer .next-name').textContent())?.trim()).toBe(w.times[COUNTED_AS[next.prayer as TimeName] ?? (next.prayer as TimeName)]);
      const nextRows = await page.locator('table.today-times tr.next').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-at')));
      expect(nextRows).toEqual(Object.values(today.iso).includes(next.iso) ? [next.iso] : []);

      const marked = page.locator('table.month tbody tr.today');
      expect(await marked.count()).toBe(1);
      expect(await marked.locator('th time').getAttribute('datetime')).toBe(today.date);
      expect(await texts(page, 'table.month tbody tr.today td').then((c) => c.slice(1))).toEqual(SHOWN.map((name) => today.times[name]));
    } finally {
      await close();
    }
  });

  it('marks the next prayer and counts down to it on the browser’s clock, with JavaScript on', async () => {
    const { today } = await todayAndMonth();
    const asr = Date.parse(today.iso.asr);
    const maghrib = Date.parse(today.iso.maghrib);
    // The server renders for its own clock; only the browser's is set: ten minutes before today's asr.
    const { page, status, close } = await open(server.baseUrl + PLACE_PAGES[language], { clockAt: asr - 10 * 60_000 });
    try {
      expect(status).toBe(200);
      const rows = page.locator('table.today-times tr[data-at]');
      expect(await rows.count()).toBe(NEXT_PRAYERS.length);
      for (const [i, name] of NEXT_PRAYERS.entries()) {
        expect(await rows.nth(i).getAttribute('data-at'), name).toBe(today.iso[name]);
        expect(await rows.nth(i).getAttribute('data-name'), name).toBe(w.times[COUNTED_AS[name] ?? name]);
      }
      const marked = async (): Promise<Array<{ at: string | null; current: string | null }>> =>
        page.locator('table.today-times tr.next').evaluateAll((trs) => trs.map((tr) => ({ at: tr.getAttribute('data-at'), current: tr.getAttribute('aria-current') })));

      expect(await marked()).toEqual([{ at: today.iso.asr, current: 'time' }]);
      await expect.poll(() => page.locator('#next-prayer .next-name').textContent()).toBe(w.times.asr);
      expect(await page.locator('#next-prayer .next-left').textContent()).toMatch(/^00:(10:00|09:5\d)$/);
      expect(await page.locator('#next-prayer').isVisible()).toBe(true);

      // Seconds tick: 65 s later, 8:55 left.
      await page.clock.runFor(65_000);
      expect(await page.locator('#next-prayer .next-left').textContent()).toBe('00:08:55');

      // Past asr: maghrib is next, and the countdown is to it.
      await page.clock.runFor(9 * 60_000);
      const now = asr - 10 * 60_000 + 65_000 + 9 * 60_000;
      expect(now).toBeGreaterThan(asr);
      expect(await marked()).toEqual([{ at: today.iso.maghrib, current: 'time' }]);
      expect(await page.locator('table.today-times tr[data-name]').evaluateAll((trs) => trs.filter((tr) => tr.hasAttribute('aria-current')).length)).toBe(1);
      expect(await page.locator('#next-prayer .next-name').textContent()).toBe(w.times.maghrib);
      expect(await page.locator('#next-prayer .next-left').textContent()).toBe(hms(Math.floor((maghrib - now) / 1000)));
    } finally {
      await close();
    }
  });

  it('after isha, counts down to tomorrow’s fajr and marks no row of today', async () => {
    const { today } = await todayAndMonth();
    const [y, m, d] = today.date.split('-').map(Number);
    const tomorrowDate = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
    const tomorrow: Today = await api(`/api/v1/times?city=${PLACE}&date=${tomorrowDate}`);
    const at = Date.parse(today.iso.isha) + 60_000;
    const { page, close } = await open(server.baseUrl + PLACE_PAGES[language], { clockAt: at });
    try {
      expect(await page.locator('table.today-times tr.next, table.today-times tr[aria-current]').count()).toBe(0);
      expect(await page.locator('#next-prayer .next-name').textContent()).toBe(w.times.imsak);
      expect(await page.locator('#next-prayer .next-left').textContent()).toBe(hms(Math.floor((Date.parse(tomorrow.iso.fajr) - at) / 1000)));
      expect(await page.locator('#next-prayer').isVisible()).toBe(true);
    } finally {
      await close();
    }
  });

  it('has no WCAG 2.1 AA violation (axe-core), and is screenshot for the docs', async () => {
    const { page, status, problems, close } = await open(server.baseUrl + PLACE_PAGES[language]);
    try {
      expect(status).toBe(200);
      const violations = await axeViolations(page);
      expect(violations, formatViolations(violations)).toEqual([]);
      const png = await screenshot(page, screenshotFile(`place-${language}.png`));
      expect(png.readUInt32BE(16)).toBe(1200); // the PNG's width
      // …and the browser had nothing to complain of: no script error, nothing the CSP refused, no failed asset.
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('fits a phone’s width: the page never scrolls sideways, the month’s table fits it (layout.browser.test.ts has more)', async () => {
    const { page, status, close } = await open(server.baseUrl + PLACE_PAGES[language], { viewport: { width: 360, height: 800 } });
    try {
      expect(status).toBe(200);
      const widths = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelector(s: string): { scrollWidth: number; clientWidth: number } } }).document;
        const box = doc.querySelector('.month-section .table-wrap');
        return { page: doc.documentElement.scrollWidth, viewport: doc.documentElement.clientWidth, table: box.scrollWidth, box: box.clientWidth };
      });
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      expect(widths.table).toBeLessThanOrEqual(widths.box); // the month has a phone layout of its own: nothing to scroll
      const violations = await axeViolations(page);
      expect(violations, formatViolations(violations)).toEqual([]);
    } finally {
      await close();
    }
  });

  // This month, and a month of 31 days (`?month=`, the same page for another month).
  it.each(['', '?month=2027-01'])('prints the month on one A4 page (%s)', async (query) => {
    const { page, status, close } = await open(server.baseUrl + PLACE_PAGES[language] + query);
    try {
      expect(status).toBe(200);
      const pdf = await printToPdf(page);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // The print stylesheet shows the month's table, all of it, and it fits one page.
      if (query) expect(await page.locator('table.month tbody tr').count()).toBe(31);
      expect(await page.locator('table.month').isVisible()).toBe(true);
      expect(await page.locator('table.month tbody tr').last().isVisible()).toBe(true);
      expect(pdfPageCount(pdf)).toBe(1);
      // …and nothing else of main: the place's name and the month.
      const shown = await page.locator('main > *').evaluateAll((nodes) => nodes.filter((n) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(n).display !== 'none').map((n) => n.tagName.toLowerCase() + (n.className ? `.${n.className}` : '')));
      expect(shown).toEqual(['h1', 'section.month-section']);
    } finally {
      await close();
    }
  });
});

describe('axe-core finds no WCAG 2.1 AA violation on', () => {
  // The pages the brief names, then the other kinds of page (home pages, docs, search, a variant, the 404).
  it.each([
    ['/en/prayer-times/turkey', 200],
    ['/tr/namaz-vakitleri/turkey/istanbul', 200],
    ['/docs/api', 200],
    ['/pricing', 200],
    ['/', 200],
    ['/tr', 200],
    ['/docs', 200],
    ['/docs/errors', 200],
    ['/docs/authentication', 200],
    ['/docs/mcp', 200],
    ['/en/search?q=kad', 200],
    [`${PLACE_PAGES.tr}?method=karachi&madhab=hanafi&month=2027-02`, 200],
    ['/tr/namaz-vakitleri/nowhere', 404],
  ] as const)('%s', async (path, expected) => {
    const { page, status, problems, close } = await open(server.baseUrl + path);
    try {
      expect(status, path).toBe(expected);
      const violations = await axeViolations(page);
      expect(violations, formatViolations(violations)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the harness', () => {
  it('runs axe-core under the site’s CSP and reports what it finds', async () => {
    // The 404 page: served with the site's headers (script-src 'self'), then given an image without a text alternative.
    const { page, status, close } = await open(`${server.baseUrl}/en/prayer-times/nowhere/at-all`);
    try {
      expect(status).toBe(404);
      expect(await axeViolations(page)).toEqual([]);
      await page.locator('main').evaluate((main) => main.insertAdjacentHTML('beforeend', '<img src="/assets/icon.svg">'));
      // A style attribute in markup would be refused by the CSP (style-src 'self'); the CSSOM is not.
      await page.locator('h1').evaluate((h1) => (h1 as unknown as { style: { color: string } }).style.color = '#ccc');
      const violations = await axeViolations(page);
      expect(violations.map((v) => v.id).sort()).toEqual(['color-contrast', 'image-alt']);
      expect(formatViolations(violations)).toContain('image-alt (critical)');
      expect(formatViolations(violations)).toContain('insufficient color contrast of 1.6');
    } finally {
      await close();
    }
  });

  it('reports what the CSP refuses and assets that fail', async () => {
    const { page, problems, close } = await open(`${server.baseUrl}/en/nowhere`);
    try {
      expect(problems).toEqual([]);
      await page.evaluate(() => {
        const d = (globalThis as any).document;
        const script = d.createElement('script');
        script.textContent = 'void 0';
        d.body.append(script);
        const img = d.createElement('img');
        img.src = '/assets/missing.png';
        img.alt = '';
        d.body.append(img);
      });
      await expect.poll(() => problems.length).toBe(2);
      expect(problems.join('\n')).toMatch(/^CSP: .*script-src 'self'/m);
      expect(problems.join('\n')).toMatch(/^404: .*\/assets\/missing\.png$/m);
    } finally {
      await close();
    }
  });

  it('counts page objects, not the page tree', async () => {
    const { page, close } = await open('about:blank');
    try {
      await page.setContent('<p style="break-after: page">one</p><p style="break-after: page">two</p><p>three</p>');
      expect(pdfPageCount(await page.pdf({ format: 'A4' }))).toBe(3);
    } finally {
      await close();
    }
  });
});
