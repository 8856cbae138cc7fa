// The site over HTTP, from a real server: every place URL the API hands out answers with the API's own times (from
// the store and live), pages carry the contract's headers, canonical URLs, alternates and breadcrumbs, conditional
// requests get 304, wrong spellings of a path get a 301, unknown paths a localized 404, and nothing a client sends
// comes back unescaped (browsers percent-encode quotes and brackets in paths; a raw one in a request line is
// nginx's to refuse, deploy/nginx.test.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { storeAndLiveServers, type ServerWithKey } from '../../testing/serverProcess.js';

const BASE = 'https://prayer-times.example';
const TIME_NAMES = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
type TimeName = (typeof TIME_NAMES)[number];

/**
 * The times a page shows, in order: where imsak and fajr are one instant on every day (Diyanet, the UAE, Perlis), one
 * row and one column for both — Diyanet's named İmsak, the others' Fajr.
 */
function shownNames(times: { method: { id: string }; times: Record<TimeName, string> }, month: { days: Array<{ times: Record<TimeName, string> }> }): readonly TimeName[] {
  const one = [times, ...month.days].every((d) => d.times.imsak === d.times.fajr);
  if (!one) return TIME_NAMES;
  const dropped = times.method.id === 'diyanet' ? 'fajr' : 'imsak';
  return TIME_NAMES.filter((n) => n !== dropped);
}

let servers: Awaited<ReturnType<typeof storeAndLiveServers>> | undefined;
let withStore: ServerWithKey;
let live: ServerWithKey;
let catalog: PlaceCatalog;
/** Places spread over the catalog, and a few chosen ones: a Turkish district, the far north, the date line. */
let sample: string[];

beforeAll(async () => {
  catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => BASE })!;
  const spread = catalog.places.filter((_, i) => i % 5000 === 17).map((p) => p.path);
  const chosen = ['turkey/istanbul/kadikoy', 'turkey/ankara/polatli'];
  for (const name of ['Tromsø', 'Apia', 'Kuala Lumpur', 'Reykjavík', 'Ushuaia']) chosen.push(catalog.find(name, 1)[0].path);
  sample = [...new Set([...chosen, ...spread])];
  const year = new Date().getUTCFullYear();
  const ids = sample.map((p) => catalog.byPath(p)!.id);
  servers = await storeAndLiveServers(inject('catalogDataDir'), (dataDir) =>
    precompute({ dataDir, years: [year, year + 1], methods: 'default', madhabs: 'default', scope: `places:${ids.join(',')}` }),
  );
  ({ withStore, live } = servers);
}, 180_000);
afterAll(async () => {
  await servers?.stop();
});

const local = (s: ServerWithKey, url: string): string => url.replace(BASE, s.server.baseUrl);

async function api(s: ServerWithKey, path: string): Promise<any> {
  const response = await fetch(`${s.server.baseUrl}${path}`, { headers: { authorization: `Bearer ${s.key}` } });
  expect(response.status, path).toBe(200);
  return response.json();
}

