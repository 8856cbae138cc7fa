// The widget over HTTP (`/embed/tr/{path}`, `/embed/en/{path}`), from a real server: today's times equal the API's,
// the next prayer is the API's, any site may frame it (`frame-ancestors *`, no X-Frame-Options) while every other page
// keeps `frame-ancestors 'none'`, it sets no cookie and loads nothing from elsewhere, `?theme=` is checked (400 in the
// frame, never 500) and kept apart in the page cache, it is cached like a place page, unknown places are a 404 and old
// paths a 301; the place page offers its <iframe> code.
import { describe, expect, it } from 'vitest';
import { siteServerForFile } from '../../testing/siteServer.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';
const WIDGETS = { tr: `/embed/tr/${PLACE}`, en: `/embed/en/${PLACE}` } as const;
const PLACE_PAGES = { tr: `/tr/namaz-vakitleri/${PLACE}`, en: `/en/prayer-times/${PLACE}` } as const;
const TIME_NAMES = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;

const site = siteServerForFile(BASE);

const api = (path: string): Promise<any> => site.api(path);

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${site.server.baseUrl}${path}`, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Today's rows: name, instant and clock, in the widget's order. */
const rowsOf = (page: string): Array<{ name: string; iso: string; time: string }> => {
  const table = /<main[\s\S]*?<table class="today-times">([\s\S]*?)<\/table>/.exec(page)![1];
  return [...table.matchAll(/<th scope="row">([^<]+)<\/th><td><time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => ({ name: m[1], iso: m[2], time: m[3] }));
};

const unescape = (text: string): string => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function expectFramableByAnySite(headers: Headers, where: string): void {
  const csp = headers.get('content-security-policy')!;
  expect(csp, where).toMatch(/(^|; )frame-ancestors \*($|;)/);
  expect(csp, where).not.toContain("frame-ancestors 'none'");
  expect(csp, where).toContain("script-src 'self'");
  expect(csp, where).not.toContain('unsafe-inline');
  expect(headers.get('x-frame-options'), where).toBeNull();
  expect(headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(headers.get('referrer-policy'), where).toBe('strict-origin-when-cross-origin');
  expect(headers.get('set-cookie'), where).toBeNull();
}

describe.each(['tr', 'en'] as const)('the widget in %s', (language) => {
  const w = WORDS[language];

  it('shows today’s times and the next prayer as the API gives them, and links to the place page in a new tab', async () => {
    const times = await api(`/api/v1/times?city=${PLACE}`);
    const next = await api(`/api/v1/next?city=${PLACE}`);
    const page = await get(WIDGETS[language]);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Kadıköy's method is Diyanet's: imsak is its fajr, one row named İmsak.
    expect(times.times.imsak).toBe(times.times.fajr);
    const shown = TIME_NAMES.filter((n) => n !== 'fajr');
    expect(rowsOf(page.text)).toEqual(shown.map((n) => ({ name: w.times[n], iso: n === 'imsak' ? times.iso.fajr : times.iso[n], time: times.times[n] })));
    expect(page.text).toContain(`<html lang="${language}">`);
    expect(page.text).toContain(`<time datetime="${next.next.iso}">${next.next.time}</time>`);
    expect(page.text).toContain('<meta name="robots" content="noindex, follow">');
    expect(page.text).toContain(`<a href="${BASE}${PLACE_PAGES[language]}" target="_blank" rel="noopener">${w.fullTimetable}<span class="visually-hidden"> ${w.opensInNewTab}</span></a>`);
    // Tomorrow is in the page for countdown.js, as on the place page.
    expect(page.text).toMatch(/<template id="next-day">[\s\S]*data-day-part="times"[\s\S]*<\/template>/);
  });

  it('may be framed by any site, sets no cookie and loads nothing from elsewhere', async () => {
    const page = await get(WIDGETS[language]);
    expectFramableByAnySite(page.headers, WIDGETS[language]);
    const loaded = [...page.text.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(loaded.length).toBeGreaterThan(0);
    for (const url of loaded) expect(url, url).toMatch(new RegExp(`^(/assets/|${BASE.replace(/\./g, '\\.')}/embed/)`));
    // Its scripts and styles answer, and are ours.
    for (const url of loaded.filter((u) => u.startsWith('/assets/'))) expect((await get(url)).status, url).toBe(200);
  });
});

describe('framing by page kind', () => {
  it('keeps frame-ancestors none and X-Frame-Options DENY on every other page', async () => {
    for (const [path, status] of [
      [PLACE_PAGES.en, 200],
      [PLACE_PAGES.tr, 200],
      ['/', 200],
      ['/en', 200],
      ['/en/prayer-times/turkey', 200],
      ['/docs', 200],
      ['/pricing', 200],
      ['/en/search?q=kadikoy', 200],
      [`${PLACE_PAGES.en}?method=nope`, 400],
      ['/en/prayer-times/nowhere', 404],
      ['/embed', 404],
      ['/embed/de/turkey/istanbul/kadikoy', 404],
    ] as const) {
      const page = await get(path);
      expect(page.status, path).toBe(status);
      expect(page.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy'), path).not.toContain('frame-ancestors *');
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('lets the widget’s own 404, 400 and 301 be framed, so a host sees them in the frame', async () => {
    for (const [path, status] of [
      ['/embed/en/nowhere/at/all', 404],
      ['/embed/tr', 404],
      [`${WIDGETS.en}?theme=blue`, 400],
      [`${WIDGETS.en}?method=nope`, 400],
      ['/embed/en/Turkey/Istanbul/Kadikoy', 301],
    ] as const) {
      const page = await get(path);
      expect(page.status, path).toBe(status);
      expectFramableByAnySite(page.headers, path);
    }
  });
});

describe('?theme=', () => {
  it('fixes the colours light or dark, follows the device without it, and keeps each apart in the page cache', async () => {
    for (const round of [1, 2]) {
      for (const [query, attribute] of [
        ['?theme=dark', ' data-theme="dark"'],
        ['?theme=light', ' data-theme="light"'],
        ['', ''],
        ['?theme=', ''],
      ] as const) {
        const page = await get(`${WIDGETS.en}${query}`);
        expect(page.status, `${query} (round ${round})`).toBe(200);
        expect(page.text, `${query} (round ${round})`).toContain(`<html lang="en"${attribute}>`);
      }
    }
    const [dark, light] = await Promise.all([get(`${WIDGETS.en}?theme=dark`), get(`${WIDGETS.en}?theme=light`)]);
    expect(dark.headers.get('etag')).not.toBe(light.headers.get('etag'));
    // The reload link of a page left open keeps the theme.
    expect(dark.text).toContain(`<a href="${WIDGETS.en}?theme=dark">`);
  });

  it('answers a bad value with a readable 400 in the page’s language, escaped, never a 500', async () => {
    for (const language of ['tr', 'en'] as const) {
      for (const value of ['blue', 'DARK', '"><script>alert(1)</script>', '%ZZ']) {
        const page = await get(`${WIDGETS[language]}?theme=${encodeURIComponent(value)}`);
        expect(page.status, value).toBe(400);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('cache-control')).toBe('no-cache');
        expect(page.text).toContain(`<html lang="${language}">`);
        expect(page.text).toContain(`<h1>${WORDS[language].badRequestTitle}</h1>`);
        expect(page.text).toContain(WORDS[language].themeInvalid);
        expect(page.text).not.toContain('<script>alert');
      }
    }
  });
});

describe('choices, caching and paths', () => {
  it('honours ?method= and ?madhab= with the API’s times, carried to the place page, and refuses a bad one in the frame', async () => {
    const query = 'method=muslimWorldLeague&madhab=hanafi';
    const times = await api(`/api/v1/times?city=${PLACE}&${query}`);
    const page = await get(`${WIDGETS.en}?${query}&theme=dark`);
    expect(page.status).toBe(200);
    // Imsak is fajr − 10 min under this method: both rows.
    expect(rowsOf(page.text)).toEqual(TIME_NAMES.map((n) => ({ name: WORDS.en.times[n], iso: times.iso[n], time: times.times[n] })));
    expect(page.text).toContain(`<a href="${BASE}${PLACE_PAGES.en}?method=muslimWorldLeague&amp;madhab=hanafi" target="_blank" rel="noopener">`);
    const bad = await get(`${WIDGETS.tr}?madhab=maliki`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('madhab');
  });

  it('has an ETag answered with 304 and is kept at most until the place’s next midnight', async () => {
    const first = await get(WIDGETS.tr, { 'accept-encoding': 'identity' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(first.headers.get('cache-control')!)![1]);
    const times = await api(`/api/v1/times?city=${PLACE}`);
    const tomorrow = new Date(`${times.date}T00:00:00+03:00`).getTime() + 86_400_000; // Istanbul keeps +03 all year
    expect(maxAge).toBeGreaterThan(0);
    expect(Date.now() + maxAge * 1000).toBeLessThanOrEqual(tomorrow + 1000);
    const again = await get(WIDGETS.tr, { 'if-none-match': etag, 'accept-encoding': 'identity' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expectFramableByAnySite(again.headers, '304');
    // Compressed as asked, with the form's own ETag.
    const br = await get(WIDGETS.tr, { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('etag')).toBe(`${etag.slice(0, -1)}-br"`);
  });

  it('answers an unknown place with a 404 in the frame, and sends old and other spellings of a path on with a 301', async () => {
    const missing = await get('/embed/tr/turkey/istanbul/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(`<h1>${WORDS.tr.notFoundTitle}</h1>`);
    expect(missing.text).toContain('<html lang="tr">');
    for (const [from, to] of [
      ['/embed/en/Turkey/Istanbul/Kadikoy', `${BASE}${WIDGETS.en}`],
      ['/embed/en/turkey//istanbul/kadikoy/', `${BASE}${WIDGETS.en}`],
      ['/embed/tr/turkiye/istanbul/kadikoy', `${BASE}${WIDGETS.tr}`],
      ['/embed/tr/turkey/istanbul/eminoenue', `${BASE}/embed/tr/turkey/istanbul/eminonu`],
      // The choices and theme go along; anything else does not.
      ['/embed/en/turkey/istanbul/eminoenue?theme=dark&utm_source=x&method=diyanet', `${BASE}/embed/en/turkey/istanbul/eminonu?method=diyanet&theme=dark`],
    ] as const) {
      const page = await get(from);
      expect(page.status, from).toBe(301);
      expect(page.headers.get('location'), from).toBe(to);
      expect((await get(to.slice(BASE.length))).status, to).toBe(200);
    }
  });
});

