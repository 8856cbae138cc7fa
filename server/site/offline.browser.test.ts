// The installable app in Chromium: the manifest passes Chromium's installability check (Page.getInstallabilityErrors
// over CDP, in a persistent profile: an incognito context is never installable); a place page visited once opens with
// the network off, showing its times (the API's) and saying it is offline, in Turkish and English; a day later, and
// days later in the same month, today is right offline (the next day the page holds, then the month's marked row);
// online, a page is never the kept copy; the last ten place pages are kept and the offline page lists them; the
// dashboard, the API and the docs are never kept, other pages fall back to the offline page; a new version's worker
// deletes the caches of older ones. The server's clock and the browser's are moved together (testing/movableClock.ts,
// Playwright's clock). Screenshots of the offline copy at 360 px go to a temporary folder (copied to docs/screenshots/
// by hand). http://localhost is a secure context: service workers run there.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, CHROMIUM_ARGS, CHROMIUM_PATH, formatViolations } from '../../testing/browser.js';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { longDate, WORDS } from './words.js';

const PLACE = 'turkey/istanbul/kadikoy';
const PLACE_PAGES = { tr: `/tr/namaz-vakitleri/${PLACE}`, en: `/en/prayer-times/${PLACE}` } as const;
const MANIFESTS = { tr: '/tr/manifest.webmanifest', en: '/manifest.webmanifest' } as const;
const PAGES_CACHE = 'prayer-times-pages';
// Kadıköy (Diyanet: one İmsak row, counted as fajr) in İstanbul, UTC+3 all year: 10:00 local on 10 November 2026,
// the next day, ten days later, and past the month.
const VISITED = Date.parse('2026-11-10T07:00:00Z');
const NEXT_DAY = Date.parse('2026-11-11T07:00:00Z');
const DAYS_LATER = Date.parse('2026-11-20T07:00:00Z');
const PAST_THE_MONTH = Date.parse('2026-12-02T07:00:00Z');
const SHOWN = ['imsak', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
const SCREENSHOTS = mkdtempSync(path.join(tmpdir(), 'prayer-times-offline-screenshots-'));

interface Times {
  date: string;
  times: Record<string, string>;
  iso: Record<string, string>;
}

const clock = movableClock();
let server: RunningServer;
let key: string;
/** http://localhost:port: the origin the browser sees (a secure context, as service workers need). */
let origin: string;
const days = new Map<string, Times>();

beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' }));
  origin = `http://localhost:${server.port}`;
  for (const date of ['2026-11-10', '2026-11-11', '2026-11-20', '2026-11-21']) days.set(date, await api(`/api/v1/times?city=${PLACE}&date=${date}`));
  clock.set(VISITED);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function api(path: string): Promise<any> {
  const res = await fetch(server.baseUrl + path, { headers: { 'X-API-Key': key } });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** A browser with a profile of its own, on disk: installable (an incognito context is not), and nothing shared. */
async function freshProfile(options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'prayer-times-profile-')), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: options.width ?? 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
}

interface Opened {
  page: Page;
  status: number;
  /** The document as it came (from the network or the worker). */
  html: string;
  /** Script errors, CSP refusals and failed subresources while the page lived. */
  problems: string[];
}

/** A page of the profile, its clock paused at `at` from its first script (as testing/browser.ts's openPage does). */
async function openAt(context: BrowserContext, url: string, at: number): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    if (!request.isNavigationRequest()) problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  await page.clock.install({ time: at - 5_000 });
  await page.clock.pauseAt(at);
  const response = await page.goto(origin + url, { waitUntil: 'load' });
  return { page, status: response?.status() ?? 0, html: (await response?.text()) ?? '', problems };
}

/** Every URL in each of the origin's caches. */
const cachedUrls = (page: Page): Promise<Record<string, string[]>> =>
  page.evaluate(async () => {
    // In the page (the Cache API; the project's types have no DOM).
    const caches = (globalThis as any).caches;
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r: { url: string }) => new URL(r.url).pathname + new URL(r.url).search);
    return out;
  });

