// The widget in Chromium, framed by a page of another site: a tiny HTTP server of the test's own, on another host and
// port (http://localhost:… against the service's http://127.0.0.1:…), serves a "mosque's page" with the widget in
// <iframe>s 250 px and 400 px wide. In both languages, light and dark (by ?theme= against the device's preference, and
// by the device's preference alone), with JavaScript on and off: the widget loads in the frame, its times equal the
// API's /times for today and its next prayer /next, nothing scrolls sideways at 250 px, the day fits the height the
// place page's code gives, axe finds nothing; countdown.js moves it on past a prayer (Playwright's clock); its link
// opens the place page in a new tab. A place page in the same kind of frame is refused (frame-ancestors 'none'). The
// code the place page offers, pasted as it is, shows the widget; its Copy button copies it. Writes the screenshots
// of the framing page with both widths (copied into docs/screenshots/widget-*.png).
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, screenshot, type OpenPage, type PageOptions } from '../../testing/browser.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { WIDGET_FRAME } from './embedSnippet.js';
import { NEXT_PRAYERS, TIME_NAMES, type TimeName } from './placeView.js';
import { WORDS } from './words.js';

const KADIKOY = 'turkey/istanbul/kadikoy';
/** A place whose imsak is not its fajr (seven rows): the tallest day. */
const london = 'united-kingdom/england/london';
const WIDTHS = [250, 400] as const;
/** The palette's paper (site.css, embed.css): the widget's background in each theme. */
const PAPER = { light: 'rgb(255, 255, 255)', dark: 'rgb(21, 24, 27)' } as const;
/** Screenshots go to a temporary folder (they show the day's times); docs/screenshots/ holds a copy made by hand. */
const screenshotFile = (name: string): string => path.join(tmpdir(), 'prayer-times-screenshots', name);

let server: RunningServer;
let key: string;
let host: Server;
let hostOrigin: string;
let launching: Promise<Browser>;

/** The mosque's page: a heading, then each frame asked for (`f=` the URL, `w=` its width), or the code `code=` as it is. */
function hostPage(url: URL): string {
  const dark = url.searchParams.get('dark') === '1';
  const frames = url.searchParams.getAll('f').map((src, i) => {
    const width = Number(url.searchParams.getAll('w')[i]);
    const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    return `<figure><iframe src="${escaped}" title="Widget ${i + 1}" width="${width}" height="${WIDGET_FRAME.height}" style="border:0;outline:1px solid #999"></iframe><figcaption>${width} px</figcaption></figure>`;
  });
  const code = url.searchParams.get('code') ?? '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Al-Nur Mosque</title>
<style>body{font-family:"DejaVu Sans",sans-serif;margin:16px;background:${dark ? '#20242a' : '#f4efe6'};color:${dark ? '#eee' : '#222'}}
.row{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}figure{margin:0}figcaption{font-size:14px}.column{width:300px}</style></head>
<body><h1>Al-Nur Mosque · community centre</h1><main><div class="row">${frames.join('')}</div><div class="column">${code}</div></main></body></html>`;
}

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  // No public base URL: the widget's links go to this server, so following them works.
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(hostPage(url));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const port = (host.address() as { port: number }).port;
  hostOrigin = `http://localhost:${port}`;
  expect(new URL(hostOrigin).origin).not.toBe(new URL(server.baseUrl).origin);
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
  await new Promise((resolve) => host?.close(resolve));
});

async function api(path: string): Promise<any> {
  const response = await fetch(server.baseUrl + path, { headers: { 'X-API-Key': key } });
  expect(response.status, path).toBe(200);
  return response.json();
}

/**
 * The place page a widget links to: on the service's own host (the server names itself `localhost` without a public
 * base URL), whatever the framing page's origin.
 */
function placeUrl(href: string, language: 'tr' | 'en'): string {
  const url = new URL(href);
  expect(url.port).toBe(String(server.port));
  expect(url.origin).not.toBe(hostOrigin);
  return `${url.origin}/${language === 'tr' ? 'tr/namaz-vakitleri' : 'en/prayer-times'}/${KADIKOY}`;
}

const widgetUrl = (language: 'tr' | 'en', place: string, query = ''): string => `${server.baseUrl}/embed/${language}/${place}${query}`;