async function get(s: ServerWithKey, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(path.startsWith('http') ? path : `${s.server.baseUrl}${path}`, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Today's table as (instant, clock) pairs, in the page's order. */
function todayTable(page: string): Array<{ iso: string; time: string }> {
  const table = /<table class="today-times">([\s\S]*?)<\/table>/.exec(page)![1];
  return [...table.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => ({ iso: m[1], time: m[2] }));
}

/**
 * The month table: the date of each row, its seven clocks and which are marked estimated (a row also carries the
 * instant its day ends).
 */
function monthTable(page: string): Array<{ date: string; times: string[]; estimated: boolean[]; today: boolean }> {
  const table = /<table class="month">([\s\S]*?)<\/table>/.exec(page)![1];
  const cell = '<td>[^<]*(?:<sup class="estimated">\\*</sup>)?</td>';
  const row = new RegExp(`<tr(?: data-ends="[^"]+")?( class="today" aria-current="date")?><th scope="row"><time datetime="([^"]+)">[\\s\\S]*?</th><td>[^<]*</td>((?:${cell}){6,7})</tr>`, 'g');
  return [...table.matchAll(row)].map((m) => {
    const cells = [...m[3].matchAll(/<td>([^<]*)(<sup class="estimated">\*<\/sup>)?<\/td>/g)];
    return { date: m[2], today: m[1] !== undefined, times: cells.map((t) => t[1]), estimated: cells.map((t) => t[2] !== undefined) };
  });
}

describe('every place URL in a Location object', () => {
  it.each([['the store', () => withStore], ['live computation', () => live]] as const)(
    'answers 200 in both languages with the API’s times and month (%s)',
    async (_, server) => {
      const s = server();
      for (const path of sample) {
        const times = await api(s, `/api/v1/times?city=${encodeURIComponent(path)}`);
        const month = await api(s, `/api/v1/month?city=${encodeURIComponent(path)}`);
        for (const language of ['tr', 'en'] as const) {
          const page = await get(s, local(s, times.location.urls[language]));
          expect(page.status, times.location.urls[language]).toBe(200);
          const names = shownNames(times, month);
          expect(todayTable(page.text), path).toEqual(names.map((n) => ({ iso: times.iso[n], time: times.times[n] })));
          const rows = monthTable(page.text);
          expect(rows.map((r) => r.date), path).toEqual(month.days.map((d: any) => d.date));
          expect(rows.map((r) => r.times), path).toEqual(month.days.map((d: any) => names.map((n) => d.times[n])));
          expect(rows.map((r) => r.estimated), path).toEqual(month.days.map((d: any) => names.map((n) => d.estimated.includes(n))));
          expect(rows.filter((r) => r.today).map((r) => r.date)).toEqual([times.date]);
          expect(page.text).toContain(`<html lang="${language}">`);
        }
      }
    },
    120_000,
  );

  it('agrees with the API for another method, madhab and month', async () => {
    const query = 'method=muslimWorldLeague&madhab=hanafi';
    const times = await api(live, `/api/v1/times?city=turkey/istanbul/kadikoy&${query}`);
    const month = await api(live, `/api/v1/month?city=turkey/istanbul/kadikoy&${query}&year=2027&month=2`);
    const page = await get(live, `/en/prayer-times/turkey/istanbul/kadikoy?${query}&month=2027-02`);
    expect(page.status).toBe(200);
    // Imsak is fajr − 10 min under this method: both rows, both columns.
    expect(shownNames(times, month)).toEqual(TIME_NAMES);
    expect(todayTable(page.text)).toEqual(TIME_NAMES.map((n) => ({ iso: times.iso[n], time: times.times[n] })));
    expect(monthTable(page.text).map((r) => r.times)).toEqual(month.days.map((d: any) => TIME_NAMES.map((n) => d.times[n])));
    expect(page.text).toContain('<meta name="robots" content="noindex, follow">');
    expect(page.text).toContain(`<link rel="canonical" href="${BASE}/en/prayer-times/turkey/istanbul/kadikoy">`);
    expect(page.text).toMatch(/<option value="muslimWorldLeague" selected>/);
    // The page's own curl gives the same data.
    const curl = /curl -H "Authorization: Bearer \$KEY" '([^']+)'/.exec(page.text)![1].replace(/&amp;/g, '&');
    expect(curl).toBe(`${BASE}/api/v1/times?city=turkey/istanbul/kadikoy&${query}`);
    expect((await api(live, curl.replace(BASE, ''))).times).toEqual(times.times);
  });

  it('marks the estimated times of the month with a * and says what it means (Tromsø, midnight sun and polar night)', async () => {
    const tromso = catalog.find('Tromsø', 1)[0].path;
    for (const [yearMonth, note] of [['2027-06', 'does not rise or set'], ['2027-12', 'does not rise or set']] as const) {
      const [year, monthNumber] = yearMonth.split('-').map(Number);
      const month = await api(live, `/api/v1/month?city=${encodeURIComponent(tromso)}&year=${year}&month=${monthNumber}`);
      const page = (await get(live, `/en/prayer-times/${tromso}?month=${yearMonth}`)).text;
      const rows = monthTable(page);
      expect(rows).toHaveLength(month.days.length);
      expect(rows.flatMap((r) => r.estimated).filter(Boolean).length, yearMonth).toBeGreaterThan(3 * 28);
      expect(page).toContain(`<p class="note">Times marked * are estimated (here on that day the sun does not reach the angle, or ${note}).</p>`);
      const tr = (await get(live, `/tr/namaz-vakitleri/${tromso}?month=${yearMonth}`)).text;
      expect(tr).toContain('<p class="note">* ile işaretli vakitler tahminidir');
    }
    // A month without estimates has no marks and no note.
    const istanbul = (await get(live, '/en/prayer-times/turkey/istanbul/kadikoy?month=2027-03')).text;
    expect(istanbul).not.toContain('class="estimated"');
    expect(istanbul).not.toContain('Times marked *');
  });

  it('marks the API’s next prayer', async () => {
    const next = await api(live, '/api/v1/next?city=turkey/istanbul/kadikoy');
    const page = (await get(live, '/tr/namaz-vakitleri/turkey/istanbul/kadikoy')).text;
    expect(page).toContain(`<time datetime="${next.next.iso}">${next.next.time}</time>`);
    const marked = /<tr data-at="([^"]+)"[^>]* class="next" aria-current="time">/.exec(page);
    // After isha the next prayer is tomorrow's fajr: no row of today is marked then.
    if (marked) expect(marked[1]).toBe(next.next.iso);
    else expect(next.previous.prayer).toBe('isha');
  });
});

