// The places, zones and months the body writers (monthBody.ts, dayBody.ts, nextPrayer.ts) are held to the per-day
// objects over: the equator to both polar regions, DST changes, offsets with seconds, a skipped date, Umm al-Qura's
// Ramadan, a JAKIM zone. Shared by their tests.
import { toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { ZoneOffsets } from '../../pipeline/zones/localTime.js';
import type { Madhab, MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { zoneFor } from '../../pipeline/astronomy/methodZones.js';
import type { TimetableQuery } from '../../pipeline/astronomy/prayerTimes.js';
import type { Place } from '../places/location.js';

export interface SeriesCase {
  name: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** Year-month pairs. */
  months: Array<[number, number]>;
  country?: string;
  region?: string;
}

export const CASES: SeriesCase[] = [
  { name: 'Berlin (DST both ways)', latitude: 52.52, longitude: 13.405, timeZone: 'Europe/Berlin', months: [[2026, 3], [2026, 10]] },
  { name: 'New York', latitude: 40.7128, longitude: -74.006, timeZone: 'America/New_York', months: [[2026, 3], [2026, 11]] },
  { name: 'Longyearbyen (polar night and day)', latitude: 78.2232, longitude: 15.6267, timeZone: 'Arctic/Longyearbyen', months: [[2026, 6], [2026, 12], [2026, 3]] },
  { name: 'Tromsø', latitude: 69.6492, longitude: 18.9553, timeZone: 'Europe/Oslo', months: [[2026, 5]] },
  { name: 'Reykjavík', latitude: 64.1466, longitude: -21.9426, timeZone: 'Atlantic/Reykjavik', months: [[2026, 6]] },
  { name: 'McMurdo', latitude: -77.846, longitude: 166.676, timeZone: 'Antarctica/McMurdo', months: [[2026, 4], [2026, 9]] },
  { name: 'Apia (30 December 2011 skipped)', latitude: -13.8333, longitude: -171.7667, timeZone: 'Pacific/Apia', months: [[2011, 12]] },
  { name: 'Kiritimati', latitude: 1.8721, longitude: -157.4278, timeZone: 'Pacific/Kiritimati', months: [[2026, 1]] },
  { name: 'Casablanca (DST off in Ramadan)', latitude: 33.5731, longitude: -7.5898, timeZone: 'Africa/Casablanca', months: [[2026, 2], [2026, 3]] },
  { name: 'Mecca (Ramadan)', latitude: 21.3891, longitude: 39.8579, timeZone: 'Asia/Riyadh', months: [[2026, 2], [2026, 3]] },
  { name: 'Lord Howe (half-hour DST)', latitude: -31.5553, longitude: 159.0821, timeZone: 'Australia/Lord_Howe', months: [[2026, 4]] },
  { name: 'Chatham', latitude: -43.9535, longitude: -176.5597, timeZone: 'Pacific/Chatham', months: [[2026, 9]] },
  // Offsets with seconds: Monrovia's −0:44:30 (to whole minutes in January 1972), Amsterdam's +1:19:32 summer time,
  // Dublin's −0:25:21 with the first summer time, Istanbul's +1:56:56.
  { name: 'Monrovia', latitude: 6.3005, longitude: -10.7969, timeZone: 'Africa/Monrovia', months: [[1970, 6], [1972, 1]] },
  { name: 'Amsterdam', latitude: 52.3676, longitude: 4.9041, timeZone: 'Europe/Amsterdam', months: [[1930, 5], [1937, 6]] },
  { name: 'Dublin', latitude: 53.3498, longitude: -6.2603, timeZone: 'Europe/Dublin', months: [[1916, 5], [1916, 10]] },
  { name: 'Istanbul', latitude: 41.0082, longitude: 28.9784, timeZone: 'Europe/Istanbul', months: [[1900, 1], [2026, 3]] },
  // A catalog place in one of JAKIM's zones, as a server without a store computes it (Perlis: imsak is fajr).
  { name: 'Kangar (JAKIM PLS01)', latitude: 6.4414, longitude: 100.1986, timeZone: 'Asia/Kuala_Lumpur', months: [[2026, 3]], country: 'MY', region: 'Perlis' },
];

export const placeOf = (c: SeriesCase): Place => ({
  location: { latitude: c.latitude, longitude: c.longitude, timeZone: c.timeZone },
  latitude: c.latitude,
  longitude: c.longitude,
  timeZone: c.timeZone,
  country: c.country,
  region: c.region,
});

export const queryOf = (place: Place, method: MethodDefinition, madhab: Madhab): TimetableQuery => ({
  latitude: place.latitude,
  longitude: place.longitude,
  timeZone: place.timeZone,
  method,
  madhab,
  zone: zoneFor(method, { country: place.country, region: place.region })?.code,
});


/** Whether every offset of the zone from `from`'s 1 January to the end of `to` is whole minutes (the store's years). */
export const wholeMinuteYears = (timeZone: string, from: number, to: number): boolean =>
  new ZoneOffsets(timeZone).wholeMinutesThroughout(toEpochDay({ year: from, month: 1, day: 1 }) * 86_400_000, toEpochDay({ year: to + 1, month: 1, day: 1 }) * 86_400_000);