/** Waits until the worker keeps `url` (it does so after answering, or at activation for the page that registered it). */
async function kept(page: Page, url: string): Promise<void> {
  await page.evaluate(() => (globalThis as any).navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(async () => (await cachedUrls(page))[PAGES_CACHE] ?? [], { timeout: 10_000 }).toContain(url);
}

const visible = async (page: Page, selector: string): Promise<string | undefined> =>
  (await page.locator(selector).isVisible()) ? (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim() : undefined;

/** What a place page shows: the day, its rows, the marked row of the month (and its cells), the notices. */
async function shown(page: Page) {
  return {
    date: await page.locator('main [data-day-part="times"]').getAttribute('data-date'),
    dayVisible: await page.locator('table.today-times').isVisible(),
    rows: (await page.locator('table.today-times').isVisible())
      ? await page.locator('table.today-times tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('time')!.getAttribute('datetime')))
      : undefined,
    next: (await page.locator('#next-prayer').isVisible()) ? await page.locator('#next-prayer time').getAttribute('datetime') : undefined,
    monthMarked: await page.locator('table.month tbody tr.today').evaluateAll((trs) =>
      trs.map((tr) => ({ date: tr.querySelector('th time')!.getAttribute('datetime'), current: tr.getAttribute('aria-current'), cells: [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent) })),
    ),
    notice: await visible(page, '#offline-notice'),
    todayInMonth: await visible(page, '#offline-today'),
    reload: await visible(page, '#reload-prompt'),
  };
}

/** axe waits on timers: the page's clock runs on (in real time) from here. */
async function expectAxeClean(page: Page, where: string): Promise<void> {
  await page.clock.resume();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await axeViolations(page);
    expect(violations, `${where} (${colorScheme}): ${formatViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.each(['tr', 'en'] as const)('installable, in %s', (language) => {
  it('passes Chromium’s installability check with the manifest of the page’s language', async () => {
    const context = await freshProfile();
    try {
      const { page, status, problems } = await openAt(context, PLACE_PAGES[language], VISITED);
      expect(status).toBe(200);
      await kept(page, PLACE_PAGES[language]);
      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data: string };
      expect(manifest.url).toBe(origin + MANIFESTS[language]);
      expect(manifest.errors).toEqual([]);
      expect(JSON.parse(manifest.data)).toMatchObject({ lang: language, start_url: `/${language}`, display: 'standalone' });
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(['tr', 'en'] as const)('a place page visited once, offline, in %s', (language) => {
  const w = WORDS[language];
  const url = PLACE_PAGES[language];

  it('opens with its times and says it is offline; a day later shows that day; days later marks the day in the month', async () => {
    const context = await freshProfile({ width: 360 });
    try {
      clock.set(VISITED);
      const first = await openAt(context, url, VISITED);
      await kept(first.page, url);
      await first.page.close();
      await context.setOffline(true);

      // The same day, offline: the kept copy, its times the API's, the next prayer counted, and the notice.
      const sameDay = await openAt(context, url, VISITED);
      expect(sameDay.status).toBe(200);
      const d10 = days.get('2026-11-10')!;
      let seen = await shown(sameDay.page);
      expect(seen).toMatchObject({ date: d10.date, dayVisible: true, notice: w.offlineNotice, todayInMonth: undefined, reload: undefined, next: d10.iso.dhuhr });
      expect(seen.rows).toEqual(SHOWN.map((name) => d10.iso[name === 'imsak' ? 'fajr' : name]));
      expect(seen.monthMarked).toEqual([{ date: '2026-11-10', current: 'date', cells: SHOWN.map((name) => d10.times[name]) }]);
      expect(await sameDay.page.locator('table.today-times caption').innerText()).toBe(`${w.today}: ${longDate('2026-11-10', language)}`);
      await expectAxeClean(sameDay.page, 'the kept copy');
      expect(await sameDay.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(360);
      await sameDay.page.screenshot({ path: path.join(SCREENSHOTS, `offline-${language}.png`), type: 'png' });
      expect(sameDay.problems).toEqual([]);
      await sameDay.page.close();

      // The next day, offline: the day the page holds in its template, in full.
      const nextDay = await openAt(context, url, NEXT_DAY);
      const d11 = days.get('2026-11-11')!;
      seen = await shown(nextDay.page);
      expect(seen).toMatchObject({ date: d11.date, dayVisible: true, notice: w.offlineNotice, todayInMonth: undefined, reload: undefined, next: d11.iso.dhuhr });
      expect(seen.rows).toEqual(SHOWN.map((name) => d11.iso[name === 'imsak' ? 'fajr' : name]));
      expect(seen.monthMarked).toEqual([{ date: '2026-11-11', current: 'date', cells: SHOWN.map((name) => d11.times[name]) }]);
      expect(nextDay.problems).toEqual([]);
      await nextDay.page.close();

      // Ten days later, offline: past the two days the page holds, today's row of the month, marked and said.
      const later = await openAt(context, url, DAYS_LATER);
      const d20 = days.get('2026-11-20')!;
      seen = await shown(later.page);
      expect(seen).toMatchObject({ dayVisible: false, next: undefined, notice: w.offlineNotice, todayInMonth: w.offlineTodayInMonth, reload: undefined });
      expect(seen.monthMarked).toEqual([{ date: '2026-11-20', current: 'date', cells: SHOWN.map((name) => d20.times[name]) }]);
      await expectAxeClean(later.page, 'the kept copy, days later');
      await later.page.locator('table.month tbody tr.today').scrollIntoViewIfNeeded();
      await later.page.screenshot({ path: path.join(SCREENSHOTS, `offline-later-${language}.png`), type: 'png' });
      // Left open past the place's midnight: the next day's row.
      await later.page.clock.fastForward(Date.parse('2026-11-20T21:00:30Z') - DAYS_LATER);
      seen = await shown(later.page);
      expect(seen.monthMarked).toEqual([{ date: '2026-11-21', current: 'date', cells: SHOWN.map((name) => days.get('2026-11-21')!.times[name]) }]);
      expect(later.problems).toEqual([]);
      await later.page.close();

      // Past the month the page holds: nothing marked, and the reload prompt.
      const past = await openAt(context, url, PAST_THE_MONTH);
      seen = await shown(past.page);
      expect(seen).toMatchObject({ dayVisible: false, monthMarked: [], notice: w.offlineNotice, todayInMonth: undefined, reload: `${w.outOfDate} ${w.reload}` });
      await past.page.close();

      // Online again, the server a day on: the server's page of that day, never the kept copy.
      await context.setOffline(false);
      clock.set(NEXT_DAY);
      const online = await openAt(context, url, NEXT_DAY);
      expect(online.html).toContain(`data-date="${d11.date}"`);
      expect(online.html).toContain('<p id="offline-notice" class="offline-notice" role="status" hidden>');
      seen = await shown(online.page);
      expect(seen).toMatchObject({ date: d11.date, notice: undefined, todayInMonth: undefined, reload: undefined });
      expect(online.problems).toEqual([]);
    } finally {
      clock.set(VISITED);
      await context.close();
    }
  }, 120_000);
});

describe('the installed app’s start, offline', () => {
  it('opens the kept home, which offers the last place viewed, whose kept page opens', async () => {
    const context = await freshProfile({ width: 360 });
    try {
      const place = await openAt(context, PLACE_PAGES.tr, VISITED);
      await kept(place.page, PLACE_PAGES.tr);
      const home = await openAt(context, '/tr', VISITED);
      await kept(home.page, '/tr');
      await context.setOffline(true);
      const start = await openAt(context, '/tr', VISITED);
      expect(await visible(start.page, '#offline-notice')).toBe(WORDS.tr.offlineNotice);
      const last = start.page.locator('#last-place a');
      expect(await last.isVisible()).toBe(true);
      await Promise.all([start.page.waitForURL(origin + PLACE_PAGES.tr), last.click()]);
      expect((await shown(start.page)).notice).toBe(WORDS.tr.offlineNotice);
      expect(start.problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('the places kept', () => {
  it('are the last ten place pages viewed; the offline page lists them; a page not kept falls back to it', async () => {
    const context = await freshProfile();
    try {
      const first = await openAt(context, PLACE_PAGES.en, VISITED);
      // Kadıköy and its ten nearby places: eleven place pages.
      const nearby = await first.page.locator('main a[href^="/en/prayer-times/"]').evaluateAll((links) =>
        links.map((a) => a.getAttribute('href')!).filter((href) => /^\/en\/prayer-times\/[^/]+\/[^/]+\/[^/.?]+$/.test(href)),
      );
      const visited = [PLACE_PAGES.en, ...[...new Set(nearby)].filter((href) => href !== PLACE_PAGES.en).slice(0, 10)];
      expect(visited).toHaveLength(11);
      await kept(first.page, visited[0]);
      for (const url of visited.slice(1)) {
        await first.page.goto(origin + url);
        await kept(first.page, url);
      }
      const keptPlaces = (await cachedUrls(first.page))[PAGES_CACHE];
      expect(keptPlaces).toEqual(visited.slice(1));
      const headings: string[] = [];
      for (const url of visited.slice(1)) {
        await first.page.goto(origin + url);
        headings.push(await first.page.locator('h1').innerText());
      }
      await context.setOffline(true);

      // The first place is no longer kept: the offline page, listing the ten kept, newest first.
      const fallback = await openAt(context, visited[0], VISITED);
      expect(fallback.status).toBe(200);
      expect(await fallback.page.locator('h1').innerText()).toBe(WORDS.en.offlineTitle);
      const listed = await fallback.page.locator('#kept-places li a').evaluateAll((links) => links.map((a) => [a.getAttribute('href'), a.textContent]));
      expect(listed).toEqual(visited.slice(1).map((url, i) => [url, headings[i]]).reverse());
      expect(await fallback.page.locator('#no-kept-places').isVisible()).toBe(false);
      await expectAxeClean(fallback.page, 'the offline page');
      await fallback.page.screenshot({ path: path.join(SCREENSHOTS, 'offline-page-en.png'), type: 'png' });
      // One of them opens, kept.
      await Promise.all([fallback.page.waitForURL(origin + visited[5]), fallback.page.locator(`#kept-places a[href="${visited[5]}"]`).click()]);
      expect((await shown(fallback.page)).notice).toBe(WORDS.en.offlineNotice);
      await expectAxeClean(fallback.page, 'a kept copy at 1280 px');
      expect(fallback.problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('never include the dashboard, the API or other pages; those fall back (the dashboard not at all); an older version’s caches go', async () => {
    const context = await freshProfile();
    try {
      // Before the worker: caches as an older deploy left them (its static files, and a kept page).
      const before = await context.newPage();
      await before.goto(`${origin}/favicon.ico`);
      await before.evaluate(async (url) => {
        const caches = (globalThis as any).caches;
        await (await caches.open('prayer-times-shell-olderversion')).put('/assets/site.css?v=old', new Response('old'));
        await (await caches.open('prayer-times-pages')).put(url, new Response('<!doctype html><title>kept before</title>', { headers: { 'Content-Type': 'text/html' } }));
        await (await caches.open('another-app')).put('/x', new Response('not ours'));
      }, `${origin}/tr/namaz-vakitleri/turkey/ankara/polatli`);

      const { page } = await openAt(context, PLACE_PAGES.en, VISITED);
      await kept(page, PLACE_PAGES.en);
      const names = Object.keys(await cachedUrls(page)).sort();
      expect(names).toHaveLength(3);
      expect(names).toEqual(['another-app', 'prayer-times-pages', expect.stringMatching(/^prayer-times-shell-[\w-]{12}$/)]);
      expect((await cachedUrls(page))[PAGES_CACHE]).toContain('/tr/namaz-vakitleri/turkey/ankara/polatli');

      // The dashboard, the API (from the page, with a key), the docs and a search, online.
      for (const url of ['/dashboard', '/docs', '/en/search?q=kadikoy', '/en/prayer-times/turkey']) expect((await page.goto(origin + url))!.status(), url).toBe(200);
      const status = await page.evaluate(async ([city, apiKey]) => (await fetch(`/api/v1/times?city=${city}`, { headers: { 'X-API-Key': apiKey } })).status, [PLACE, key]);
      expect(status).toBe(200);
      const all = Object.values(await cachedUrls(page)).flat();
      expect(all.filter((url) => /^\/(dashboard|api|mcp|docs|embed)|search|\/turkey$/.test(url))).toEqual([]);

      await context.setOffline(true);
      // Pages never visited (a page the browser's own cache still holds fresh, like /docs just now, comes from there).
      for (const [url, language] of [['/docs/errors', 'en'], ['/en/search?q=ankara', 'en'], ['/tr/ara?q=kad', 'tr'], ['/tr/namaz-vakitleri/turkey', 'tr']] as const) {
        const shownOffline = await openAt(context, url, VISITED);
        expect(await shownOffline.page.locator('h1').innerText(), url).toBe(WORDS[language].offlineTitle);
        expect(await shownOffline.page.locator('html').getAttribute('lang'), url).toBe(language);
        if (language === 'tr') await expectAxeClean(shownOffline.page, `the offline page for ${url}`);
        await shownOffline.page.close();
      }
      // The worker leaves the dashboard alone: the browser's own error.
      await expect(page.goto(`${origin}/dashboard`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    } finally {
      await context.close();
    }
  }, 120_000);
});
