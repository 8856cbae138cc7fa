// The Ramadan timetable in Chromium. Its rows, as a visitor's browser shows them, equal the API's /times for every
// day of the Ramadan at İstanbul, Jakarta, London and Tromsø (Ramadan 1448, February–March 2027, and Tromsø's Ramadan
// of June 2048 under the midnight sun, where the API estimates times and the page marks them); it prints on one A4
// page with the place, method, madhab and address; at 360 px and 1280 px, in Turkish and English, light and dark, no
// page scrolls sideways and axe-core finds no WCAG 2.1 AA violation. During Ramadan 1448 (the browser's clock and the
// server's moved together: testing/movableClock.ts) today's row is marked and the countdown names the next iftar or
// suhoor with the seconds left, past iftar, past midnight, from the eve of the first fast, and asks to be reloaded
// once the Ramadan is over; without JavaScript the page as served says the same. The method chosen on a place page
// is remembered here too. Screenshots at 360 px go to the temporary folder (docs/screenshots/ holds the ones shown).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, pdfPageCount, printToPdf, type OpenPage } from '../../testing/browser.js';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import type { TimeName } from './placeView.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const KADIKOY = 'turkey/istanbul/kadikoy';
const PLACES = {
  İstanbul: 'turkey/istanbul/istanbul',
  Jakarta: 'indonesia/jakarta/jakarta',
  London: 'united-kingdom/england/london',
  Tromsø: 'norway/all/tromso',
} as const;
const pageOf = (language: 'tr' | 'en', placePath: string): string => (language === 'tr' ? `/tr/imsakiye/${placePath}` : `/en/ramadan/${placePath}`);
const TIME_NAMES: readonly TimeName[] = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };
// The brief's today (26 November 2026): the coming Ramadan is 1448, 8 February to 8 March 2027.
const TODAY = Date.parse('2026-11-26T10:00:00Z');
// 1 June 2048: the coming Ramadan is 1470, 13 June to 12 July, when the sun does not set at Tromsø.
const MIDSUMMER = Date.parse('2048-06-01T10:00:00Z');
const SCREENSHOTS = path.join(tmpdir(), 'prayer-times-ramadan');

interface Times {
  date: string;
  method: { id: string; name: string };
  madhab: 'shafi' | 'hanafi';
  hijri: { day: number; month: number; year: number };
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
  estimated: TimeName[];
}

const clock = movableClock();
let server: RunningServer;
let key: string;
let launching: Promise<Browser>;
const answers = new Map<string, Times>();

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  clock.set(TODAY);
  ({ server, key } = await startServerWithKey({ ...clock.env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE }));
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

/** The API's /times for a place and date (and a method), asked once. */
async function times(placePath: string, date: string, query = ''): Promise<Times> {
  const url = `/api/v1/times?city=${placePath}&date=${date}${query && `&${query}`}`;
  let answer = answers.get(url);
  if (!answer) {
    const res = await fetch(server.baseUrl + url, { headers: { 'X-API-Key': key } });
    expect(res.status, url).toBe(200);
    answer = (await res.json()) as Times;
    answers.set(url, answer);
  }
  return answer;
}

/**
 * The page rendered by the server at `instant`, in a browser whose clock is paused at the same instant, or (`fixed`)
 * whose Date stays at it while timers run in real time: axe waits on timers.
 */
async function openAt(url: string, instant: number, options: { viewport?: { width: number; height: number }; dark?: boolean; javaScript?: boolean; fixed?: boolean } = {}): Promise<OpenPage> {
  clock.set(instant);
  return openPage(await launching, server.baseUrl + url, {
    ...(options.fixed ? { fixedTime: instant } : { clockAt: instant }),
    viewport: options.viewport ?? DESKTOP,
    javaScript: options.javaScript,
    context: { colorScheme: options.dark ? 'dark' : 'light' },
  });
}

interface ShownRow {
  hijriDay: string;
  date: string | null;
  cells: Array<{ iso: string | null; time: string; estimated: boolean }>;
  today: boolean;
  current: string | null;
}

