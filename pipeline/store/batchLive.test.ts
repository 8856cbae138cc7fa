// The batch path (a whole year computed in one run and encoded as the precompute's workers do it, storedYear, and
// decoded as the server reads it) against the live path (each day computed on its own, as a request computes it), value for value: every method,
// both madhabs, every day of a year, places from the equator to both polar regions and across the date line. The
// live days are computed in another order (date by date across the places) so that no state the batch carries from
// one day to the next (adhanCore's sun by date, its recent solar days) can go unseen.
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate } from '../zones/calendarDate.js';
import { MADHABS, METHOD_IDS, methodById } from '../astronomy/methods.js';
import { computeDay, type DayTimes, type TimetableQuery } from '../astronomy/prayerTimes.js';
import { storedYear } from './storedYear.js';
import { daysInYear, decodeDays } from './timetableCodec.js';

const PLACES: [string, number, number, string][] = [
  ['Istanbul', 41.0082, 28.9784, 'Europe/Istanbul'],
  ['Tromsø', 69.6492, 18.9553, 'Europe/Oslo'],
  ['Longyearbyen', 78.2232, 15.6267, 'Arctic/Longyearbyen'],
  ['McMurdo', -77.846, 166.676, 'Antarctica/McMurdo'],
  ['Sydney', -33.8688, 151.2093, 'Australia/Sydney'],
  ['Kiritimati', 1.8721, -157.4278, 'Pacific/Kiritimati'],
  ['Apia', -13.8333, -171.7667, 'Pacific/Apia'],
  ['Jakarta', -6.2088, 106.8456, 'Asia/Jakarta'],
  ['Singapore', 1.3521, 103.8198, 'Asia/Singapore'],
  ['Mecca', 21.3891, 39.8579, 'Asia/Riyadh'],
  ['Reykjavík', 64.1466, -21.9426, 'Atlantic/Reykjavik'],
  ['New York', 40.7128, -74.006, 'America/New_York'],
  ['Ushuaia', -54.8019, -68.303, 'America/Argentina/Ushuaia'],
  // Zones with odd offsets or changes: DST suspended in Ramadan, quarter and half hours, half-hour DST, the southern
  // hemisphere's DST, polar night with DST.
  ['Casablanca', 33.5731, -7.5898, 'Africa/Casablanca'],
  ['Kathmandu', 27.7172, 85.324, 'Asia/Kathmandu'],
  ['Chatham', -43.9535, -176.5597, 'Pacific/Chatham'],
  ['Lord Howe', -31.5553, 159.0821, 'Australia/Lord_Howe'],
  ['Tehran', 35.6892, 51.389, 'Asia/Tehran'],
  ['Santiago', -33.4489, -70.6693, 'America/Santiago'],
  ['Murmansk', 68.9585, 33.0827, 'Europe/Moscow'],
  ['Nuuk', 64.1814, -51.6941, 'America/Nuuk'],
  ['Anchorage', 61.2181, -149.9003, 'America/Anchorage'],
  ['Honolulu', 21.3069, -157.8583, 'Pacific/Honolulu'],
  ['Karachi', 24.8607, 67.0011, 'Asia/Karachi'],
  ['Lisbon', 38.7223, -9.1393, 'Europe/Lisbon'],
];
const YEAR = 2026;

const plain = (d: DayTimes) => ({ date: d.date, times: d.times, estimated: d.estimated, extras: d.extras });

describe('batch = live', () => {
  it.each(METHOD_IDS)('%s: every day of a year, both madhabs, the places', (methodId) => {
    const method = methodById(methodId);
    const n = daysInYear(YEAR);
    const first: CalendarDate = { year: YEAR, month: 1, day: 1 };
    const queries: TimetableQuery[] = [];
    const batch: DayTimes[][] = [];
    for (const [, latitude, longitude, timeZone] of PLACES) {
      for (const madhab of MADHABS) {
        const q: TimetableQuery = { latitude, longitude, timeZone, method, madhab };
        queries.push(q);
        batch.push(decodeDays(storedYear(q, YEAR), method, 0, n));
      }
    }
    let compared = 0;
    const differences: string[] = [];
    for (let i = 0; i < n; i++) {
      const date = addDays(first, i);
      queries.forEach((q, k) => {
        const live = plain(computeDay(q, date));
        compared++;
        try {
          expect(plain(batch[k][i])).toEqual(live);
        } catch {
          if (differences.length < 5) differences.push(`${PLACES[k >> 1][0]} ${q.madhab} ${date.month}-${date.day}`);
        }
      });
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(n * PLACES.length * MADHABS.length);
  });
});