describe('headers, caching and links', () => {
  it('gives every HTML answer the security headers', async () => {
    for (const [path, status] of [
      ['/en/prayer-times/turkey/istanbul/kadikoy', 200],
      ['/tr', 200],
      ['/en/prayer-times/Turkey/Istanbul/Kadikoy', 301],
      ['/en/prayer-times/turkey/istanbul/kadikoy?method=nope', 400],
      ['/tr/namaz-vakitleri/nowhere', 404],
    ] as const) {
      const page = await get(live, path);
      expect(page.status, path).toBe(status);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('answers a matching If-None-Match with 304, and keeps a place page at most until its next midnight', async () => {
    const path = '/en/prayer-times/turkey/istanbul/kadikoy';
    const first = await get(live, path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers.get('cache-control')!)![1]);
    const times = await api(live, '/api/v1/times?city=turkey/istanbul/kadikoy');
    const tomorrow = new Date(`${times.date}T00:00:00+03:00`).getTime() + 86_400_000; // Istanbul keeps +03 all year
    expect(maxAge).toBeGreaterThan(0);
    expect(Date.now() + maxAge * 1000).toBeLessThanOrEqual(tomorrow + 1000);
    const again = await get(live, path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get(live, path, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('has a canonical URL, hreflang alternates and breadcrumb JSON-LD', async () => {
    const page = (await get(live, '/tr/namaz-vakitleri/turkey/istanbul/kadikoy')).text;
    expect(page).toContain(`<link rel="canonical" href="${BASE}/tr/namaz-vakitleri/turkey/istanbul/kadikoy">`);
    expect(page).toContain(`<link rel="alternate" hreflang="tr" href="${BASE}/tr/namaz-vakitleri/turkey/istanbul/kadikoy">`);
    expect(page).toContain(`<link rel="alternate" hreflang="en" href="${BASE}/en/prayer-times/turkey/istanbul/kadikoy">`);
    expect(page).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}/en/prayer-times/turkey/istanbul/kadikoy">`);
    expect(page).not.toContain('noindex');
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)![1]);
    expect(jsonLd['@type']).toBe('BreadcrumbList');
    expect(jsonLd.itemListElement.map((i: any) => [i.position, i.name, i.item])).toEqual([
      [1, 'Ana sayfa', `${BASE}/tr`],
      [2, 'Türkiye', `${BASE}/tr/namaz-vakitleri/turkey`],
      [3, 'İstanbul', `${BASE}/tr/namaz-vakitleri/turkey/istanbul`],
      [4, 'Kadıköy', `${BASE}/tr/namaz-vakitleri/turkey/istanbul/kadikoy`],
    ]);
    // Every link of the breadcrumb answers.
    for (const item of jsonLd.itemListElement) expect((await get(live, local(live, item.item))).status, item.item).toBe(200);
  });

  it('gives a page in English only (the docs) its English alternate alone', async () => {
    const docs = (await get(live, '/docs/api')).text;
    expect(docs).toContain(`<link rel="alternate" hreflang="en" href="${BASE}/docs/api">`);
    expect(docs).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}/docs/api">`);
    expect(docs).not.toContain('hreflang="tr" href');
  });

  it('lists every region of a country and every place of a region, each answering 200', async () => {
    const country = (await get(live, '/en/prayer-times/turkey')).text;
    const regions = [...country.matchAll(/<a href="(\/en\/prayer-times\/turkey\/[a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(new Set(regions.filter((r) => r.split('/').length === 5)).size).toBe(81);
    const region = (await get(live, '/en/prayer-times/turkey/istanbul')).text;
    const places = [...region.matchAll(/<li><a href="(\/en\/prayer-times\/turkey\/istanbul\/[a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(places).toContain('/en/prayer-times/turkey/istanbul/kadikoy');
    expect(places.length).toBe(catalog.places.filter((p) => p.path.startsWith('turkey/istanbul/')).length);
    for (const path of places.slice(0, 5)) expect((await get(live, path)).status, path).toBe(200);
  });

  it('sends other spellings of a known path to the canonical URL with a 301', async () => {
    for (const path of ['/en/prayer-times/Turkey/Istanbul/Kadikoy', '/en/prayer-times/turkey/istanbul/kadikoy/', '/tr/namaz-vakitleri//turkey/ISTANBUL', '/en/prayer-times/%74urkey']) {
      const page = await get(live, path);
      expect(page.status, path).toBe(301);
      expect(page.headers.get('location'), path).toBe(`${BASE}${path.startsWith('/tr') ? '/tr/namaz-vakitleri/turkey/istanbul' : path.includes('kadikoy') || path.includes('Kadikoy') ? '/en/prayer-times/turkey/istanbul/kadikoy' : '/en/prayer-times/turkey'}`);
    }
    expect((await get(live, '/en/prayer-times')).headers.get('location')).toBe(`${BASE}/en`);
  });

  it('answers an unknown path under a language with a 404 page in that language, with a search form', async () => {
    const tr = await get(live, '/tr/namaz-vakitleri/turkey/istanbul/yok-boyle-bir-yer');
    expect(tr.status).toBe(404);
    expect(tr.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(tr.text).toContain('<html lang="tr">');
    expect(tr.text).toContain('Sayfa bulunamadı');
    expect(tr.text).toContain('<form class="search" action="/tr/ara"');
    const en = await get(live, '/en/nothing-here');
    expect(en.status).toBe(404);
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('Page not found');
    expect(en.text).toContain('action="/en/search"');
  });

  it('searches with the catalog’s matching, in the API’s order', async () => {
    const cities = await api(live, `/api/v1/cities?q=${encodeURIComponent('Kadıköy')}&limit=10`);
    const page = (await get(live, `/tr/ara?q=${encodeURIComponent('Kadıköy')}`)).text;
    const links = [...page.matchAll(/<li><a href="\/tr\/namaz-vakitleri\/([^"]+)">/g)].map((m) => m[1]);
    expect(links.slice(0, cities.cities.length)).toEqual(cities.cities.map((c: any) => c.path));
    expect(page).toContain('noindex');
    expect((await get(live, '/en/search?q=x')).text).toContain('Type at least two letters.');
    expect((await get(live, '/en/search?q=Qqqqzzzz')).text).toContain('No place matches.');
  });

  it('answers HEAD without a body and other methods with a 405 page', async () => {
    const head = await fetch(`${live.server.baseUrl}/en`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${live.server.baseUrl}/en/prayer-times/turkey`, { method: 'POST', body: 'x=1' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('hostile input', () => {
  const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;

  it('never echoes a hostile query unescaped', async () => {
    for (const path of [
      `/en/search?q=${encodeURIComponent(HOSTILE)}`,
      `/tr/ara?q=${encodeURIComponent(HOSTILE)}`,
      `/en/prayer-times/turkey/istanbul/kadikoy?method=${encodeURIComponent(HOSTILE)}`,
      `/en/prayer-times/turkey/istanbul/kadikoy?madhab=${encodeURIComponent(HOSTILE)}`,
      `/en/prayer-times/turkey/istanbul/kadikoy?month=${encodeURIComponent(HOSTILE)}`,
      `/en/prayer-times/${encodeURIComponent(HOSTILE)}`,
      `/tr/${encodeURIComponent(HOSTILE)}?q=${encodeURIComponent(HOSTILE)}`,
      `/en/search?q=%E0%A4%A&x=%ZZ`,
    ]) {
      const page = await get(live, path);
      expect([200, 400, 404], path).toContain(page.status);
      expect(page.text, path).not.toContain('<script>alert');
      expect(page.text, path).not.toContain('<img src=x');
      expect(page.text, path).not.toContain('onerror=alert(2)>');
    }
    const search = (await get(live, `/en/search?q=${encodeURIComponent(HOSTILE)}`)).text;
    expect(search).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses a bad method, madhab or month with a readable 400 page naming the allowed values', async () => {
    const method = await get(live, '/en/prayer-times/turkey/istanbul/kadikoy?method=nope');
    expect(method.status).toBe(400);
    expect(method.text).toContain('method must be one of: diyanet');
    const month = await get(live, '/tr/namaz-vakitleri/turkey/istanbul/kadikoy?month=2026-13');
    expect(month.status).toBe(400);
    expect(month.text).toContain('<html lang="tr">');
    expect(month.text).toContain('month must be a month YYYY-MM');
    expect((await get(live, '/en/prayer-times/turkey/istanbul/kadikoy?month=1899-12')).status).toBe(400);
    // Parameters pages do not read are ignored, as links from elsewhere carry them (utm_source and the like).
    expect((await get(live, '/en/prayer-times/turkey/istanbul/kadikoy?utm_source=x&fbclid=y')).status).toBe(200);
  });
});
