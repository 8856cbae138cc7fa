// The installable app over HTTP, from a real server: each language's manifest (its type, name, start URL and scope,
// colours, icons), the icons themselves (PNG of the sizes the manifest says, read from their headers; the maskable one
// opaque), /favicon.ico (PNG images in an ICO), /sw.js (its type, headers and the settings written into it), what
// every page's head carries for them, the hidden offline notice the worker looks for, the offline pages, the CSP,
// and the instants a place page's month carries for a copy kept offline.
import { describe, expect, it } from 'vitest';
import { siteServerForFile } from '../../testing/siteServer.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';
const PLACE_PAGES = { tr: `/tr/namaz-vakitleri/${PLACE}`, en: `/en/prayer-times/${PLACE}` } as const;
const MANIFESTS = { tr: '/tr/manifest.webmanifest', en: '/manifest.webmanifest' } as const;
const HOMES = { tr: '/tr', en: '/en' } as const;
const OFFLINE_PAGES = { tr: '/tr/cevrimdisi', en: '/en/offline' } as const;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const site = siteServerForFile(BASE);

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer; text: string }> {
  const response = await fetch(`${site.server.baseUrl}${path}`, { headers, redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body, text: body.toString('utf8') };
}

/** A PNG's width, height and colour type, from its IHDR chunk (the first, right after the signature). */
function pngHeader(png: Buffer): { width: number; height: number; colourType: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colourType: png.readUInt8(25) };
}

/** The settings written into /sw.js. */
async function workerSettings(): Promise<Record<string, any>> {
  const { text } = await get('/sw.js');
  const match = /var CONFIG = (\{.*?\});\n/.exec(text);
  expect(match, 'the settings in /sw.js').not.toBeNull();
  return JSON.parse(match![1]);
}

const attribute = (page: string, selector: RegExp): string | undefined => selector.exec(page)?.[1];

describe.each(['tr', 'en'] as const)('the %s app', (language) => {
  const w = WORDS[language];

  it('has a manifest of the manifest type with its name, start URL, scope, colours and icons', async () => {
    const res = await get(MANIFESTS[language]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/manifest+json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const manifest = JSON.parse(res.text);
    expect(manifest).toMatchObject({
      id: HOMES[language],
      name: w.siteName,
      short_name: w.appShortName,
      description: w.tagline,
      lang: language,
      start_url: HOMES[language],
      scope: HOMES[language],
      display: 'standalone',
      theme_color: '#0b5d4b',
      background_color: '#ffffff',
    });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    // The start URL is a page of the site in that language, and within the scope.
    const start = await get(manifest.start_url);
    expect(start.status).toBe(200);
    expect(start.text).toContain(`<html lang="${language}">`);
    expect(manifest.start_url.startsWith(manifest.scope)).toBe(true);

    const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>;
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of icons) {
      const file = await get(icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get('content-type'), icon.src).toBe('image/png');
      expect(file.headers.get('cache-control'), icon.src).toBe('public, max-age=31536000, immutable');
      expect(icon.type).toBe('image/png');
      const { width, height, colourType } = pngHeader(file.body);
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      // A maskable icon is cut to the launcher's shape: no transparent corners (colour type 2, RGB without alpha).
      if (icon.purpose === 'maskable') expect(colourType, icon.src).toBe(2);
    }
  });

  it('is linked from every page in that language, with the theme colour, the icons and the worker’s registration', async () => {
    const pages = [HOMES[language], PLACE_PAGES[language], OFFLINE_PAGES[language], `${PLACE_PAGES[language]}?month=2027-02`, language === 'tr' ? '/tr/ara?q=kad' : '/en/search?q=kad'];
    for (const path of pages) {
      const { status, text, headers } = await get(path);
      expect(status, path).toBe(200);
      expect(text, path).toContain(`<link rel="manifest" href="${MANIFESTS[language]}">`);
      expect(text, path).toContain('<meta name="theme-color" content="#0b5d4b">');
      expect(text, path).toMatch(/<link rel="icon" href="\/favicon\.ico" sizes="16x16 32x32 48x48">/);
      expect(text, path).toMatch(/<script src="\/assets\/offline\.js\?v=[\w-]+" defer data-service-worker="\/sw\.js"><\/script>/);
      // The offline notice, in the page's language, hidden until the worker answers a copy.
      expect(text, path).toContain(`<p id="offline-notice" class="offline-notice" role="status" hidden>${w.offlineNotice.replace(/'/g, '&#39;')}</p>`);
      const csp = headers.get('content-security-policy')!;
      for (const directive of ["script-src 'self'", "manifest-src 'self'", "worker-src 'self'"]) expect(csp, path).toContain(directive);
      expect(csp, path).not.toContain('unsafe-inline');
      const touchIcon = attribute(text, /<link rel="apple-touch-icon" href="([^"]+)">/);
      expect(touchIcon, path).toBeDefined();
      const icon = await get(touchIcon!);
      expect(icon.headers.get('content-type')).toBe('image/png');
      expect(pngHeader(icon.body)).toEqual({ width: 180, height: 180, colourType: 2 });
    }
  });

  it('has an offline page: not for search engines, in that language, naming the cache the worker keeps places in', async () => {
    const { status, text } = await get(OFFLINE_PAGES[language]);
    expect(status).toBe(200);
    expect(text).toContain(`<html lang="${language}">`);
    expect(text).toContain('<meta name="robots" content="noindex, follow">');
    expect(text).toContain(`<h1>${w.offlineTitle}</h1>`);
    const settings = await workerSettings();
    expect(attribute(text, /<div id="kept-places" data-cache="([^"]+)"/)).toBe(settings.pagesCache);
    expect(attribute(text, /<div id="kept-places" data-cache="[^"]+" data-prefixes="([^"]+)"/)).toBe(settings.placePrefixes.join(' '));
  });
});