/** The table as the browser shows it: the columns' names and every row's cells. */
async function table(page: Page): Promise<{ columns: string[]; rows: ShownRow[] }> {
  const columns = await page.locator('table.ramadan thead th').evaluateAll((ths) =>
    ths.map((th) => {
      const copy = th.cloneNode(true) as typeof th;
      for (const part of Array.from(copy.querySelectorAll('.col-note, .column-sign')) as Array<typeof th>) part.remove();
      return copy.textContent!.trim();
    }),
  );
  const rows = await page.locator('table.ramadan tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td')).slice(1) as Array<typeof tr>;
      return {
        hijriDay: tr.querySelector('th')!.textContent!.trim(),
        date: tr.querySelector('td time')!.getAttribute('datetime'),
        cells: cells.map((td) => ({ iso: td.querySelector('time')!.getAttribute('datetime'), time: td.querySelector('time')!.textContent!, estimated: !!td.querySelector('sup.estimated') })),
        today: tr.classList.contains('today'),
        current: tr.getAttribute('aria-current'),
      };
    }),
  );
  return { columns, rows };
}

/** The countdown box as a visitor reads it (undefined while hidden). */
async function countdown(page: Page): Promise<{ text: string; datetime: string | null } | undefined> {
  const box = page.locator('#ramadan-next');
  if (!(await box.isVisible())) return undefined;
  return { text: (await box.innerText()).replace(/\s+/g, ' ').trim(), datetime: await box.locator('time').getAttribute('datetime') };
}

/** Seconds as the countdown shows them: hh:mm:ss. */
const hms = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
};

/** Checks every row of a page against /times; returns the dates and how many times the API estimated. */
async function expectRowsEqualTimes(page: Page, placePath: string, language: 'tr' | 'en', query = ''): Promise<{ dates: string[]; estimated: number }> {
  const w = WORDS[language];
  const { columns, rows } = await table(page);
  const days = await Promise.all(rows.map((row) => times(placePath, row.date!, query)));
  // Fajr has a column of its own wherever it is not imsak's instant on some day.
  const names = days.some((d) => d.times.fajr !== d.times.imsak) ? TIME_NAMES : TIME_NAMES.filter((n) => n !== 'fajr');
  expect(columns).toEqual([w.ramadanDay, w.date, ...names.map((n) => w.times[n])]);
  let estimated = 0;
  rows.forEach((row, i) => {
    const day = days[i];
    expect(day.hijri.month, row.date!).toBe(9);
    expect(row.hijriDay).toBe(String(day.hijri.day));
    expect(row.cells, row.date!).toEqual(names.map((n) => ({ iso: day.iso[n], time: day.times[n], estimated: day.estimated.includes(n) })));
    estimated += day.estimated.length;
  });
  expect(days.map((d) => d.hijri.day)).toEqual(days.map((_, i) => i + 1));
  return { dates: rows.map((r) => r.date!), estimated };
}