describe('the place page’s offer', () => {
  it.each(['tr', 'en'] as const)('gives the <iframe> code of this place and language (%s), which answers', async (language) => {
    const page = await get(PLACE_PAGES[language]);
    const field = /<textarea id="widget-code" class="snippet" rows="4" readonly[^>]*>([^<]*)<\/textarea>/.exec(page.text);
    expect(field, 'the code field').not.toBeNull();
    expect(page.text).toContain('<label for="widget-code">');
    const snippet = unescape(field![1]);
    const attributes = Object.fromEntries([...snippet.matchAll(/ ([a-z]+)="([^"]*)"/g)].map((m) => [m[1], unescape(m[2])]));
    expect(snippet).toMatch(/^<iframe [^<>]*><\/iframe>$/);
    expect(attributes.src).toBe(`${BASE}${WIDGETS[language]}`);
    expect(attributes.title).toBe(WORDS[language].prayerTimesIn('Kadıköy'));
    expect(Number(attributes.height)).toBeGreaterThan(0);
    expect((await get(attributes.src.slice(BASE.length))).status).toBe(200);
    // The Copy button is the script's to show.
    expect(page.text).toMatch(/<button type="button" data-copy="widget-code"[^>]* hidden>/);
    expect(page.text).toMatch(/<script src="\/assets\/copySnippet\.js\?v=[\w-]+" defer><\/script>/);
  });

  it('carries the page’s method and madhab into the code', async () => {
    const page = await get(`${PLACE_PAGES.en}?method=muslimWorldLeague&madhab=hanafi`);
    const snippet = unescape(/<textarea id="widget-code"[^>]*>([^<]*)<\/textarea>/.exec(page.text)![1]);
    const src = unescape(/ src="([^"]*)"/.exec(snippet)![1]);
    expect(src).toBe(`${BASE}${WIDGETS.en}?method=muslimWorldLeague&madhab=hanafi`);
    expect((await get(src.slice(BASE.length))).status).toBe(200);
  });
});
