// A month's body written as bytes from its series (monthBody.ts) and /next's prayers from theirs (nextPrayer.ts),
// held byte for byte to what the per-day objects gave before (computeTimetable or the store's decodeDays, then
// dayRecord and JSON.stringify): every method, both madhabs, points from the equator to both polar regions, months
// with DST changes, zones whose offsets had seconds, a day the clocks skipped, Umm al-Qura's Ramadan, JAKIM's zones;
// and over HTTP, live months of points as the server answers them.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, daysInMonth, toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { localDateExists, ZoneOffsets } from '../../pipeline/zones/localTime.js';
import { dayRecord } from '../../pipeline/astronomy/dayRecord.js';
import { MADHABS, METHOD_IDS, methodById, type Madhab, type MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { zoneFor } from '../../pipeline/astronomy/methodZones.js';
import { computeTimetable, type DayTimes } from '../../pipeline/astronomy/prayerTimes.js';
import { storedYear } from '../../pipeline/store/storedYear.js';
import { decodeDays, decodeSeries } from '../../pipeline/store/timetableCodec.js';
import type { TimetableReader } from '../../pipeline/store/timetableStore.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';
import type { Place } from '../places/location.js';
import { monthBytes, type MonthHead } from './monthBody.js';
import { NEXT_PRAYERS, prayersAround } from './nextPrayer.js';
import { daySeries } from './timetables.js';
import { CASES, placeOf, queryOf, wholeMinuteYears } from './seriesCases.js';

const headOf = (place: Place, method: MethodDefinition, madhab: Madhab, year: number, month: number): MonthHead => ({
  location: place.location,
  method: { id: method.id, name: method.name },
  madhab,
  timeZone: place.timeZone,
  year,
  month,
});

/** The body as it was rendered before: DayTimes, dayRecord() for each shown day, then JSON.stringify of the object. */
function bodyBefore(head: MonthHead, days: DayTimes[]): string {
  const records = days.filter((d) => localDateExists(d.date, head.timeZone)).map((d) => dayRecord({ ...d, extras: {} }, head.timeZone));
  return JSON.stringify({ ...head, days: records.map((d) => ({ date: d.date, hijri: d.hijri, times: d.times, estimated: d.estimated })) });
}

describe('a month written from its series', () => {
  it('has the cases it claims: offsets with seconds, a skipped date, a JAKIM zone', () => {
    const seconds = (tz: string, year: number, month: number) =>
      !new ZoneOffsets(tz).wholeMinutesThroughout(toEpochDay({ year, month, day: 1 }) * 86_400_000, toEpochDay({ year, month: month + 1, day: 1 }) * 86_400_000);
    expect(seconds('Africa/Monrovia', 1970, 6) && seconds('Europe/Amsterdam', 1930, 5) && seconds('Europe/Dublin', 1916, 5) && seconds('Europe/Istanbul', 1900, 1)).toBe(true);
    expect(localDateExists({ year: 2011, month: 12, day: 30 }, 'Pacific/Apia')).toBe(false);
    expect(zoneFor(methodById('jakim'), { country: 'MY', region: 'Perlis' })?.code).toBe('PLS01');
  });

  it.each(METHOD_IDS)('%s: live and stored months equal the per-day rendering, byte for byte', (methodId) => {
    const method = methodById(methodId);
    let compared = 0;
    for (const c of CASES) {
      const place = placeOf(c);
      for (const madhab of MADHABS) {
        const q = queryOf(place, method, madhab);
        for (const [year, month] of c.months) {
          const first: CalendarDate = { year, month, day: 1 };
          const count = daysInMonth(year, month);
          const head = headOf(place, method, madhab, year, month);
          const what = `${c.name} ${year}-${month} ${madhab}`;
          // Live: the path a point takes (computeSeries) against computeTimetable's days.
          const live = daySeries({ store: undefined }, place, method, madhab, first, count, false);
          expect(live.fromStore).toBe(false);
          expect(monthBytes(head, live.series, live.imsakIsFajr).toString(), what).toBe(bodyBefore(head, computeTimetable(q, first, count, false)));
          // Stored: the year as the precompute encodes it, decoded as series against decodeDays's days (the store
          // keeps whole minutes: years whose offsets had seconds are computed live, always).
          if (!wholeMinuteYears(c.timeZone, year, year)) continue;
          const bytes = storedYear(q, year);
          const dayOfYear = toEpochDay(first) - toEpochDay({ year, month: 1, day: 1 });
          expect(monthBytes(head, decodeSeries(bytes, dayOfYear, count), method.imsakIsFajr === true).toString(), `${what} (stored)`).toBe(
            bodyBefore(head, decodeDays(bytes, method, dayOfYear, count)),
          );
          compared++;
        }
      }
    }
    expect(compared).toBe(CASES.reduce((n, c) => n + c.months.filter(([year]) => wholeMinuteYears(c.timeZone, year, year)).length, 0) * MADHABS.length);
  });
});

describe("/next's prayers written from their series", () => {
  // Days before, at and after DST changes, New Year (two stored years), the skipped date, polar night.
  const DAYS: Array<[string, CalendarDate]> = [
    ['Europe/Berlin', { year: 2026, month: 3, day: 29 }],
    ['America/New_York', { year: 2026, month: 11, day: 1 }],
    ['Arctic/Longyearbyen', { year: 2026, month: 12, day: 21 }],
    ['Pacific/Apia', { year: 2011, month: 12, day: 31 }],
    ['Asia/Riyadh', { year: 2027, month: 1, day: 1 }],
    ['Africa/Monrovia', { year: 1972, month: 1, day: 7 }],
  ];

  it.each(METHOD_IDS)('%s: the prayers around a day equal those of the day records', (methodId) => {
    const method = methodById(methodId);
    for (const [timeZone, today] of DAYS) {
      const c = CASES.find((k) => k.timeZone === timeZone)!;
      const place = placeOf(c);
      for (const madhab of MADHABS) {
        const { prayers } = prayersAround({ store: undefined }, place, method, madhab, today, undefined);
        const days = computeTimetable(queryOf(place, method, madhab), addDays(today, -1), 3, false)
          .filter((d) => localDateExists(d.date, timeZone))
          .map((d) => dayRecord({ ...d, extras: {} }, timeZone));
        const before = days
          .flatMap((day) => NEXT_PRAYERS.map((prayer) => ({ prayer, time: day.times[prayer], iso: day.iso[prayer], at: Date.parse(day.iso[prayer]) })))
          .sort((a, b) => a.at - b.at);
        expect(prayers, `${timeZone} ${madhab}`).toEqual(before);
        // From a store holding the place's years (across New Year, two of them, joined).
        if (!wholeMinuteYears(timeZone, today.year - 1, today.year + 1)) continue;
        const store = { get: (_id: string, _method: string, _madhab: string, year: number) => storedYear(queryOf(place, method, madhab), year) } as unknown as TimetableReader;
        const stored = prayersAround({ store }, { ...place, placeId: 'test' }, method, madhab, today, undefined);
        expect(stored.fromStore).toBe(true);
        expect(stored.prayers, `${timeZone} ${madhab} (stored)`).toEqual(before);
      }
    }
  });
});

describe('live /month for points over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ACCESS_CONTROL: 'off', DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ['lat=52.52&lon=13.405&year=2026&month=3', undefined],
    ['lat=78.2232&lon=15.6267&year=2026&month=12', 'moonsighting'],
    ['lat=69.6492&lon=18.9553&year=2026&month=6&madhab=hanafi', 'diyanet'],
    ['lat=21.3891&lon=39.8579&year=2026&month=2', 'ummAlQura'],
    ['lat=-13.8333&lon=-171.7667&year=2011&month=12', undefined],
    ['lat=6.3005&lon=-10.7969&year=1972&month=1', undefined],
    ['lat=-31.5553&lon=159.0821&year=2026&month=4&tz=Australia/Lord_Howe', 'isna'],
  ])('%s (method %s): the bytes the per-day objects gave', async (query, methodId) => {
    const res = await fetch(`${server.baseUrl}/api/v1/month?${query}${methodId ? `&method=${methodId}` : ''}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const { days, ...head } = JSON.parse(text) as MonthHead & { days: unknown[] };
    expect(days.length).toBeGreaterThan(27);
    const method = methodById(head.method.id);
    const place: Place = { location: head.location, latitude: head.location.latitude as number, longitude: head.location.longitude as number, timeZone: head.timeZone, country: undefined };
    const first = { year: head.year, month: head.month, day: 1 };
    expect(text).toBe(bodyBefore(head, computeTimetable(queryOf(place, method, head.madhab as Madhab), first, daysInMonth(head.year, head.month), false)));
  });
});