/** The mosque's page with the given frames, open in Chromium. */
async function openHost(frames: ReadonlyArray<{ src: string; width: number }>, options: PageOptions & { dark?: boolean; code?: string } = {}): Promise<OpenPage> {
  const query = new URLSearchParams();
  for (const f of frames) {
    query.append('f', f.src);
    query.append('w', String(f.width));
  }
  if (options.dark) query.set('dark', '1');
  if (options.code) query.set('code', options.code);
  const opened = await openPage(await launching, `${hostOrigin}/?${query}`, { viewport: { width: 800, height: 620 }, ...options });
  return opened;
}

/** The frame showing a URL (once loaded). */
async function frameOf(page: Page, src: string): Promise<Frame> {
  const handle = await page.locator(`iframe[src="${src}"]`).elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForLoadState('load');
  return frame!;
}

interface Today {
  date: string;
  method: { id: string };
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
}

/** What the widget shows in a frame: its rows, next prayer, colours and size. */
async function shown(frame: Frame) {
  return frame.evaluate(() => {
    const document = (globalThis as any).document;
    const root = document.documentElement;
    const box = document.getElementById('next-prayer')!;
    return {
      rows: Array.from(document.querySelectorAll('main table.today-times tbody tr') as ArrayLike<any>).map((tr) => ({
        name: tr.querySelector('th')!.textContent,
        datetime: tr.querySelector('time')!.getAttribute('datetime'),
        time: tr.querySelector('time')!.textContent,
      })),
      next: { name: box.querySelector('.next-name')!.textContent, datetime: box.querySelector('time')!.getAttribute('datetime'), time: box.querySelector('time')!.textContent },
      countdown: box.querySelector('.next-in').hidden ? undefined : box.querySelector('.next-left')!.textContent,
      marked: Array.from(document.querySelectorAll('main table.today-times tr.next') as ArrayLike<any>).map((tr) => tr.getAttribute('data-at')),
      paper: (globalThis as any).getComputedStyle(root).backgroundColor,
      scrollWidth: root.scrollWidth,
      clientWidth: root.clientWidth,
      scrollHeight: root.scrollHeight,
      /** Where the content ends (the body's margin included): what the frame must hold without scrolling. */
      contentHeight: Math.ceil(document.body.getBoundingClientRect().bottom + parseFloat((globalThis as any).getComputedStyle(document.body).marginBottom)),
      link: (() => {
        const a = document.querySelector('.widget-foot a');
        return { href: a.href as string, target: a.target as string, rel: a.rel as string };
      })(),
    };
  });
}

/** The rows a day shows: Diyanet's imsak is its fajr, one İmsak row with fajr's instant. */
function expectedRows(today: Today, language: 'tr' | 'en') {
  const merged = today.times.imsak === today.times.fajr;
  const names = merged ? TIME_NAMES.filter((n) => n !== (today.method.id === 'diyanet' ? 'fajr' : 'imsak')) : TIME_NAMES;
  return names.map((n) => ({ name: WORDS[language].times[n], datetime: n === 'imsak' && merged ? today.iso.fajr : today.iso[n], time: today.times[n] }));
}

