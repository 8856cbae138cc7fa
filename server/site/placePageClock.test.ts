// The place page against the server's clock (testing/movableClock.ts), over HTTP: its bytes depend on the span
// between two of its events, never on the second it was rendered, so every serving thread answers the same ETag and
// a 304 comes whichever thread answers; it names sunrise as an event, not a prayer; after isha it shows tomorrow's
// fajr and its time; it holds tomorrow for countdown.js to put in place at the place's midnight; where imsak is fajr
// the two are one row (Diyanet's "İmsak"); the printed month names the place, the method, the madhab and the page.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type ServerWithKey } from '../../testing/serverProcess.js';
import type { TimeName } from './placeView.js';
import { countryName, longDate, WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';
const PAGES = { tr: `/tr/namaz-vakitleri/${PLACE}`, en: `/en/prayer-times/${PLACE}` } as const;
// Istanbul keeps UTC+3 all year: its 23 November 2026 ends at 21:00 UTC.
const DAY = '2026-11-23';
const NEXT_DAY = '2026-11-24';
const DAY_ENDS = '2026-11-23T21:00:00Z';

interface Times {
  date: string;
  method: { id: string; name: string };
  madhab: 'shafi' | 'hanafi';
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
}

const clock = movableClock();
let s: ServerWithKey;
/** The same with the page cache on (two threads), on the same clock. */
let cached: ServerWithKey;
let day: Times;
let nextDay: Times;

beforeAll(async () => {
  // Three serving threads and no page cache: every request is rendered again, by whichever thread takes it, at the
  // second the test sets.
  [s, cached] = await Promise.all([
    startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE, WORKERS: '3', PAGE_CACHE_MB: '0' }),
    startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE, WORKERS: '2' }),
  ]);
  [day, nextDay] = await Promise.all([api(`/api/v1/times?city=${PLACE}&date=${DAY}`), api(`/api/v1/times?city=${PLACE}&date=${NEXT_DAY}`)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([s?.server.stop(), cached?.server.stop()]);
});

async function api(path: string): Promise<any> {
  const res = await fetch(s.server.baseUrl + path, { headers: { 'X-API-Key': s.key } });
  expect(res.status, path).toBe(200);
  return res.json();
}

async function page(path: string, at: number, headers: Record<string, string> = {}, server = s): Promise<{ status: number; etag: string; cacheControl: string; text: string }> {
  clock.set(at);
  const res = await fetch(server.server.baseUrl + path, { headers });
  return { status: res.status, etag: res.headers.get('etag')!, cacheControl: res.headers.get('cache-control')!, text: await res.text() };
}

const ms = (iso: string): number => Date.parse(iso);

/** The next-prayer box: its label, the name, the `<time>` (datetime and text), and the countdown as served. */
function box(html: string): { label: string; name: string; datetime: string; time: string; countdown: string; countdownHidden: boolean } {
  const m = /<p id="next-prayer"[^>]*><span class="next-label">([^<]*)<\/span>: <strong class="next-name">([^<]*)<\/strong> <time datetime="([^"]+)">([^<]*)<\/time><span class="next-in"( hidden)?>[^<]*<span class="next-left"[^>]*>([^<]*)<\/span><\/span><\/p>/.exec(html);
  expect(m, 'the next-prayer box').not.toBeNull();
  return { label: m![1], name: m![2], datetime: m![3], time: m![4], countdownHidden: m![5] !== undefined, countdown: m![6] };
}

/** A day's rows (live, or the one in the template): name, instant, clock, and whether marked as next. */
function rows(html: string): Array<{ name: string; at: string | undefined; datetime: string; time: string; next: boolean }> {
  return [...html.matchAll(/<tr([^>]*)>\n<th scope="row">([^<]+)<\/th><td><time datetime="([^"]+)">([^<]+)<\/time><\/td><\/tr>/g)].map((m) => ({
    name: m[2],
    at: /data-at="([^"]+)"/.exec(m[1])?.[1],
    datetime: m[3],
    time: m[4],
    next: m[1].includes('class="next" aria-current="time"'),
  }));
}
const liveDay = (html: string): string => /<div class="day" data-day-part="times"[^>]*>([\s\S]*?)<\/div>/.exec(html.replace(/<template[\s\S]*?<\/template>/, ''))![0];
const template = (html: string): string => /<template id="next-day">([\s\S]*?)<\/template>/.exec(html)![1];