describe('every row equals the API’s /times for its date', () => {
  it.each(Object.entries(PLACES))('%s, Ramadan 1448 (8 February to 8 March 2027)', async (_, placePath) => {
    for (const language of ['en', 'tr'] as const) {
      const { page, status, problems, close } = await openAt(pageOf(language, placePath), TODAY);
      try {
        expect(status).toBe(200);
        const { dates } = await expectRowsEqualTimes(page, placePath, language);
        expect(dates).toHaveLength(29);
        expect([dates[0], dates[28]]).toEqual(['2027-02-08', '2027-03-08']);
        // Not yet Ramadan: no row is today's, and no countdown.
        expect((await table(page)).rows.filter((r) => r.today || r.current)).toEqual([]);
        expect(await countdown(page)).toBeUndefined();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it('Tromsø, Ramadan 1470 (13 June to 12 July 2048) under the midnight sun: the API’s estimates marked', async () => {
    const { page, problems, close } = await openAt(pageOf('en', PLACES.Tromsø), MIDSUMMER);
    try {
      const { dates, estimated } = await expectRowsEqualTimes(page, PLACES.Tromsø, 'en');
      expect([dates[0], dates.length]).toEqual(['2048-06-13', 30]);
      expect(estimated).toBeGreaterThan(0);
      expect(await page.locator('p.note', { hasText: WORDS.en.estimatedDaysNote }).count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('with a method and madhab chosen, equal to /times with them', async () => {
    const query = 'method=muslimWorldLeague&madhab=hanafi';
    const { page, close } = await openAt(`${pageOf('tr', KADIKOY)}?${query}`, TODAY);
    try {
      await expectRowsEqualTimes(page, KADIKOY, 'tr', query);
    } finally {
      await close();
    }
  });
});

describe('printed', () => {
  it.each(Object.entries(PLACES))('%s fits one A4 page with the place, method, madhab and address, in both languages', async (name, placePath) => {
    for (const language of ['tr', 'en'] as const) {
      const w = WORDS[language];
      const { page, close } = await openAt(pageOf(language, placePath), TODAY);
      try {
        const day = await times(placePath, '2027-02-08');
        const pdf = await printToPdf(page);
        expect(pdfPageCount(pdf), `${name} ${language}`).toBe(1);
        const line = page.locator('.print-only');
        expect(await line.isVisible()).toBe(true);
        const text = await line.innerText();
        expect(text).toContain(name);
        expect(text).toContain(`${w.method}: ${day.method.name}`);
        expect(text).toContain(`${w.madhab}: ${w.madhabs[day.madhab]}`);
        expect(text).toContain(`${BASE}${pageOf(language, placePath)}`);
        // The table and the headings only: no form, no header, no links away.
        expect(await page.locator('table.ramadan').isVisible()).toBe(true);
        expect(await page.locator('form.choose').isVisible()).toBe(false);
        expect(await page.locator('.site-header').isVisible()).toBe(false);
      } finally {
        await close();
      }
    }
  });
});

// 13 Ramadan 1448 (20 February 2027) at Kadıköy, two hours before iftar.
const DAY = '2027-02-20';

describe.each([
  ['tr', PHONE],
  ['tr', DESKTOP],
  ['en', PHONE],
  ['en', DESKTOP],
] as const)('on screen (%s, %o)', (language, viewport) => {
  it('scrolls no page sideways and passes axe, light and dark, in Ramadan and before it', async () => {
    const iftar = Date.parse((await times(KADIKOY, DAY)).iso.maghrib);
    for (const [instant, moment] of [[iftar - 2 * 3600_000, 'ramadan'], [TODAY, 'before']] as const) {
      for (const dark of [false, true]) {
        const { page, problems, close } = await openAt(pageOf(language, KADIKOY), instant, { viewport, dark, fixed: true });
        try {
          const label = `${moment} ${dark ? 'dark' : 'light'}`;
          expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number), label).toBeLessThanOrEqual(viewport.width);
          expect(formatViolations(await axeViolations(page)), label).toBe('');
          expect(problems, label).toEqual([]);
          // In Ramadan the countdown is on and today's row marked (axe judged them too).
          expect(await countdown(page), label).toEqual(moment === 'ramadan' ? expect.objectContaining({ datetime: (await times(KADIKOY, DAY)).iso.maghrib }) : undefined);
          if (viewport === PHONE && moment === 'ramadan') {
            // Tall enough to show the countdown and today's row (13 Ramadan).
            await page.setViewportSize({ width: PHONE.width, height: 1300 });
            mkdirSync(SCREENSHOTS, { recursive: true });
            await page.screenshot({ path: path.join(SCREENSHOTS, `ramadan-${language}-${dark ? 'dark' : 'light'}.png`), type: 'png' });
          }
        } finally {
          await close();
        }
      }
    }
  }, 120_000);
});

describe('during Ramadan 1448', () => {
  it.each([
    ['tr', PHONE],
    ['en', DESKTOP],
  ] as const)('marks today and counts down to the next iftar or suhoor, on the server’s clock and the browser’s (%s)', async (language, viewport) => {
    const w = WORDS[language];
    const day = await times(KADIKOY, DAY);
    const next = await times(KADIKOY, '2027-02-21');
    let now = Date.parse(day.iso.maghrib) - 2 * 3600_000;
    const { page, problems, close } = await openAt(pageOf(language, KADIKOY), now, { viewport });
    const moveTo = async (instant: number): Promise<void> => {
      await page.clock.fastForward(instant - now);
      now = instant;
    };
    const marked = async (): Promise<Array<[string | null, string | null]>> =>
      (await table(page)).rows.filter((r) => r.today || r.current).map((r) => [r.date, r.current]);
    try {
      expect(await marked()).toEqual([[DAY, 'date']]);
      expect(await countdown(page)).toEqual({ text: `${w.nextIftar}: ${day.times.maghrib}, ${w.nextPrayerIn} 02:00:00`, datetime: day.iso.maghrib });
      await moveTo(now + 61_000);
      expect((await countdown(page))!.text).toBe(`${w.nextIftar}: ${day.times.maghrib}, ${w.nextPrayerIn} 01:58:59`);
      // Past iftar: tomorrow's suhoor, today still today.
      await moveTo(Date.parse(day.iso.maghrib) + 1000);
      expect(await countdown(page)).toEqual({
        text: `${w.nextSuhoor}: ${next.times.imsak}, ${w.nextPrayerIn} ${hms(Date.parse(next.iso.imsak) - now)}`,
        datetime: next.iso.imsak,
      });
      expect(await marked()).toEqual([[DAY, 'date']]);
      // Past the place's midnight (21:00 UTC): the next row is today's.
      await moveTo(Date.parse('2027-02-20T21:00:30Z'));
      expect(await marked()).toEqual([['2027-02-21', 'date']]);
      expect((await countdown(page))!.datetime).toBe(next.iso.imsak);
      // Past suhoor: that day's iftar.
      await moveTo(Date.parse(next.iso.imsak) + 1000);
      expect(await countdown(page)).toMatchObject({ text: `${w.nextIftar}: ${next.times.maghrib}, ${w.nextPrayerIn} ${hms(Date.parse(next.iso.maghrib) - now)}`, datetime: next.iso.maghrib });
      // Past the last iftar: no countdown; past the last day: no row is today's, and a prompt to reload.
      const last = await times(KADIKOY, '2027-03-08');
      await moveTo(Date.parse(last.iso.maghrib) + 1000);
      expect(await countdown(page)).toBeUndefined();
      expect(await marked()).toEqual([['2027-03-08', 'date']]);
      await moveTo(Date.parse('2027-03-08T21:00:00Z'));
      expect(await marked()).toEqual([]);
      expect(await page.locator('#reload-prompt').isVisible()).toBe(true);
      expect((await page.locator('#reload-prompt').innerText()).trim()).toBe(`${w.outOfDate} ${w.reload}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('from the eve of the first fast counts down to the first suhoor, also on a page left open since before it', async () => {
    const w = WORDS.en;
    const first = await times(KADIKOY, '2027-02-08');
    // 6 February, 23:00 in İstanbul: the eve's midnight is an hour away.
    let now = Date.parse('2027-02-06T20:00:00Z');
    const { page, close } = await openAt(pageOf('en', KADIKOY), now);
    try {
      expect(await countdown(page)).toBeUndefined();
      await page.clock.fastForward(3600_000);
      now += 3600_000;
      expect(await countdown(page)).toEqual({ text: `${w.nextSuhoor}: ${first.times.imsak}, ${w.nextPrayerIn} ${hms(Date.parse(first.iso.imsak) - now)}`, datetime: first.iso.imsak });
      expect((await table(page)).rows.filter((r) => r.today)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('says the same without JavaScript, as served for that instant', async () => {
    const w = WORDS.tr;
    const day = await times(KADIKOY, DAY);
    const { page, close } = await openAt(pageOf('tr', KADIKOY), Date.parse(day.iso.maghrib) - 2 * 3600_000, { javaScript: false, viewport: PHONE });
    try {
      expect(await countdown(page)).toEqual({ text: `${w.nextIftar}: ${day.times.maghrib}`, datetime: day.iso.maghrib });
      expect((await table(page)).rows.filter((r) => r.today).map((r) => r.date)).toEqual([DAY]);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await close();
    }
  });
});

describe('the method and madhab chosen', () => {
  it('on a place page are remembered here, and the place page links here with them', async () => {
    const { page, context, close } = await openAt(`/en/prayer-times/${KADIKOY}?method=isna&madhab=hanafi`, TODAY);
    try {
      const link = page.locator(`main a[href^="/en/ramadan/${KADIKOY}"]`);
      expect(await link.getAttribute('href')).toBe(`/en/ramadan/${KADIKOY}?method=isna&madhab=hanafi`);
      // A new tab on the bare address: preferences.js puts the choice in its URL.
      const other = await context.newPage();
      await other.goto(`${server.baseUrl}${pageOf('tr', KADIKOY)}`);
      await other.waitForURL(/method=isna/);
      expect(new URL(other.url()).search).toBe('?method=isna&madhab=hanafi');
      expect(await other.locator('#method').inputValue()).toBe('isna');
      expect(await other.locator('#madhab').inputValue()).toBe('hanafi');
      await expectRowsEqualTimes(other, KADIKOY, 'tr', 'method=isna&madhab=hanafi');
      // Choosing the default option here forgets it, on the place page too.
      await other.locator('#method').selectOption('');
      await other.locator('#madhab').selectOption('');
      await Promise.all([other.waitForURL(/method=&madhab=$/), other.locator('form.choose button').click()]);
      await other.goto(`${server.baseUrl}/tr/namaz-vakitleri/${KADIKOY}`);
      expect(new URL(other.url()).search).toBe('');
    } finally {
      await close();
    }
  });
});
