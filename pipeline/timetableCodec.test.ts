import { describe, expect, it } from 'vitest';
import { methodById, type Madhab } from './methods.js';
import { computeTimetable } from './prayerTimes.js';
import { daysInYear, decodeDays, encodeYear } from './timetableCodec.js';

describe('the stored form of a year', () => {
  const places: Array<[string, number, number, string, string, Madhab]> = [
    ['Istanbul', 41.0082, 28.9784, 'Europe/Istanbul', 'diyanet', 'shafi'],
    ['Berlin, DST', 52.52, 13.405, 'Europe/Berlin', 'muslimWorldLeague', 'hanafi'],
    ['Tromsø, polar', 69.6489, 18.9551, 'Europe/Oslo', 'muslimWorldLeague', 'shafi'],
    ['McMurdo, polar south', -77.846, 166.676, 'Antarctica/McMurdo', 'isna', 'shafi'],
    ['Kiritimati, UTC+14', 1.87, -157.4, 'Pacific/Kiritimati', 'muslimWorldLeague', 'shafi'],
    ['Makkah, Ramadan isha', 21.4225, 39.8262, 'Asia/Riyadh', 'ummAlQura', 'shafi'],
    ['Tehran, midnight from sunset', 35.69, 51.39, 'Asia/Tehran', 'tehran', 'shafi'],
  ];
  it.each(places)('%s: decoding gives back exactly what was computed', (_name, latitude, longitude, timeZone, method, madhab) => {
    for (const year of [2026, 2028]) {
      const query = { latitude, longitude, timeZone, method: methodById(method), madhab };
      const days = computeTimetable(query, { year, month: 1, day: 1 }, daysInYear(year), true);
      const bytes = encodeYear(year, days);
      expect(bytes.length).toBeLessThan(12_000);
      expect(decodeDays(bytes, query.method, 0, days.length)).toEqual(days);
      // Any stretch: one day, a month, the last day.
      expect(decodeDays(bytes, query.method, 59, 1)).toEqual(days.slice(59, 60));
      expect(decodeDays(bytes, query.method, 31, 29)).toEqual(days.slice(31, 60));
      expect(decodeDays(bytes, query.method, days.length - 1, 1)).toEqual(days.slice(-1));
      // Bytes at an odd offset (as LMDB may hand them out) decode the same.
      const shifted = Buffer.alloc(bytes.length + 1);
      bytes.copy(shifted, 1);
      expect(decodeDays(shifted.subarray(1), query.method, 100, 3)).toEqual(days.slice(100, 103));
    }
  });

  it('refuses a partial year and days outside the stored ones', () => {
    const query = { latitude: 0, longitude: 0, timeZone: 'UTC', method: methodById('isna'), madhab: 'shafi' as const };
    const days = computeTimetable(query, { year: 2026, month: 1, day: 1 }, 365, true);
    expect(() => encodeYear(2026, days.slice(1))).toThrow();
    expect(() => decodeDays(encodeYear(2026, days), query.method, 360, 10)).toThrow();
  });
});
