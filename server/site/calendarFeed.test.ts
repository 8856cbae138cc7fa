// The calendar subscriptions over real HTTP: a feed parses with ical.js, holds the six prayers of every day of the
// next 12 months, each at the API's instant (`iso` of /api/v1/times for that day), with unique, stable UIDs.
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDate, fromEpochDay, toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { localDate, nextLocalMidnight, offsetSeconds } from '../../pipeline/zones/localTime.js';
import { siteServerForFile } from '../../testing/siteServer.js';

const BASE = 'https://prayer-times.example';
const site = siteServerForFile(BASE);

const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;

interface Feed {
  status: number;
  headers: Headers;
  text: string;
  events: Array<{ uid: string; summary: string; start: number; duration: number; transparent: boolean; stamp: string }>;
  calendar: ICAL.Component;
}

async function feed(path: string): Promise<Feed> {
  const res = await fetch(site.server.baseUrl + path);
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
  const res = await fetch(`${site.server.baseUrl}/api/v1/times?city=${encodeURIComponent(city)}&date=${date}${extra}`, { headers: { 'X-API-Key': site.key } });
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
    expect(parsed.events.every((e) => e.uid.endsWith('-en@prayer-times.example') && e.transparent)).toBe(true);
    // Each event lasts 15 minutes, or until the next one where that comes sooner: events never overlap.
    parsed.events.forEach((e, i) => {
      const next = parsed.events[i + 1];
      expect(e.duration, e.uid).toBe(Math.min(900, next ? (next.start - e.start) / 1000 : 900));
    });
    expect(parsed.events.filter((e) => e.duration === 900).length).toBeGreaterThan(parsed.events.length * 0.9);
    expect(parsed.text).not.toContain('BEGIN:VALARM');
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
    expect(parsed.events[0].uid).toMatch(/^tr-34-kadikoy-\d{8}-fajr-muslimWorldLeague-hanafi-tr@prayer-times\.example$/);
    const all = [...dates.keys()];
    for (const date of [all[0], all[100], all[200], all.at(-1)!]) {
      const iso = await apiDay(city, date, '&method=muslimWorldLeague&madhab=hanafi');
      expect(dates.get(date)!.map((e) => new Date(e.start).toISOString().replace('.000Z', 'Z'))).toEqual(PRAYERS.map((p) => iso[p]));
    }
    // The default (diyanet, shafi) is another calendar with other UIDs and another asr.
    const standard = byDate((await feed(`/tr/namaz-vakitleri/${city}.ics`)).events).get(all[0])!;
    expect(standard[0].uid).toContain('-diyanet-shafi-tr@');
    expect(standard[3].start).not.toBe(dates.get(all[0])![3].start);
  }, 60_000);
});

