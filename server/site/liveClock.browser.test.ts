// A place page kept open in Chromium while its clock moves (Playwright's clock: the page's timers and Date run on a
// clock the test drives): past a prayer, past isha, past the place's midnight and into the next day, over a month's
// end, and asleep for days (a phone waking). What the page shows stays true at every step — the next prayer's name
// and time (text and datetime), the countdown, today's marked row, the date, the day's times, the month's marked
// row — each checked against the API's /times for that date, or the page asks to be reloaded. At 360 px and 1280 px,
// in Turkish and English. The server's clock is moved with the browser's (testing/movableClock.ts), so the page is
// rendered for the instant the browser starts at. Also: the printed month carries the place and how it was computed.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, pdfPageCount, printToPdf, type OpenPage } from '../../testing/browser.js';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import type { TimeName } from './placeView.js';
import { countryName, longDate, WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';
const PAGES = { tr: `/tr/namaz-vakitleri/${PLACE}`, en: `/en/prayer-times/${PLACE}` } as const;
// Istanbul keeps UTC+3 all year: a day ends at 21:00 UTC.
const DAYS = ['2026-11-23', '2026-11-24', '2026-11-25'] as const;
const MONTH_END = ['2026-11-30', '2026-12-01'] as const;
const endOf = (date: string): number => Date.parse(`${date}T21:00:00Z`);
// Kadıköy's method is Diyanet's: imsak is its fajr, one row named İmsak, counted as fajr.
const SHOWN: readonly TimeName[] = ['imsak', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
const COUNTED = (name: TimeName): TimeName => (name === 'imsak' ? 'fajr' : name);

interface Times {
  date: string;
  madhab: 'shafi' | 'hanafi';
  hijri: { day: number; month: number; year: number };
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
}

const clock = movableClock();
let server: RunningServer;
let key: string;
let launching: Promise<Browser>;
const times = new Map<string, Times>();

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  ({ server, key } = await startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE }));
  for (const date of [...DAYS, ...MONTH_END]) {
    const res = await fetch(`${server.baseUrl}/api/v1/times?city=${PLACE}&date=${date}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    times.set(date, (await res.json()) as Times);
  }
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

const day = (date: string): Times => times.get(date)!;
/** The lede's date as the page writes it: Gregorian and Hijri, from the API's answer for that date. */
const dateLine = (date: string, language: 'tr' | 'en'): string => {
  const { hijri } = day(date);
  return `· ${longDate(date, language)} · ${hijri.day} ${WORDS[language].hijriMonths[hijri.month - 1]} ${hijri.year}`;
};
const at = (iso: string): number => Date.parse(iso);

/** The page rendered by the server at `instant`, in a browser whose clock is paused at the same instant. */
async function openAt(path: string, instant: number, width: number): Promise<OpenPage> {
  clock.set(instant);
  return openPage(await launching, server.baseUrl + path, { clockAt: instant, viewport: { width, height: 800 } });
}

/** Seconds as the countdown shows them: hh:mm:ss. */
const hms = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
};

const visibleText = async (page: Page, selector: string): Promise<string> => (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

/** What the page shows now, as a visitor sees it. */
async function shown(page: Page) {
  const box = page.locator('#next-prayer');
  const boxVisible = await box.isVisible();
  return {
    box: boxVisible ? await visibleText(page, '#next-prayer') : undefined,
    boxTime: boxVisible ? { datetime: await box.locator('time').getAttribute('datetime'), text: await box.locator('time').innerText() } : undefined,
    date: (await page.locator('.lede [data-day-part="date"]').isVisible()) ? await visibleText(page, '.lede [data-day-part="date"]') : undefined,
    caption: (await page.locator('table.today-times').isVisible()) ? await visibleText(page, 'table.today-times caption') : undefined,
    rows: (await page.locator('table.today-times').isVisible())
      ? await page.locator('table.today-times tbody tr').evaluateAll((trs) =>
          trs.map((tr) => ({ name: tr.querySelector('th')!.textContent, datetime: tr.querySelector('time')!.getAttribute('datetime'), time: tr.querySelector('time')!.textContent })),
        )
      : undefined,
    marked: await page.locator('table.today-times tr.next').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-at'), tr.getAttribute('aria-current')])),
    monthMarked: await page.locator('table.month tbody tr.today, table.month tbody tr[aria-current]').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('th time')!.getAttribute('datetime'), tr.getAttribute('aria-current'), tr.classList.contains('today')]),
    ),
    prompt: (await page.locator('#reload-prompt').isVisible()) ? await visibleText(page, '#reload-prompt') : undefined,
  };
}

describe.each([
  ['tr', 360],
  ['tr', 1280],
  ['en', 360],
  ['en', 1280],
] as const)('a place page left open (%s, %i px)', (language, width) => {
  const w = WORDS[language];
  const boxOf = (label: string, name: string, time: string, left: number): string => `${label}: ${name} ${time}, ${w.nextPrayerIn} ${hms(left)}`;
  const dayShown = (date: string) => ({
    date: dateLine(date, language),
    caption: `${w.today}: ${longDate(date, language)}`,
    rows: SHOWN.map((name) => ({ name: w.times[name], datetime: day(date).iso[COUNTED(name)], time: day(date).times[name] })),
  });

  it('tells the truth past a prayer, past isha, past midnight, at sunrise, and asks to be reloaded when its times run out', async () => {
    const [d0, d1, d2] = DAYS.map(day);
    let now = at(d0.iso.asr) - 2 * 60_000;
    const { page, problems, close } = await openAt(PAGES[language], now, width);
    const moveTo = async (instant: number): Promise<void> => {
      await page.clock.fastForward(instant - now);
      now = instant;
    };
    try {
      // Two minutes before asr.
      let seen = await shown(page);
      expect(seen.box).toBe(boxOf(w.nextPrayer, w.times.asr, d0.times.asr, 2 * 60_000));
      expect(seen.boxTime).toEqual({ datetime: d0.iso.asr, text: d0.times.asr });
      expect(seen.marked).toEqual([[d0.iso.asr, 'time']]);
      expect(seen.monthMarked).toEqual([[d0.date, 'date', true]]);
      expect(seen).toMatchObject({ ...dayShown(d0.date), prompt: undefined });

      // A minute past asr, second by second: maghrib is next, its name and its time.
      await page.clock.runFor(3 * 60_000);
      now += 3 * 60_000;
      seen = await shown(page);
      expect(seen.box).toBe(boxOf(w.nextPrayer, w.times.maghrib, d0.times.maghrib, at(d0.iso.maghrib) - now));
      expect(seen.boxTime).toEqual({ datetime: d0.iso.maghrib, text: d0.times.maghrib });
      expect(seen.marked).toEqual([[d0.iso.maghrib, 'time']]);

      // A minute past isha: tomorrow's fajr (İmsak), with tomorrow's time; no row of today marked; still today.
      await moveTo(at(d0.iso.isha) + 60_000);
      seen = await shown(page);
      expect(seen.box).toBe(boxOf(w.nextPrayer, w.times.imsak, d1.times.fajr, at(d1.iso.fajr) - now));
      expect(seen.boxTime).toEqual({ datetime: d1.iso.fajr, text: d1.times.fajr });
      expect(seen.marked).toEqual([]);
      expect(seen).toMatchObject({ ...dayShown(d0.date), monthMarked: [[d0.date, 'date', true]] });

      // Half a minute past the place's midnight: the new day's date, times and marked row in the month.
      await moveTo(endOf(d0.date) + 30_000);
      seen = await shown(page);
      expect(seen).toMatchObject({ ...dayShown(d1.date), monthMarked: [[d1.date, 'date', true]], prompt: undefined });
      expect(seen.box).toBe(boxOf(w.nextPrayer, w.times.imsak, d1.times.fajr, at(d1.iso.fajr) - now));
      expect(seen.marked).toEqual([[d1.iso.fajr, 'time']]);

      // After fajr, sunrise is next: an event, not a prayer.
      await moveTo(at(d1.iso.fajr) + 60_000);
      seen = await shown(page);
      expect(seen.box).toBe(boxOf(w.nextEvent, w.times.sunrise, d1.times.sunrise, at(d1.iso.sunrise) - now));
      expect(seen.boxTime).toEqual({ datetime: d1.iso.sunrise, text: d1.times.sunrise });
      expect(seen.marked).toEqual([[d1.iso.sunrise, 'time']]);
      await moveTo(at(d1.iso.sunrise) + 60_000);
      expect((await shown(page)).box).toBe(boxOf(w.nextPrayer, w.times.dhuhr, d1.times.dhuhr, at(d1.iso.dhuhr) - now));

      // Past the second day's isha the page holds no next prayer: it says so and offers a reload, showing no times.
      await moveTo(at(d1.iso.isha) + 60_000);
      seen = await shown(page);
      expect(seen).toMatchObject({ box: undefined, date: undefined, caption: undefined, rows: undefined, marked: [], monthMarked: [], prompt: `${w.outOfDate} ${w.reload}` });
      // axe waits on timers: the clock runs on from here (stale is where the page stays).
      await page.clock.resume();
      const violations = await axeViolations(page);
      expect(violations, formatViolations(violations)).toEqual([]);

      // The reload (the browser's copy is still fresh by the real clock, which the test does not move: the link
      // reloads rather than visits): the server, at the same instant, renders the second day, the third's fajr next.
      clock.set(now);
      await Promise.all([page.waitForEvent('load'), page.locator('#reload-prompt a').click()]);
      seen = await shown(page);
      expect(seen).toMatchObject({ ...dayShown(d1.date), prompt: undefined });
      expect(seen.boxTime).toEqual({ datetime: d2.iso.fajr, text: d2.times.fajr });
      expect(seen.box).toMatch(new RegExp(`^${w.nextPrayer}: ${w.times.imsak} ${d2.times.fajr}, ${w.nextPrayerIn} \\d\\d:\\d\\d:\\d\\d$`));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe.each(['tr', 'en'] as const)('a place page left open, in %s', (language) => {
  const w = WORDS[language];

  it('catches up at once when the page is shown again after sleeping, and asks to be reloaded after days', async () => {
    const [d0, d1] = DAYS.map(day);
    const { page, close } = await openAt(PAGES[language], at(d0.iso.dhuhr) + 3_600_000, 360);
    try {
      expect((await shown(page)).date).toBe(dateLine(d0.date, language));
      // The phone sleeps until 08:00 the next morning: the clock jumps, no timer has run.
      const morning = endOf(d0.date) + 8 * 3_600_000;
      await page.clock.setSystemTime(morning);
      expect((await shown(page)).date).toBe(dateLine(d0.date, language));
      // It wakes: the page is shown again, and what it shows is the new morning's.
      await page.evaluate(() => (globalThis as any).document.dispatchEvent(new Event('visibilitychange')));
      let seen = await shown(page);
      expect(seen).toMatchObject({ date: dateLine(d1.date, language), monthMarked: [[d1.date, 'date', true]], marked: [[d1.iso.dhuhr, 'time']] });
      expect(seen.box).toBe(`${w.nextPrayer}: ${w.times.dhuhr} ${d1.times.dhuhr}, ${w.nextPrayerIn} ${hms(at(d1.iso.dhuhr) - morning)}`);
      // Asleep three more days: nothing it holds is true; it shows none of it and asks to be reloaded.
      await page.clock.setSystemTime(morning + 3 * 86_400_000);
      await page.evaluate(() => (globalThis as any).window.dispatchEvent(new Event('pageshow')));
      seen = await shown(page);
      expect(seen).toMatchObject({ box: undefined, date: undefined, rows: undefined, monthMarked: [], prompt: `${w.outOfDate} ${w.reload}` });
    } finally {
      await close();
    }
  });

  it('crosses a month’s end: the new day’s times, and no day of the old month marked', async () => {
    const [last, first] = MONTH_END.map(day);
    const start = endOf(last.date) - 2 * 60_000;
    const { page, close } = await openAt(PAGES[language], start, 1280);
    try {
      expect((await shown(page)).monthMarked).toEqual([[last.date, 'date', true]]);
      await page.clock.runFor(3 * 60_000);
      const seen = await shown(page);
      expect(seen).toMatchObject({
        date: dateLine(first.date, language),
        caption: `${w.today}: ${longDate(first.date, language)}`,
        rows: SHOWN.map((name) => ({ name: w.times[name], datetime: first.iso[COUNTED(name)], time: first.times[name] })),
        monthMarked: [],
      });
      expect(seen.box).toBe(`${w.nextPrayer}: ${w.times.imsak} ${first.times.fajr}, ${w.nextPrayerIn} ${hms(at(first.iso.fajr) - start - 3 * 60_000)}`);
    } finally {
      await close();
    }
  });

  // The page as it is, and a variant with every column (imsak apart from fajr) and a month of 31 days.
  it.each(['', '?method=muslimWorldLeague&madhab=hanafi&month=2027-01'])('prints the month with the place, region, country, method, madhab and address on one A4 page (%s)', async (query) => {
    const { page, close } = await openAt(PAGES[language] + query, at(day(DAYS[0]).iso.dhuhr), 1280);
    try {
      const pdf = await printToPdf(page);
      expect(pdfPageCount(pdf)).toBe(1);
      const line = await visibleText(page, '.month-section .print-only');
      const method = query ? 'Muslim World League' : 'Diyanet İşleri Başkanlığı, Türkiye';
      const madhab = w.madhabs[query ? 'hanafi' : day(DAYS[0]).madhab];
      expect(line).toBe(`Kadıköy, İstanbul, ${countryName('TR', language)} · ${w.method}: ${method} · ${w.madhab}: ${madhab} · ${BASE}${PAGES[language]}${query}`);
      expect(await page.locator('table.month tbody tr').last().isVisible()).toBe(true);
      expect(await page.locator('table.month tbody tr').count()).toBe(query ? 31 : 30);
      await page.emulateMedia({ media: 'screen' });
      expect(await page.locator('.month-section .print-only').isVisible()).toBe(false);
    } finally {
      await close();
    }
  });
});
