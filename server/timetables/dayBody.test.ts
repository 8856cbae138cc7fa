// A day's body written as bytes from its series (dayBody.ts), held byte for byte to what the per-day objects gave
// before (computeTimetable or the store's decodeDays, then dayRecord and JSON.stringify of the body): every method,
// both madhabs, the places of seriesCases.ts on days of their months (DST changes, offsets with seconds, polar night
// and day, the day before and after a skipped date), with the extras; heads with a point's Location and its nearest
// place's, and a place's with its urls. Over HTTP, /times for points and places as the server answers them.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { daysInMonth, toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { localDateExists } from '../../pipeline/zones/localTime.js';
import { dayRecord } from '../../pipeline/astronomy/dayRecord.js';
import { MADHABS, METHOD_IDS, methodById, type Madhab, type MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { computeTimetable, type DayTimes } from '../../pipeline/astronomy/prayerTimes.js';
import { storedYear } from '../../pipeline/store/storedYear.js';
import { decodeDays, decodeSeries } from '../../pipeline/store/timetableCodec.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import type { Place } from '../places/location.js';
import { dayBytes, type DayHead } from './dayBody.js';
import { CASES, placeOf, queryOf, wholeMinuteYears } from './seriesCases.js';
import { daySeries } from './timetables.js';

/** A catalog place's Location, as placeCatalog.ts makes it (nested urls, a name that needs escaping and UTF-8). */
const NEAREST = {
  id: 'g1',
  name: 'Kadıköy "Moda" \\ Şehir',
  type: 'district',
  country: 'TR',
  countryName: 'Türkiye',
  region: 'İstanbul',
  latitude: 40.99,
  longitude: 29.03,
  timeZone: 'Europe/Istanbul',
  population: 458638,
  path: 'turkey/istanbul/kadikoy',
  urls: { tr: 'https://example.test/tr/namaz-vakitleri/turkey/istanbul/kadikoy', en: 'https://example.test/en/prayer-times/turkey/istanbul/kadikoy' },
};

/** Heads as the route writes them: a point with its nearest place, a point alone, a catalog place (no population). */
function headsOf(place: Place, method: MethodDefinition, madhab: Madhab): DayHead[] {
  const methodObject = { id: method.id, name: method.name };
  const { population: _, ...placeLocation } = { ...NEAREST, latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone };
  return [
    { location: { latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone, nearestCity: NEAREST }, method: methodObject, madhab, timeZone: place.timeZone },
    { location: place.location, method: methodObject, madhab, timeZone: place.timeZone },
    { location: { ...placeLocation, region: undefined }, method: methodObject, madhab, timeZone: place.timeZone },
  ];
}

/** The body as it was rendered before: dayRecord() of the day, then JSON.stringify of the route's object. */
function bodyBefore(head: DayHead, day: DayTimes): string {
  const d = dayRecord(day, head.timeZone);
  return JSON.stringify({ ...head, date: d.date, hijri: d.hijri, times: d.times, iso: d.iso, extras: d.extras, estimated: d.estimated });
}

/** Days of a case's months: the first, every seventh and the last, each that exists on the zone's clocks. */
function daysOf(timeZone: string, months: Array<[number, number]>): CalendarDate[] {
  return months.flatMap(([year, month]) =>
    Array.from({ length: daysInMonth(year, month) }, (_, i) => ({ year, month, day: i + 1 })).filter(
      (d) => (d.day === 1 || d.day % 7 === 0 || d.day === daysInMonth(year, month) || (timeZone === 'Pacific/Apia' && d.day >= 29)) && localDateExists(d, timeZone),
    ),
  );
}

describe('a day written from its series', () => {
  it.each(METHOD_IDS)('%s: live and stored days equal the per-day rendering, byte for byte', (methodId) => {
    const method = methodById(methodId);
    let stored = 0;
    let extras = 0;
    for (const c of CASES) {
      const place = placeOf(c);
      for (const madhab of MADHABS) {
        const q = queryOf(place, method, madhab);
        for (const date of daysOf(c.timeZone, c.months)) {
          const what = `${c.name} ${date.year}-${date.month}-${date.day} ${madhab}`;
          const live = daySeries({ store: undefined }, place, method, madhab, date, 1, true);
          const day = computeTimetable(q, date, 1, true)[0];
          if (Object.keys(day.extras).length > 0) extras++;
          for (const head of headsOf(place, method, madhab)) {
            expect(dayBytes(head, live.series, live.imsakIsFajr).toString(), what).toBe(bodyBefore(head, day));
          }
          if (!wholeMinuteYears(c.timeZone, date.year, date.year)) continue;
          const bytes = storedYear(q, date.year);
          const dayOfYear = toEpochDay(date) - toEpochDay({ year: date.year, month: 1, day: 1 });
          const head = headsOf(place, method, madhab)[0];
          expect(dayBytes(head, decodeSeries(bytes, dayOfYear, 1), method.imsakIsFajr === true).toString(), `${what} (stored)`).toBe(
            bodyBefore(head, decodeDays(bytes, method, dayOfYear, 1)[0]),
          );
          stored++;
        }
      }
    }
    expect(stored).toBeGreaterThan(100);
    expect(extras).toBeGreaterThan(100);
  });
});

describe('/times over HTTP', () => {
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    'lat=52.52&lon=13.405&date=2026-03-29',
    'lat=78.2232&lon=15.6267&date=2026-12-21&method=moonsighting',
    'lat=69.6492&lon=18.9553&date=2026-06-21&madhab=hanafi&method=diyanet',
    'lat=21.3891&lon=39.8579&date=2026-02-20&method=ummAlQura',
    'lat=-13.8333&lon=-171.7667&date=2011-12-31',
    'lat=6.3005&lon=-10.7969&date=1972-01-06',
    'lat=41.0082&lon=28.9784',
    'city=istanbul&date=2026-11-25',
    'city=istanbul',
  ])('%s: the bytes the per-day objects gave', async (query) => {
    const res = await fetch(`${server.baseUrl}/api/v1/times?${query}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text);
    const { location, method, madhab, timeZone, date } = body;
    const place: Place = { location, latitude: location.latitude, longitude: location.longitude, timeZone, country: undefined };
    // The day computed again by the per-day path (a catalog place's country and region pick its method's zone).
    const q = queryOf({ ...place, country: location.country, region: location.region }, methodById(method.id), madhab);
    const day = computeTimetable(q, { year: +date.slice(0, 4), month: +date.slice(5, 7), day: +date.slice(8) }, 1, true)[0];
    expect(text).toBe(bodyBefore({ location, method, madhab, timeZone }, day));
  });
});