describe.each([
  ['en', 'light'],
  ['en', 'dark'],
  ['tr', 'light'],
  ['tr', 'dark'],
] as const)('the widget in %s, %s, framed by another site', (language, theme) => {
  const w = WORDS[language];
  const other = theme === 'light' ? 'dark' : 'light';

  it('loads at 250 and 400 px with the API’s times and next prayer, fits, and axe finds nothing', async () => {
    const today: Today = await api(`/api/v1/times?city=${KADIKOY}`);
    const next = (await api(`/api/v1/next?city=${KADIKOY}`)).next;
    const src = widgetUrl(language, KADIKOY, `?theme=${theme}`);
    // The device prefers the other scheme: ?theme= decides.
    const opened = await openHost(WIDTHS.map((width) => ({ src, width })), { dark: theme === 'dark', context: { colorScheme: other } });
    try {
      for (const width of WIDTHS) {
        const frame = (await opened.page.locator('iframe').nth(WIDTHS.indexOf(width)).elementHandle())!;
        const content = (await frame.contentFrame())!;
        await content.waitForLoadState('load');
        expect(content.url()).toBe(src);
        const view = await shown(content);
        expect(view.rows, `${width} px`).toEqual(expectedRows(today, language));
        const nextName = next.prayer === 'fajr' && today.method.id === 'diyanet' ? w.times.imsak : w.times[next.prayer as TimeName];
        expect(view.next).toEqual({ name: nextName, datetime: next.iso, time: next.time });
        expect(view.countdown, 'countdown.js runs in the frame').toMatch(/^\d\d:\d\d:\d\d$/);
        expect(view.paper).toBe(PAPER[theme]);
        expect(view.scrollWidth, `sideways scroll at ${width} px`).toBeLessThanOrEqual(view.clientWidth);
        expect(view.contentHeight, `taller than the code's frame at ${width} px`).toBeLessThanOrEqual(WIDGET_FRAME.height);
        expect(view.link).toEqual({ href: placeUrl(view.link.href, language), target: '_blank', rel: 'noopener' });
        const violations = await axeViolations(content);
        expect(violations, formatViolations(violations)).toEqual([]);
        expect((await frame.boundingBox())!.width).toBe(width);
      }
      expect(opened.problems).toEqual([]);
      if ((language === 'en' && theme === 'light') || (language === 'tr' && theme === 'dark')) {
        await screenshot(opened.page, screenshotFile(`widget-${language}-${theme}.png`));
      }
    } finally {
      await opened.close();
    }
  });

  it('follows the device’s scheme without ?theme=', async () => {
    const src = widgetUrl(language, KADIKOY);
    const opened = await openHost([{ src, width: 250 }], { context: { colorScheme: theme } });
    try {
      const content = await frameOf(opened.page, src);
      const view = await shown(content);
      expect(view.paper).toBe(PAPER[theme]);
      expect(view.scrollWidth).toBeLessThanOrEqual(view.clientWidth);
      const violations = await axeViolations(content);
      expect(violations, formatViolations(violations)).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('works with JavaScript off: the day and the next prayer as served', async () => {
    const today: Today = await api(`/api/v1/times?city=${KADIKOY}`);
    const next = (await api(`/api/v1/next?city=${KADIKOY}`)).next;
    const src = widgetUrl(language, KADIKOY, `?theme=${theme}`);
    const opened = await openHost([{ src, width: 250 }], { javaScript: false, context: { colorScheme: other } });
    try {
      const content = await frameOf(opened.page, src);
      const view = await shown(content);
      expect(view.rows).toEqual(expectedRows(today, language));
      expect(view.next.datetime).toBe(next.iso);
      expect(await content.locator('#next-prayer').isVisible()).toBe(true);
      expect(view.countdown).toBeUndefined();
      expect(view.paper).toBe(PAPER[theme]);
      expect(view.scrollWidth).toBeLessThanOrEqual(view.clientWidth);
      expect(view.contentHeight).toBeLessThanOrEqual(WIDGET_FRAME.height);
    } finally {
      await opened.close();
    }
  });
});

describe('the widget framed by another site', () => {
  it.each(['tr', 'en'] as const)('fits its seven rows (London, %s) in the code’s height at 250 px, with no sideways scroll', async (language) => {
    const today: Today = await api(`/api/v1/times?city=${london}`);
    expect(today.times.imsak).not.toBe(today.times.fajr);
    const src = widgetUrl(language, london);
    const opened = await openHost([{ src, width: 250 }, { src: `${src}?theme=dark`, width: 400 }]);
    try {
      for (const [index, url] of [src, `${src}?theme=dark`].entries()) {
        const view = await shown(await frameOf(opened.page, url));
        expect(view.rows).toEqual(expectedRows(today, language));
        expect(view.scrollWidth, url).toBeLessThanOrEqual(view.clientWidth);
        expect(view.contentHeight, `${url} at ${WIDTHS[index]} px`).toBeLessThanOrEqual(WIDGET_FRAME.height);
      }
    } finally {
      await opened.close();
    }
  });

  it('moves on past the next prayer on the browser’s clock (countdown.js)', async () => {
    const today: Today = await api(`/api/v1/times?city=${KADIKOY}`);
    const next = (await api(`/api/v1/next?city=${KADIKOY}`)).next;
    const tomorrowDate = new Date(Date.parse(`${today.date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const tomorrow: Today = await api(`/api/v1/times?city=${KADIKOY}&date=${tomorrowDate}`);
    // The time after the next, on the next one's day (tomorrow's, between isha and midnight), or tomorrow's fajr
    // after isha.
    const day = next.iso === today.iso[next.prayer as TimeName] ? today : tomorrow;
    const index = NEXT_PRAYERS.indexOf(next.prayer);
    const following = index + 1 < NEXT_PRAYERS.length ? { iso: day.iso[NEXT_PRAYERS[index + 1]], time: day.times[NEXT_PRAYERS[index + 1]] } : { iso: tomorrow.iso.fajr, time: tomorrow.times.fajr };
    const src = widgetUrl('en', KADIKOY);
    const before = Date.parse(next.iso) - 60_000;
    const opened = await openHost([{ src, width: 250 }], { clockAt: Math.max(before, Date.now()) });
    try {
      const content = await frameOf(opened.page, src);
      const start = await shown(content);
      expect(start.next.datetime).toBe(next.iso);
      await opened.page.clock.fastForward(Date.parse(next.iso) + 5_000 - Math.max(before, Date.now()));
      await opened.page.clock.runFor(1_000);
      const after = await shown(content);
      expect(after.next).toMatchObject({ datetime: following.iso, time: following.time });
    } finally {
      await opened.close();
    }
  });

  it('opens the place page in a new tab from its link', async () => {
    const src = widgetUrl('tr', KADIKOY);
    const opened = await openHost([{ src, width: 400 }]);
    try {
      const content = await frameOf(opened.page, src);
      const [tab] = await Promise.all([opened.context.waitForEvent('page'), content.locator('.widget-foot a').click()]);
      await tab.waitForLoadState('load');
      expect(tab.url()).toBe(placeUrl(tab.url(), 'tr'));
      expect(await tab.locator('h1').textContent()).toBe(WORDS.tr.prayerTimesIn('Kadıköy'));
      // The mosque's page stays where it was.
      expect(opened.page.url()).toContain(hostOrigin);
    } finally {
      await opened.close();
    }
  });

  it('refuses to show a place page in the same kind of frame (frame-ancestors none)', async () => {
    const placeUrl = `${server.baseUrl}/en/prayer-times/${KADIKOY}`;
    const src = widgetUrl('en', KADIKOY);
    const opened = await openHost([{ src: placeUrl, width: 400 }, { src, width: 250 }]);
    try {
      // The widget beside it loads; the place page's frame holds no page of ours.
      expect((await shown(await frameOf(opened.page, src))).rows.length).toBeGreaterThan(0);
      const frame = (await (await opened.page.locator(`iframe[src="${placeUrl}"]`).elementHandle())!.contentFrame())!;
      // Chromium shows its own "127.0.0.1 is blocked" there.
      const inside = await frame
        .evaluate(() => ({ tables: (globalThis as any).document.querySelectorAll('table').length as number, main: (globalThis as any).document.getElementById('main') !== null }))
        .catch(() => ({ tables: 0, main: false }));
      expect(inside).toEqual({ tables: 0, main: false });
      expect(frame.url()).not.toBe(placeUrl);
      expect(opened.problems.some((p) => p.includes('frame-ancestors'))).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('shows the widget from the place page’s code pasted as it is, which its Copy button copies', async () => {
    const placeUrl = `${server.baseUrl}/en/prayer-times/${KADIKOY}`;
    const place = await openPage(await launching, placeUrl, { viewport: { width: 360, height: 800 }, context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    let code: string;
    try {
      code = await place.page.locator('#widget-code').inputValue();
      const button = place.page.locator('button[data-copy="widget-code"]');
      await expect.poll(() => button.isVisible()).toBe(true);
      await button.click();
      await expect.poll(() => place.page.locator('#widget-copy-status').textContent()).toBe(WORDS.en.copied);
      expect(await place.page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(code);
      const offer = await axeViolations(place.page);
      expect(offer, formatViolations(offer)).toEqual([]);
      expect(await place.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).document.documentElement.clientWidth)).toBe(true);
    } finally {
      await place.close();
    }
    const noScript = await openPage(await launching, placeUrl, { javaScript: false });
    try {
      // Without the script no dead button; the field is there to select.
      expect(await noScript.page.locator('button[data-copy="widget-code"]').isVisible()).toBe(false);
      expect(await noScript.page.locator('#widget-code').inputValue()).toBe(code);
    } finally {
      await noScript.close();
    }
    const pasted = await openHost([], { code });
    try {
      const src = /src="([^"]+)"/.exec(code)![1].replace(/&amp;/g, '&');
      const view = await shown(await frameOf(pasted.page, src));
      expect(view.rows.length).toBeGreaterThan(0);
      expect(view.contentHeight).toBeLessThanOrEqual(WIDGET_FRAME.height);
      expect(pasted.problems).toEqual([]);
    } finally {
      await pasted.close();
    }
  });
});