describe('the service worker', () => {
  it('is served from the root as JavaScript, revalidated every time, with an ETag and a 304', async () => {
    const res = await get('/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    // At the root its scope is the whole site: it needs no Service-Worker-Allowed.
    expect(res.headers.get('service-worker-allowed')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get('/sw.js', { 'if-none-match': etag })).status).toBe(304);
    const brotli = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(res.text).not.toContain('/* CONFIG */');
  });

  it('keeps this deploy’s static files (not the dashboard’s) and the offline pages, in a cache named by its version', async () => {
    const settings = await workerSettings();
    expect(settings.shellCache).toBe(`prayer-times-shell-${settings.version}`);
    expect(settings.pagesCache).toBe('prayer-times-pages');
    expect(settings.keptPlaces).toBe(10);
    expect(settings.shell).toEqual(expect.arrayContaining([OFFLINE_PAGES.tr, OFFLINE_PAGES.en]));
    // Everything a place page and a home link from /assets is kept, at the very version they link.
    for (const path of [PLACE_PAGES.tr, PLACE_PAGES.en, HOMES.tr]) {
      const { text } = await get(path);
      const linked = [...text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      expect(linked.length, path).toBeGreaterThan(3);
      expect(settings.shell, path).toEqual(expect.arrayContaining(linked));
    }
    for (const href of settings.shell as string[]) expect((await get(href)).status, href).toBe(200);
    expect(settings.shell.some((href: string) => /passkeys|simplewebauthn/.test(href))).toBe(false);
    expect(settings.shellFiles).toEqual(expect.arrayContaining(['/assets/site.css', '/assets/countdown.js', '/assets/offline.js']));
    // The worker unhides the notice by its markup: the very markup pages carry.
    const { text } = await get(PLACE_PAGES.en);
    expect(text).toContain(settings.noticeHidden);
    expect(settings.noticeShown).toBe(settings.noticeHidden.replace(' hidden>', '>'));
    // It touches the site's pages alone: never the dashboard, the API, MCP or the widget.
    expect(settings.sitePrefixes.sort()).toEqual(['/docs', '/en', '/pricing', '/tr']);
    expect(settings.homes.sort()).toEqual(['/en', '/tr']);
    expect(settings.placePrefixes.sort()).toEqual(['/en/prayer-times/', '/tr/namaz-vakitleri/']);
  });
});

describe('the favicon', () => {
  it('is an ICO at /favicon.ico whose images are PNGs of 16, 32 and 48 px', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const ico = res.body;
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const [width, length, offset] = [ico.readUInt8(entry), ico.readUInt32LE(entry + 8), ico.readUInt32LE(entry + 12)];
      const png = pngHeader(ico.subarray(offset, offset + length));
      expect([png.width, png.height]).toEqual([width, width]);
      sizes.push(width);
    }
    expect(sizes).toEqual([16, 32, 48]);
    expect((await get('/favicon.ico', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });
});

describe('a place page’s month, for a copy kept offline', () => {
  it('carries the instant each day ends (the zone’s midnights) and the instant the month begins', async () => {
    const { text } = await get(`${PLACE_PAGES.en}?month=2027-03`);
    const starts = attribute(text, /<table class="month">[\s\S]*?<tbody data-starts="([^"]+)">/);
    // İstanbul keeps UTC+3 all year: each local day runs from 21:00 UTC to 21:00 UTC.
    expect(starts).toBe('2027-02-28T21:00:00Z');
    const rows = [...text.matchAll(/<tr data-ends="([^"]+)"[^>]*><th scope="row"><time datetime="([^"]+)">/g)].map((m) => [m[2], m[1]]);
    expect(rows).toHaveLength(31);
    rows.forEach(([date, ends], i) => {
      expect(date).toBe(`2027-03-${String(i + 1).padStart(2, '0')}`);
      expect(ends).toBe(new Date(Date.UTC(2027, 2, i + 1, 21)).toISOString().replace('.000Z', 'Z'));
    });
    const month = await fetch(`${site.server.baseUrl}/api/v1/month?city=${PLACE}&year=2027&month=3`, { headers: { 'X-API-Key': site.key } }).then((r) => r.json() as Promise<{ days: unknown[] }>);
    expect(month.days).toHaveLength(rows.length);
  });

  it('in a zone with summer time, the day of the change is 23 hours long', async () => {
    const { text } = await get('/en/prayer-times/united-kingdom/england/london?month=2027-03');
    const starts = attribute(text, /<tbody data-starts="([^"]+)">/);
    expect(starts).toBe('2027-03-01T00:00:00Z');
    const ends = new Map([...text.matchAll(/<tr data-ends="([^"]+)"[^>]*><th scope="row"><time datetime="([^"]+)">/g)].map((m) => [m[2], m[1]]));
    // Clocks go forward at 01:00 UTC on 28 March 2027: the 28th ends at 23:00 UTC, the 31st too.
    expect(ends.get('2027-03-27')).toBe('2027-03-28T00:00:00Z');
    expect(ends.get('2027-03-28')).toBe('2027-03-28T23:00:00Z');
    expect(ends.get('2027-03-31')).toBe('2027-03-31T23:00:00Z');
  });
});