describe('the bytes of a place page', () => {
  it('are the same for every render inside one span between events, on any thread, and change at the next prayer', async () => {
    const asr = ms(day.iso.asr);
    const path = PAGES.en;
    // Renders at odd seconds and milliseconds of the span from dhuhr to asr, several times each (three threads).
    const inSpan = [asr - 47 * 60_000 + 13_400, asr - 21 * 60_000 + 7_050, asr - 3 * 60_000 + 51_900, asr - 1];
    const renders = [];
    for (const at of inSpan) for (let i = 0; i < 3; i++) renders.push(await page(path, at));
    expect(new Set(renders.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(renders.map((r) => r.etag)).size).toBe(1);
    expect(new Set(renders.map((r) => r.text)).size).toBe(1);
    // No countdown baked in: the script writes it; the page as served names the prayer and its time.
    expect(box(renders[0].text)).toMatchObject({ name: 'Asr', datetime: day.iso.asr, time: day.times.asr, countdown: '', countdownHidden: true });

    // A validator from one render is good for another, later in the span (on whichever thread): 304.
    const etag = renders[0].etag;
    expect((await page(path, asr - 30_000, { 'if-none-match': etag })).status).toBe(304);
    // At asr the page is another (maghrib is next): 200 with a new ETag.
    const after = await page(path, asr, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(etag);
    expect(box(after.text)).toMatchObject({ name: 'Maghrib', datetime: day.iso.maghrib, time: day.times.maghrib });
    // …and it holds until maghrib, no longer.
    expect(after.cacheControl).toBe(`public, max-age=${(ms(day.iso.maghrib) - asr) / 1000}`);
  });

  it('are kept by each thread for the span and answered with one ETag, and a clock set back never gets a later page', async () => {
    const asr = ms(day.iso.asr);
    const path = PAGES.tr;
    const inSpan = [];
    for (const at of [asr - 40 * 60_000 + 1_300, asr - 9 * 60_000 + 44_800]) for (let i = 0; i < 4; i++) inSpan.push(await page(path, at, {}, cached));
    expect(new Set(inSpan.map((r) => r.etag)).size).toBe(1);
    expect((await page(path, asr - 60_000, { 'if-none-match': inSpan[0].etag }, cached)).status).toBe(304);
    // Kept after asr (maghrib next, until maghrib)…
    expect(box((await page(path, asr + 60_000, {}, cached)).text).datetime).toBe(day.iso.maghrib);
    // …and the clock set back before asr: the page of that instant, asr next, not the kept one.
    const back = await page(path, asr - 60_000, {}, cached);
    expect(box(back.text).datetime).toBe(day.iso.asr);
    expect(back.etag).toBe(inSpan[0].etag);
  });
});

describe.each(['tr', 'en'] as const)('the place page in %s, as served', (language) => {
  const w = WORDS[language];

  it('names sunrise as an event, not a prayer, and the prayers as prayers', async () => {
    const atFajr = await page(PAGES[language], ms(day.iso.fajr) + 60_000);
    expect(box(atFajr.text)).toMatchObject({ label: w.nextEvent, name: w.times.sunrise, datetime: day.iso.sunrise, time: day.times.sunrise });
    expect(atFajr.text).not.toContain(`${w.nextPrayer}</span>: <strong class="next-name">${w.times.sunrise}`);
    expect(rows(liveDay(atFajr.text)).filter((r) => r.next).map((r) => r.name)).toEqual([w.times.sunrise]);
    const atSunrise = await page(PAGES[language], ms(day.iso.sunrise));
    expect(box(atSunrise.text)).toMatchObject({ label: w.nextPrayer, name: w.times.dhuhr, datetime: day.iso.dhuhr, time: day.times.dhuhr });
  });

  it('after isha shows tomorrow’s fajr (Diyanet’s İmsak) with tomorrow’s time, and marks no row of today', async () => {
    const html = (await page(PAGES[language], ms(day.iso.isha) + 60_000)).text;
    expect(box(html)).toMatchObject({ label: w.nextPrayer, name: w.times.imsak, datetime: nextDay.iso.fajr, time: nextDay.times.fajr });
    expect(rows(liveDay(html)).filter((r) => r.next)).toEqual([]);
    const before = await page(PAGES[language], ms(day.iso.isha) - 60_000);
    expect(box(before.text)).toMatchObject({ name: w.times.isha, datetime: day.iso.isha, time: day.times.isha });
  });

  it('holds tomorrow (its date, times and end) for the script to show at midnight, and Diyanet’s imsak and fajr as one İmsak', async () => {
    expect(day.method.id).toBe('diyanet');
    expect(day.times.imsak).toBe(day.times.fajr);
    const html = (await page(PAGES[language], ms(day.iso.dhuhr) + 5_000)).text;
    const shown: TimeName[] = ['imsak', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
    const counted = (name: TimeName): TimeName => (name === 'imsak' ? 'fajr' : name);
    for (const [d, times, ends] of [
      [liveDay(html), day, DAY_ENDS],
      [template(html), nextDay, '2026-11-24T21:00:00Z'],
    ] as const) {
      expect(d).toContain(`data-date="${times.date}" data-ends="${ends}"`);
      expect(d).toContain(`<caption>${w.today}: ${longDate(times.date, language)}</caption>`);
      expect(rows(d).map(({ name, at, datetime, time }) => ({ name, at, datetime, time }))).toEqual(
        shown.map((name) => ({ name: w.times[name], at: times.iso[counted(name)], datetime: times.iso[counted(name)], time: times.times[name] })),
      );
      expect(d).not.toContain(`>${w.times.fajr}<`);
    }
    expect(template(html)).toContain(`<span data-day-part="date"> · ${longDate(NEXT_DAY, language)} · `);
    expect(html).toContain(`<span data-day-part="date"> · ${longDate(DAY, language)} · `);
    // The month: one İmsak column, no Fajr/Sabah.
    const head = /<table class="month">\n<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(html)![1];
    expect([...head.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1])).toEqual([w.date, w.hijriDate, ...shown.map((n) => w.times[n])]);
    // The prompt a page left open shows when its times have run out, hidden as served, with a link to this page.
    expect(html).toContain(`<p id="reload-prompt" class="reload-prompt" role="status" hidden>${w.outOfDate} <a href="${PAGES[language]}">${w.reload}</a></p>`);
  });

  it('keeps imsak and fajr apart where they differ, and names the one time Fajr where another authority’s imsak is its fajr', async () => {
    const mwl = await page(`${PAGES[language]}?method=muslimWorldLeague`, ms(day.iso.dhuhr));
    expect(rows(liveDay(mwl.text)).map((r) => r.name)).toEqual(['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'].map((n) => w.times[n as TimeName]));
    // Dubai: the UAE's tables print its fajr, and its imsak is the same instant.
    const { cities } = await api('/api/v1/cities?q=Dubai&limit=1');
    const dubai: Times = await api(`/api/v1/times?city=${cities[0].path}&date=${DAY}`);
    expect(dubai.method.id).toBe('dubai');
    expect(dubai.times.imsak).toBe(dubai.times.fajr);
    const html = (await page(`${language === 'tr' ? '/tr/namaz-vakitleri' : '/en/prayer-times'}/${cities[0].path}`, ms(dubai.iso.dhuhr))).text;
    expect(rows(liveDay(html)).map((r) => [r.name, r.at])).toEqual([
      [w.times.fajr, dubai.iso.fajr],
      [w.times.sunrise, dubai.iso.sunrise],
      [w.times.dhuhr, dubai.iso.dhuhr],
      [w.times.asr, dubai.iso.asr],
      [w.times.maghrib, dubai.iso.maghrib],
      [w.times.isha, dubai.iso.isha],
    ]);
  });

  it('prints the place, its region and country, the method, the madhab and the page’s address above the month', async () => {
    const country = countryName('TR', language);
    const plain = (await page(PAGES[language], ms(day.iso.dhuhr))).text;
    expect(plain).toContain(`<p class="print-only">Kadıköy, İstanbul, ${country} · ${w.method}: ${day.method.name} · ${w.madhab}: ${w.madhabs[day.madhab]} · ${BASE}${PAGES[language]}</p>`);
    const query = 'method=muslimWorldLeague&madhab=hanafi&month=2027-01';
    const variant = (await page(`${PAGES[language]}?${query}`, ms(day.iso.dhuhr))).text;
    expect(variant).toContain(`<p class="print-only">Kadıköy, İstanbul, ${country} · ${w.method}: Muslim World League · ${w.madhab}: ${w.madhabs.hanafi} · ${BASE}${PAGES[language]}?${query.replace(/&/g, '&amp;')}</p>`);
  });
});