describe('other requests for a feed', () => {
  it('answers 304 to its ETag', async () => {
    const first = await fetch(`${site.server.baseUrl}/en/prayer-times/turkey/istanbul/kadikoy.ics`);
    await first.text();
    const again = await fetch(`${site.server.baseUrl}/en/prayer-times/turkey/istanbul/kadikoy.ics`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('sends another spelling of the path to the canonical feed, keeping the choice', async () => {
    const res = await fetch(`${site.server.baseUrl}/en/prayer-times/Turkey/Istanbul/Kadikoy.ics?madhab=hanafi`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${BASE}/en/prayer-times/turkey/istanbul/kadikoy.ics?madhab=hanafi`);
  });

  it('is a 400 page for a method the API refuses, and a 404 for an unknown place', async () => {
    const bad = await fetch(`${site.server.baseUrl}/tr/namaz-vakitleri/turkey/istanbul/kadikoy.ics?method=nope`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('method must be one of');
    for (const path of ['/en/prayer-times/turkey/istanbul/nowhere.ics', '/tr/namaz-vakitleri/nowhere.ics', '/en/prayer-times/.ics']) {
      const res = await fetch(site.server.baseUrl + path);
      await res.text();
      expect(res.status, path).toBe(404);
    }
  });
});

/** The VALARMs of each event: action, trigger (seconds, relative to the start) and description. */
function alarmsOf(parsed: Feed): Array<Array<{ action: string; trigger: number; description: string }>> {
  return parsed.calendar.getAllSubcomponents('vevent').map((event) =>
    event.getAllSubcomponents('valarm').map((alarm) => ({
      action: alarm.getFirstPropertyValue('action') as string,
      trigger: (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds(),
      description: alarm.getFirstPropertyValue('description') as string,
    })),
  );
}

describe('reminders (?alarm=)', () => {
  const KADIKOY = { en: '/en/prayer-times/turkey/istanbul/kadikoy.ics', tr: '/tr/namaz-vakitleri/turkey/istanbul/kadikoy.ics' };

  it.each([
    ['en', 'Maghrib in 10 minutes'],
    ['tr', 'Akşam vaktine 10 dakika var'],
  ] as const)('?alarm=10 gives every event of the %s feed a DISPLAY alarm 10 minutes before it', async (language, maghrib) => {
    const [plain, reminded] = await Promise.all([feed(KADIKOY[language]), feed(`${KADIKOY[language]}?alarm=10`)]);
    expect(reminded.status).toBe(200);
    // The same events at the same instants, each with one alarm.
    expect(reminded.events.map((e) => [e.summary, e.start, e.duration])).toEqual(plain.events.map((e) => [e.summary, e.start, e.duration]));
    const alarms = alarmsOf(reminded);
    expect(alarms.length).toBeGreaterThanOrEqual(365 * 6);
    const vevents = reminded.calendar.getAllSubcomponents('vevent');
    alarms.forEach((eventAlarms, i) => {
      expect(eventAlarms, reminded.events[i].uid).toHaveLength(1);
      const [alarm] = eventAlarms;
      expect(alarm.action).toBe('DISPLAY');
      expect(alarm.trigger).toBe(-600);
      expect(alarm.description).toContain(reminded.events[i].summary);
      // The instant the reminder shows: DTSTART plus the trigger, as a calendar works it out.
      const start = new ICAL.Event(vevents[i]).startDate.clone();
      start.addDuration(vevents[i].getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger') as ICAL.Duration);
      expect(start.toJSDate().getTime()).toBe(reminded.events[i].start - 10 * 60_000);
    });
    expect(alarms[reminded.events.findIndex((e) => e.uid.includes('-maghrib-'))][0].description).toBe(maghrib);
    expect(reminded.text).toContain('TRIGGER:-PT10M\r\n');
    // Another calendar than the one without reminders: other UIDs; its SOURCE is its own address.
    const plainUids = new Set(plain.events.map((e) => e.uid));
    expect(reminded.events.some((e) => plainUids.has(e.uid))).toBe(false);
    expect(reminded.events[0].uid).toMatch(new RegExp(`-diyanet-shafi-${language}-a10@prayer-times\\.example$`));
    expect(reminded.calendar.getFirstPropertyValue('source')).toBe(`${BASE}${KADIKOY[language]}?alarm=10`);
  }, 60_000);

  it.each([
    [0, 'Fajr now'],
    [1, 'Fajr in 1 minutes'],
    [120, 'Fajr in 120 minutes'],
  ])('?alarm=%i is a reminder that many minutes before', async (minutes, fajr) => {
    const parsed = await feed(`${KADIKOY.en}?alarm=${minutes}`);
    expect(parsed.status).toBe(200);
    const alarms = alarmsOf(parsed);
    expect(alarms.every((a) => a.length === 1 && a[0].trigger === -60 * minutes && a[0].action === 'DISPLAY')).toBe(true);
    expect(alarms[0][0].description).toBe(fajr);
  }, 30_000);

  it('an empty alarm (the form\'s "No reminder") is the feed without reminders', async () => {
    const parsed = await feed(`${KADIKOY.en}?alarm=`);
    expect(parsed.status).toBe(200);
    expect(parsed.text).not.toContain('BEGIN:VALARM');
    expect(parsed.events[0].uid).toMatch(/-diyanet-shafi-en@prayer-times\.example$/);
  });

  it.each(['-1', '121', '10.5', '1e1', 'ten', '0x10', '%2B5', '-0', '1000', '99999999999999999999999', '10,20', '%00', '5%20min', 'NaN', 'Infinity'])(
    '?alarm=%s is a 400 page, never a 500',
    async (value) => {
      const res = await fetch(`${site.server.baseUrl}${KADIKOY.en}?alarm=${value}`);
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(text).toContain('alarm must be a whole number of minutes from 0 to 120.');
    },
  );

  it('is part of what the feed is kept under: each value its own answer, cached as the feed without it', async () => {
    const get = async (query: string) => {
      const res = await fetch(`${site.server.baseUrl}${KADIKOY.en}${query}`);
      return { res, text: await res.text() };
    };
    const plain = await get('');
    const ten = await get('?alarm=10');
    const twenty = await get('?alarm=20');
    const tenAgain = await get('?alarm=10&utm_source=x');
    expect(ten.text).toContain('TRIGGER:-PT10M\r\n');
    expect(twenty.text).toContain('TRIGGER:-PT20M\r\n');
    expect(twenty.text).not.toContain('TRIGGER:-PT10M');
    expect(tenAgain.text).toBe(ten.text);
    expect(new Set([plain, ten, twenty].map((r) => r.res.headers.get('etag'))).size).toBe(3);
    expect(tenAgain.res.headers.get('etag')).toBe(ten.res.headers.get('etag'));
    const maxAge = (r: Response): number => Number(/^public, max-age=(\d+)$/.exec(r.headers.get('cache-control')!)![1]);
    for (const r of [ten, twenty]) {
      expect(r.res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(Math.abs(maxAge(r.res) - maxAge(plain.res))).toBeLessThanOrEqual(2);
    }
    const revalidated = await fetch(`${site.server.baseUrl}${KADIKOY.en}?alarm=10`, { headers: { 'If-None-Match': ten.res.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
  }, 30_000);

  it('goes with the 301 from another spelling of the path', async () => {
    const res = await fetch(`${site.server.baseUrl}/en/prayer-times/Turkey/Istanbul/Kadikoy.ics?madhab=hanafi&alarm=15`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${BASE}/en/prayer-times/turkey/istanbul/kadikoy.ics?madhab=hanafi&alarm=15`);
    const bad = await fetch(`${site.server.baseUrl}/en/prayer-times/Turkey/Istanbul/Kadikoy.ics?alarm=500`, { redirect: 'manual' });
    await bad.text();
    expect(bad.status).toBe(400);
  });
});

describe('the two languages', () => {
  it('are two calendars: the same events, with no UID in common', async () => {
    const [en, tr] = await Promise.all([feed('/en/prayer-times/turkey/istanbul/kadikoy.ics'), feed('/tr/namaz-vakitleri/turkey/istanbul/kadikoy.ics')]);
    expect(tr.events.map((e) => e.start)).toEqual(en.events.map((e) => e.start));
    const enUids = new Set(en.events.map((e) => e.uid));
    expect(tr.events.filter((e) => enUids.has(e.uid))).toEqual([]);
    expect(new Set([...enUids, ...tr.events.map((e) => e.uid)]).size).toBe(en.events.length * 2);
    // And stable: a second fetch of a feed gives the same UIDs (a client updates its events rather than adding more).
    const again = await feed('/tr/namaz-vakitleri/turkey/istanbul/kadikoy.ics');
    expect(again.events.map((e) => e.uid)).toEqual(tr.events.map((e) => e.uid));
  }, 60_000);
});

describe("the place page's calendar section", () => {
  const section = (page: string): string => page.slice(page.indexOf('<section class="calendar-section"'), page.indexOf('</section>', page.indexOf('<section class="calendar-section"')));

  it.each([
    ['en', '/en/prayer-times/turkey/istanbul/kadikoy', 'Subscribe', 'Download (.ics)', '10 minutes before'],
    ['tr', '/tr/namaz-vakitleri/turkey/istanbul/kadikoy', 'Abone ol', 'İndir (.ics)', '10 dakika önce'],
  ])('in %s: a webcal: link, the .ics link, and a GET form choosing the reminder for either', async (_language, path, subscribe, download, tenMinutes) => {
    const res = await fetch(site.server.baseUrl + path);
    const page = await res.text();
    expect(res.status).toBe(200);
    // The page's CSP lets its form go to a calendar app.
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' webcal:");
    const html = section(page);
    const webcal = `webcal://prayer-times.example${path}.ics`;
    expect(html).toContain(`<a href="${webcal}">${webcal}</a>`);
    expect(html).toContain(`<a href="${path}.ics">${BASE}${path}.ics</a>`);
    expect(html).toContain(`<form class="choose calendar-choice" action="${path}.ics" method="get">`);
    expect(html).toContain(`<button type="submit" formaction="${webcal}">${subscribe}</button>`);
    expect(html).toContain(`<button type="submit">${download}</button>`);
    const options = [...html.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)];
    expect(options.map((o) => o[1])).toEqual(['', '0', '5', '10', '15', '20', '30', '45', '60']);
    expect(options.filter((o) => o[2]).map((o) => [o[1], o[3]])).toEqual([['10', tenMinutes]]);
    expect(html).toMatch(/<select id="alarm" name="alarm">/);
    expect(html).toMatch(/<label for="alarm">/);
    // What the form sends is a feed the server answers, for every reminder offered.
    for (const o of options) {
      const answer = await fetch(`${site.server.baseUrl}${path}.ics?alarm=${o[1]}`);
      await answer.text();
      expect(answer.status, o[1]).toBe(200);
    }
  }, 30_000);

  it("carries the page's method and madhab to the feed", async () => {
    const path = '/en/prayer-times/turkey/istanbul/kadikoy';
    const html = section(await (await fetch(`${site.server.baseUrl}${path}?method=muslimWorldLeague&madhab=hanafi`)).text());
    expect(html).toContain('<input type="hidden" name="method" value="muslimWorldLeague">');
    expect(html).toContain('<input type="hidden" name="madhab" value="hanafi">');
    expect(html).toContain(`<a href="webcal://prayer-times.example${path}.ics?method=muslimWorldLeague&amp;madhab=hanafi">`);
    expect(html).toContain(`<a href="${path}.ics?method=muslimWorldLeague&amp;madhab=hanafi">`);
  });
});
