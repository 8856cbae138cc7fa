// The calendar feed's instants from a month answer's HH:mm equal the API's `iso`: every day of a year, in every zone
// of the catalog (its place farthest from the equator, where high-latitude rules put isha after midnight and fajr
// before it), with DST changes both ways, the zones south of the equator, half-hour and 45-minute offsets.
import { describe, expect, inject, it } from 'vitest';
import { toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { readCatalog, type StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { defaultMadhab, defaultMethodId } from '../../pipeline/astronomy/countryDefaults.js';
import { dayRecord } from '../../pipeline/astronomy/dayRecord.js';
import { offsetSeconds } from '../../pipeline/zones/localTime.js';
import { methodById } from '../../pipeline/astronomy/methods.js';
import { computeTimetable } from '../../pipeline/astronomy/prayerTimes.js';
import { DAY_PRAYERS, instantsShowing, prayerInstants } from './wallClock.js';

const DAY_MS = 86_400_000;

function farthestFromEquatorPerZone(places: readonly StoredPlace[]): StoredPlace[] {
  const byZone = new Map<string, StoredPlace>();
  for (const place of places) {
    const kept = byZone.get(place.timeZone);
    if (!kept || Math.abs(place.latitude) > Math.abs(kept.latitude)) byZone.set(place.timeZone, place);
  }
  return [...byZone.values()];
}

describe('prayerInstants', () => {
  it('gives the API iso of every prayer, every day of a year, in every zone of the catalog', () => {
    const places = farthestFromEquatorPerZone(readCatalog(inject('catalogDataDir'))!.places);
    expect(places.length).toBeGreaterThan(300);
    const mismatches: string[] = [];
    let days = 0;
    let ishaNextDate = 0;
    let fajrDayBefore = 0;
    for (const place of places) {
      const query = { latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone, method: methodById(defaultMethodId(place.country)), madhab: defaultMadhab(place.country) };
      for (const day of computeTimetable(query, { year: 2026, month: 11, day: 1 }, 366, false)) {
        const record = dayRecord(day, place.timeZone);
        const epochDay = toEpochDay(day.date);
        const got = prayerInstants(epochDay, record.times, place.timeZone);
        days++;
        DAY_PRAYERS.forEach((prayer, i) => {
          const expected = Date.parse(record.iso[prayer]);
          if (got[i] !== expected) mismatches.push(`${place.path} ${record.date} ${prayer} ${record.times[prayer]}: ${new Date(got[i]).toISOString()} ≠ ${record.iso[prayer]}`);
        });
        const localDay = (ms: number) => Math.floor((ms + offsetSeconds(place.timeZone, ms) * 1000) / DAY_MS);
        if (localDay(Date.parse(record.iso.isha)) > epochDay) ishaNextDate++;
        if (localDay(Date.parse(record.iso.fajr)) < epochDay) fajrDayBefore++;
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(days).toBeGreaterThan(100_000);
    // The hard cases were there to be got right.
    expect(ishaNextDate).toBeGreaterThan(0);
    console.log(`prayerInstants: ${days} days in ${places.length} zones; isha after midnight on ${ishaNextDate} days, fajr before it on ${fajrDayBefore}`);
  }, 120_000);

  it('finds both instants of a time the clocks show twice, and none of a skipped one', () => {
    // Berlin, 25 October 2026: 02:30 comes twice (CEST, then CET); 29 March 2026: 02:30 never comes.
    expect(instantsShowing(toEpochDay({ year: 2026, month: 10, day: 25 }), '02:30', 'Europe/Berlin').filter((t) => t > Date.UTC(2026, 9, 24, 12) && t < Date.UTC(2026, 9, 25, 12))).toEqual([
      Date.UTC(2026, 9, 25, 0, 30),
      Date.UTC(2026, 9, 25, 1, 30),
    ]);
    expect(instantsShowing(toEpochDay({ year: 2026, month: 3, day: 29 }), '02:30', 'Europe/Berlin').filter((t) => t > Date.UTC(2026, 2, 28, 12) && t < Date.UTC(2026, 2, 29, 12))).toEqual([]);
  });

  it('puts isha after midnight on the next date and fajr before it on the date before', () => {
    const epochDay = toEpochDay({ year: 2026, month: 6, day: 21 });
    const times = { fajr: '23:50', sunrise: '01:10', dhuhr: '13:20', asr: '18:40', maghrib: '23:30', isha: '00:40' };
    // Oslo in summer: UTC+2.
    expect(prayerInstants(epochDay, times, 'Europe/Oslo').map((t) => new Date(t).toISOString().slice(0, 16))).toEqual([
      '2026-06-20T21:50',
      '2026-06-20T23:10',
      '2026-06-21T11:20',
      '2026-06-21T16:40',
      '2026-06-21T21:30',
      '2026-06-21T22:40',
    ]);
  });
});
