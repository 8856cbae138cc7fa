// The Ramadan timetable over HTTP, on a server whose clock the test moves (testing/movableClock.ts): both languages'
// pages with the contract's headers, ETag and 304, Cache-Control until the next suhoor, iftar or the place's midnight;
// every row equal to the API's /times for its date (the default method and a chosen one, a noindex variant); today's
// row and the next suhoor or iftar during Ramadan 1448, from its eve, and the next Ramadan once it is over; the same
// bytes (one ETag) for every render between two events; the localized 404, the 301s of other spellings, a 400 page
// for a bad method or madhab; the title and description a share preview takes; the place page's link to it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type ServerWithKey } from '../../testing/serverProcess.js';
import type { TimeName } from './placeView.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';
const PAGES = { tr: `/tr/imsakiye/${PLACE}`, en: `/en/ramadan/${PLACE}` } as const;
const TIME_NAMES: readonly TimeName[] = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
// Ramadan 1448 by Umm al-Qura: 8 February to 8 March 2027 (29 days). Istanbul keeps UTC+3: a day ends at 21:00 UTC.
const RAMADAN_1448 = Array.from({ length: 29 }, (_, i) => new Date(Date.UTC(2027, 1, 8 + i)).toISOString().slice(0, 10));
// The brief's today: 26 November 2026, 13:00 in Istanbul.
const TODAY = Date.parse('2026-11-26T10:00:00Z');

interface Times {
  date: string;
  method: { id: string; name: string };
  madhab: 'shafi' | 'hanafi';
  hijri: { day: number; month: number; year: number };
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
}

const clock = movableClock();
let s: ServerWithKey;
/** Two serving threads and no page cache: every request is rendered again, by either thread. */
let uncached: ServerWithKey;

beforeAll(async () => {
  clock.set(TODAY);
  [s, uncached] = await Promise.all([
    startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE }),
    startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE, WORKERS: '2', PAGE_CACHE_MB: '0' }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([s?.server.stop(), uncached?.server.stop()]);
});

async function api(query: string): Promise<Times> {
  const res = await fetch(`${s.server.baseUrl}/api/v1/times?${query}`, { headers: { 'X-API-Key': s.key } });
  expect(res.status, query).toBe(200);
  return (await res.json()) as Times;
}

async function get(path: string, at = TODAY, headers: Record<string, string> = {}, server = s): Promise<{ status: number; headers: Headers; text: string }> {
  clock.set(at);
  const res = await fetch(server.server.baseUrl + path, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The table's rows as served: Hijri day, date, each column's <time> (datetime and text), today's mark. */
function rows(page: string): Array<{ hijriDay: number; date: string; cells: Array<{ iso: string; time: string; fast?: string }>; today: boolean }> {
  const table = /<table class="ramadan"[^>]*>([\s\S]*?)<\/table>/.exec(page);
  expect(table, 'the Ramadan table').not.toBeNull();
  return [...table![1].matchAll(/<tr data-starts="[^"]+" data-ends="[^"]+"( class="today" aria-current="date")?><th scope="row">(\d+)<\/th><td><time datetime="([^"]+)">[^<]*<\/time>[^]*?<\/td>((?:<td[^>]*>[^]*?<\/td>)+)<\/tr>/g)].map((m) => ({
    today: m[1] !== undefined,
    hijriDay: Number(m[2]),
    date: m[3],
    cells: [...m[4].matchAll(/<time datetime="([^"]+)"(?: data-fast="(\w+)")?>([^<]+)<\/time>/g)].map((c) => ({ iso: c[1], fast: c[2], time: c[3] })),
  }));
}

/** The columns' names as the head row says them (the emphasised ones without their note). */
const columns = (page: string): string[] =>
  [.../<table class="ramadan"[^>]*>\s*<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(page)![1].matchAll(/<th scope="col"[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1].replace(/<span class="col-note">[^<]*<\/span>|<span class="column-sign"[^>]*>[^<]*<\/span>|<[^>]+>/g, '').trim());

/** The next-suhoor-or-iftar box: whether shown, its label, the instant and the clock. */
function box(page: string): { hidden: boolean; label: string; datetime: string; time: string } {
  const m = /<p id="ramadan-next"[^>]*?( hidden)?><span class="next-label">([^<]*)<\/span>: <time datetime="([^"]+)">([^<]*)<\/time>/.exec(page);
  expect(m, 'the countdown box').not.toBeNull();
  return { hidden: m![1] !== undefined, label: m![2], datetime: m![3], time: m![4] };
}

