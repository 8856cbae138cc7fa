// The calendar subscriptions over real HTTP: a feed parses with ical.js, holds the six prayers of every day of the
// next 12 months, each at the API's instant (`iso` of /api/v1/times for that day), with unique, stable UIDs.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, formatDate, fromEpochDay, toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { localDate, nextLocalMidnight, offsetSeconds } from '../../pipeline/zones/localTime.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

const BASE = 'https://prayer-times.example';
let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;

interface Feed {
  status: number;
  headers: Headers;
  text: string;
  events: Array<{ uid: string; summary: string; start: number; duration: number; transparent: boolean; stamp: string }>;
  calendar: ICAL.Component;
}

async function feed(path: string): Promise<Feed> {
  const res = await fetch(server.baseUrl + path);
  const text = await res.text();
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toJSDate().getTime(),
      duration: e.duration.toSeconds(),
      transparent: c.getFirstPropertyValue('transp') === 'TRANSPARENT',
      stamp: String(c.getFirstProperty('dtstamp')!.toICALString()).replace('DTSTAMP:', ''),
    };
  });
  return { status: res.status, headers: res.headers, text, events, calendar };
}

async function apiDay(city: string, date: string, extra = ''): Promise<Record<string, string>> {
  const res = await fetch(`${server.baseUrl}/api/v1/times?city=${encodeURIComponent(city)}&date=${date}${extra}`, { headers: { 'X-API-Key': key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { iso: Record<string, string> }).iso;
}

/** The local dates the feed must cover: today to the same date 12 months later (excluded). */
function feedDates(zone: string): string[] {
  const today = localDate(Date.now(), zone);
  const end = toEpochDay(addDays({ year: today.year + 1, month: today.month, day: 1 }, today.day - 1));
  const dates: string[] = [];
  for (let day = toEpochDay(today); day < end; day++) dates.push(formatDate(fromEpochDay(day)));
  return dates;
}

/** The events of each date (from the UID), in the feed's order. */
function byDate(events: Feed['events']): Map<string, Feed['events']> {
  const dates = new Map<string, Feed['events']>();
  for (const e of events) {
    const compact = /-(\d{8})-(?:fajr|sunrise|dhuhr|asr|maghrib|isha)-/.exec(e.uid)![1];
    const date = `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;
    dates.set(date, [...(dates.get(date) ?? []), e]);
  }
  return dates;
}

async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

describe.each([
  ['Europe/Berlin', 'germany/state-of-berlin/berlin'],
  ['Australia/Sydney (south of the equator)', 'australia/new-south-wales/sydney'],
])('the feed of %s', (_zone, city) => {
  let parsed: Feed;
  let zone: string;
  beforeAll(async () => {
    parsed = await feed(`/en/prayer-times/${city}.ics`);
    zone = parsed.calendar.getFirstPropertyValue('x-wr-timezone') as string;
  }, 60_000);

  it('is an iCalendar feed valid for the rest of the local day', () => {
    expect(parsed.status).toBe(200);
    expect(parsed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const maxAge = Number(/max-age=(\d+)/.exec(parsed.headers.get('cache-control')!)![1]);
    expect(maxAge * 1000).toBeLessThanOrEqual(nextLocalMidnight(Date.now(), zone) - Date.now() + 5000);
    expect(maxAge).toBeGreaterThan(0);
    expect(parsed.text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(parsed.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const name of ['version', 'prodid', 'calscale', 'method', 'x-wr-calname', 'refresh-interval', 'x-published-ttl']) {
      expect(parsed.calendar.getFirstPropertyValue(name), name).toBeTruthy();
    }
    expect(parsed.calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
  });

  it('has the six prayers of every day of the next 12 months, with unique UIDs', () => {
    const dates = byDate(parsed.events);
    expect([...dates.keys()]).toEqual(feedDates(zone));
    expect(dates.size).toBeGreaterThanOrEqual(365);
    for (const [date, events] of dates) {
      expect(events.map((e) => e.summary), date).toEqual(['Fajr', 'Sunrise', 'Dhuhr', 'Asr', 'Maghrib', 'Isha']);
      expect(events.every((e, i) => i === 0 || e.start > events[i - 1].start), date).toBe(true);
    }
    expect(new Set(parsed.events.map((e) => e.uid)).size).toBe(parsed.events.length);
    expect(parsed.events.every((e) => e.uid.endsWith('@prayer-times.example') && e.transparent && e.duration === 0)).toBe(true);
    expect(new Set(parsed.events.map((e) => e.stamp)).size).toBe(1);
    expect(parsed.events[0].stamp).toMatch(/^\d{8}T\d{6}Z$/);
  });

  it("puts every event at the API's instant for that day, across the DST changes", async () => {
    const dates = byDate(parsed.events);
    const all = [...dates.keys()];
    // The year holds both of the zone's DST changes.
    const changes = all.filter((d, i) => i > 0 && offsetSeconds(zone, Date.parse(`${d}T12:00:00Z`)) !== offsetSeconds(zone, Date.parse(`${all[i - 1]}T12:00:00Z`)));
    expect(changes.length).toBe(2);
    const mismatches: string[] = [];
    await inBatches(all, 25, async (date) => {
      const iso = await apiDay(city, date);
      dates.get(date)!.forEach((e, i) => {
        const expected = iso[PRAYERS[i]];
        if (new Date(e.start).toISOString().replace('.000Z', 'Z') !== expected) mismatches.push(`${date} ${PRAYERS[i]}: ${new Date(e.start).toISOString()} ≠ ${expected}`);
      });
    });
    expect(mismatches).toEqual([]);
  }, 120_000);
});

describe('the Turkish feed, with a method and madhab', () => {
  it('names the prayers in Turkish and follows ?method= and ?madhab= as the API does', async () => {
    const city = 'turkey/istanbul/kadikoy';
    const parsed = await feed(`/tr/namaz-vakitleri/${city}.ics?method=muslimWorldLeague&madhab=hanafi&utm_source=x`);
    expect(parsed.status).toBe(200);
    const dates = byDate(parsed.events);
    expect([...dates.values()][0].map((e) => e.summary)).toEqual(['Sabah', 'Güneş', 'Öğle', 'İkindi', 'Akşam', 'Yatsı']);
    expect(parsed.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Kadıköy namaz vakitleri');
    expect(parsed.events[0].uid).toMatch(/^tr-34-kadikoy-\d{8}-fajr-muslimWorldLeague-hanafi@prayer-times\.example$/);
    const all = [...dates.keys()];
    for (const date of [all[0], all[100], all[200], all.at(-1)!]) {
      const iso = await apiDay(city, date, '&method=muslimWorldLeague&madhab=hanafi');
      expect(dates.get(date)!.map((e) => new Date(e.start).toISOString().replace('.000Z', 'Z'))).toEqual(PRAYERS.map((p) => iso[p]));
    }
    // The default (diyanet, shafi) is another calendar with other UIDs and another asr.
    const standard = byDate((await feed(`/tr/namaz-vakitleri/${city}.ics`)).events).get(all[0])!;
    expect(standard[0].uid).toContain('-diyanet-shafi@');
    expect(standard[3].start).not.toBe(dates.get(all[0])![3].start);
  }, 60_000);
});

describe('other requests for a feed', () => {
  it('answers 304 to its ETag', async () => {
    const first = await fetch(`${server.baseUrl}/en/prayer-times/turkey/istanbul/kadikoy.ics`);
    await first.text();
    const again = await fetch(`${server.baseUrl}/en/prayer-times/turkey/istanbul/kadikoy.ics`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('sends another spelling of the path to the canonical feed, keeping the choice', async () => {
    const res = await fetch(`${server.baseUrl}/en/prayer-times/Turkey/Istanbul/Kadikoy.ics?madhab=hanafi`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${BASE}/en/prayer-times/turkey/istanbul/kadikoy.ics?madhab=hanafi`);
  });

  it('is a 400 page for a method the API refuses, and a 404 for an unknown place', async () => {
    const bad = await fetch(`${server.baseUrl}/tr/namaz-vakitleri/turkey/istanbul/kadikoy.ics?method=nope`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('method must be one of');
    for (const path of ['/en/prayer-times/turkey/istanbul/nowhere.ics', '/tr/namaz-vakitleri/nowhere.ics', '/en/prayer-times/.ics']) {
      const res = await fetch(server.baseUrl + path);
      await res.text();
      expect(res.status, path).toBe(404);
    }
  });
});