const maxAge = (headers: Headers): number => Number(/max-age=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1]);

describe.each(['tr', 'en'] as const)('the Ramadan timetable (%s)', (language) => {
  const w = WORDS[language];

  it('is a page of its own with the contract headers, canonical URL, alternates, and a 304 for its ETag', async () => {
    const res = await get(PAGES[language]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.text).toContain(`<html lang="${language}">`);
    expect(res.text).toContain(`<link rel="canonical" href="${BASE}${PAGES[language]}">`);
    expect(res.text).toContain(`<link rel="alternate" hreflang="tr" href="${BASE}${PAGES.tr}">`);
    expect(res.text).toContain(`<link rel="alternate" hreflang="en" href="${BASE}${PAGES.en}">`);
    expect(res.text).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}${PAGES.en}">`);
    expect(res.text).not.toContain('noindex');
    expect(res.text).toMatch(/<script src="\/assets\/ramadan\.js\?v=[^"]+" defer><\/script>/);
    // Until the place's midnight (21:00 UTC) at most: 11 hours from 10:00 UTC.
    expect(maxAge(res.headers)).toBe(11 * 3600);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get(PAGES[language], TODAY + 60_000, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('has one row per day of Ramadan 1448, each the API’s /times for that date, imsak and maghrib emphasised', async () => {
    const page = (await get(PAGES[language])).text;
    const served = rows(page);
    expect(served.map((r) => r.date)).toEqual(RAMADAN_1448);
    expect(served.map((r) => r.hijriDay)).toEqual(RAMADAN_1448.map((_, i) => i + 1));
    // Diyanet's imsak is its fajr: one column, named İmsak.
    expect(columns(page)).toEqual([w.ramadanDay, w.date, ...(['imsak', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const).map((n) => w.times[n])]);
    for (const row of served) {
      const day = await api(`city=${PLACE}&date=${row.date}`);
      expect(day.hijri).toMatchObject({ day: row.hijriDay, month: 9, year: 1448 });
      const names = TIME_NAMES.filter((n) => n !== 'fajr');
      expect(row.cells, row.date).toEqual(
        names.map((n) => ({ iso: day.iso[n], time: day.times[n], fast: n === 'imsak' ? 'suhoor' : n === 'maghrib' ? 'iftar' : undefined })),
      );
    }
    expect(served.some((r) => r.today)).toBe(false);
  });

  it('says the place, the span, the method and madhab in print, and gives the share preview a title and description', async () => {
    const page = (await get(PAGES[language])).text;
    const first = await api(`city=${PLACE}&date=2027-02-08`);
    expect(page).toContain(`<h1>${w.ramadanTitle('Kadıköy', '2027', 1448)}</h1>`);
    expect(page).toContain(`<title>${w.ramadanTitle('Kadıköy', '2027', 1448)} · İstanbul, Türkiye</title>`);
    const description = /<meta name="description" content="([^"]*)">/.exec(page)![1];
    expect(description).toContain(`${first.times.imsak}`);
    expect(description).toContain(`${first.times.maghrib}`);
    expect(description).toContain('Kadıköy');
    // The share preview (layout.ts) takes the same title, description and address.
    expect(/<meta property="og:title" content="([^"]*)">/.exec(page)?.[1]).toBe(/<title>([^<]*)<\/title>/.exec(page)![1]);
    expect(/<meta property="og:description" content="([^"]*)">/.exec(page)?.[1]).toBe(description);
    expect(/<meta property="og:url" content="([^"]*)">/.exec(page)?.[1]).toBe(`${BASE}${PAGES[language]}`);
    expect(page).toMatch(new RegExp(`<p class="print-only">Kadıköy, İstanbul, Türkiye · ${w.method}: ${first.method.name} · ${w.madhab}: ${w.madhabs[first.madhab].replace(/[()]/g, '\\$&')} · ${BASE}${PAGES[language]}</p>`));
  });

  it('takes the method and madhab as the place page does: rows equal the API with them, a noindex variant', async () => {
    const query = 'method=muslimWorldLeague&madhab=hanafi';
    const page = (await get(`${PAGES[language]}?${query}`)).text;
    expect(page).toContain('<meta name="robots" content="noindex, follow">');
    expect(page).toContain('<option value="muslimWorldLeague" selected>');
    expect(page).toContain('<option value="hanafi" selected>');
    // The Muslim World League's imsak is ten minutes before its fajr: both columns.
    expect(columns(page)).toEqual([w.ramadanDay, w.date, ...TIME_NAMES.map((n) => w.times[n])]);
    const served = rows(page);
    expect(served).toHaveLength(29);
    for (const row of [served[0], served[14], served[28]]) {
      const day = await api(`city=${PLACE}&date=${row.date}&${query}`);
      expect(row.cells.map((c) => c.time)).toEqual(TIME_NAMES.map((n) => day.times[n]));
      expect(row.cells.map((c) => c.iso)).toEqual(TIME_NAMES.map((n) => day.iso[n]));
    }
    // An empty choice is the default, as the form's default option sends it.
    const empty = await get(`${PAGES[language]}?method=&madhab=`);
    expect(empty.status).toBe(200);
    expect(rows(empty.text)[0].cells[0].time).toBe((await api(`city=${PLACE}&date=2027-02-08`)).times.imsak);
  });

  it('answers a bad method or madhab with a 400 page in the language, never a 500', async () => {
    for (const query of ['method=nope', 'madhab=maliki', 'method=%3Cscript%3E']) {
      const res = await get(`${PAGES[language]}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain(`<h1>${w.badRequestTitle}</h1>`);
      expect(res.text).toContain(`<html lang="${language}">`);
      expect(res.text).not.toContain('<script>');
    }
  });
});

describe('paths', () => {
  it('answers an unknown place with the localized 404 and its search form', async () => {
    for (const [path, language] of [
      ['/tr/imsakiye/turkey/istanbul/nowhere', 'tr'],
      ['/en/ramadan/turkey/istanbul/nowhere', 'en'],
      ['/en/ramadan/turkey', 'en'],
      ['/en/ramadan/%3Cb%3E', 'en'],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain(`<h1>${WORDS[language].notFoundTitle}</h1>`);
      expect(res.text).toContain('<form class="search"');
      expect(res.text).not.toContain('<b>');
    }
  });

  it('sends other spellings, old slugs and the bare prefix to the canonical page with a 301, keeping the choice', async () => {
    for (const [path, location] of [
      ['/tr/imsakiye/Turkey/Istanbul/Kadikoy', `${BASE}/tr/imsakiye/${PLACE}`],
      ['/en/Ramadan/turkey/istanbul/kadikoy', `${BASE}/en/ramadan/${PLACE}`],
      ['/en/ramadan//turkey/istanbul/kadikoy/', `${BASE}/en/ramadan/${PLACE}`],
      ['/en/ramadan/turkey/istanbul/eminoenue', `${BASE}/en/ramadan/turkey/istanbul/eminonu`],
      ['/tr/imsakiye/turkiye/istanbul/kadikoy?method=isna&utm_source=x', `${BASE}/tr/imsakiye/${PLACE}?method=isna`],
      ['/tr/imsakiye', `${BASE}/tr`],
      ['/en/ramadan/', `${BASE}/en`],
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe(location);
    }
  });

  it('is linked from the place page in both languages, with the choice the page shows', async () => {
    for (const [place, ramadan] of [
      [`/tr/namaz-vakitleri/${PLACE}`, PAGES.tr],
      [`/en/prayer-times/${PLACE}`, PAGES.en],
    ]) {
      expect((await get(place)).text).toContain(`<a href="${ramadan}">`);
      expect((await get(`${place}?method=isna`)).text).toContain(`<a href="${ramadan}?method=isna">`);
    }
  });
});

describe('on the clock', () => {
  const at = (iso: string): number => Date.parse(iso);

  it('before the eve of the first fast names no suhoor or iftar, and marks no row', async () => {
    const page = (await get(PAGES.en, at('2027-02-06T20:59:00Z'))).text;
    expect(box(page).hidden).toBe(true);
    expect(rows(page).some((r) => r.today)).toBe(false);
  });

  it('from the eve names the first suhoor, then each day marks its row and names the next iftar or suhoor', async () => {
    const first = await api(`city=${PLACE}&date=2027-02-08`);
    const eve = await get(PAGES.en, at('2027-02-06T21:00:00Z'));
    expect(box(eve.text)).toEqual({ hidden: false, label: WORDS.en.nextSuhoor, datetime: first.iso.imsak, time: first.times.imsak });
    // Kept until the eve's midnight (a day later), never past it.
    expect(maxAge(eve.headers)).toBe(24 * 3600);

    const day = await api(`city=${PLACE}&date=2027-02-20`);
    const next = await api(`city=${PLACE}&date=2027-02-21`);
    for (const language of ['tr', 'en'] as const) {
      const w = WORDS[language];
      // 13 Ramadan, in the afternoon: the iftar is next, and the page holds until it.
      const afternoon = await get(PAGES[language], at(day.iso.maghrib) - 3 * 3600_000);
      expect(rows(afternoon.text).filter((r) => r.today).map((r) => [r.date, r.hijriDay])).toEqual([['2027-02-20', 13]]);
      expect(box(afternoon.text)).toEqual({ hidden: false, label: w.nextIftar, datetime: day.iso.maghrib, time: day.times.maghrib });
      expect(maxAge(afternoon.headers)).toBe(3 * 3600);
      // After iftar: tomorrow's suhoor; the page holds until the place's midnight.
      const evening = await get(PAGES[language], at(day.iso.maghrib) + 60_000);
      expect(rows(evening.text).filter((r) => r.today).map((r) => r.date)).toEqual(['2027-02-20']);
      expect(box(evening.text)).toEqual({ hidden: false, label: w.nextSuhoor, datetime: next.iso.imsak, time: next.times.imsak });
      expect(maxAge(evening.headers)).toBe((at('2027-02-20T21:00:00Z') - at(day.iso.maghrib) - 60_000) / 1000);
      // After midnight, before imsak: the next day's row, its suhoor.
      const night = await get(PAGES[language], at('2027-02-20T23:00:00Z'));
      expect(rows(night.text).filter((r) => r.today).map((r) => r.date)).toEqual(['2027-02-21']);
      expect(box(night.text)).toMatchObject({ label: w.nextSuhoor, datetime: next.iso.imsak });
    }
  });

  it('after the last iftar names nothing, and from the next day shows Ramadan 1449', async () => {
    const last = await api(`city=${PLACE}&date=2027-03-08`);
    const evening = (await get(PAGES.en, at(last.iso.maghrib) + 60_000)).text;
    expect(box(evening).hidden).toBe(true);
    expect(rows(evening).filter((r) => r.today).map((r) => r.date)).toEqual(['2027-03-08']);
    const after = (await get(PAGES.en, at('2027-03-08T21:00:00Z'))).text;
    const served = rows(after);
    expect(served[0]).toMatchObject({ date: '2028-01-28', hijriDay: 1 });
    expect(served).toHaveLength(29);
    expect(after).toContain(WORDS.en.ramadanTitle('Kadıköy', '2028', 1449));
    expect(box(after).hidden).toBe(true);
  });

  it('renders the same bytes (one ETag) anywhere between two events, whichever thread answers', async () => {
    const day = await api(`city=${PLACE}&date=2027-02-20`);
    const from = at(day.iso.imsak);
    const to = at(day.iso.maghrib);
    const tags = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await get(PAGES.tr, from + 1000 + Math.floor(((to - from - 2000) * i) / 5), {}, uncached);
      expect(res.status).toBe(200);
      tags.add(res.headers.get('etag')!);
    }
    expect(tags.size).toBe(1);
    const after = await get(PAGES.tr, to + 1000, {}, uncached);
    expect(tags.has(after.headers.get('etag')!)).toBe(false);
  });
});
