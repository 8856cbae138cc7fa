import { describe, expect, it } from 'vitest';
import { methodById, type Madhab } from '../astronomy/methods.js';
import { computeTimetable } from '../astronomy/prayerTimes.js';
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
      // About 1.5 KB as stored, under the 2 KB that LMDB keeps in a leaf page; polar days' estimated times jump more.
      expect(bytes.length).toBeLessThan(Math.abs(latitude) > 60 ? 5_000 : 1_900);
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

  it('keeps large jumps exactly: a zone that changed sides of the date line (Apia skipped 30 December 2011)', () => {
    const query = { latitude: -13.83, longitude: -171.76, timeZone: 'Pacific/Apia', method: methodById('muslimWorldLeague'), madhab: 'shafi' as const };
    const days = computeTimetable(query, { year: 2011, month: 1, day: 1 }, daysInYear(2011), true);
    const bytes = encodeYear(2011, days);
    expect(decodeDays(bytes, query.method, 0, days.length)).toEqual(days);
    expect(decodeDays(bytes, query.method, 362, 3)).toEqual(days.slice(362));
  });

  it('refuses bytes of another format, and cut short', () => {
    const query = { latitude: 41, longitude: 29, timeZone: 'Europe/Istanbul', method: methodById('diyanet'), madhab: 'hanafi' as const };
    const days = computeTimetable(query, { year: 2026, month: 1, day: 1 }, 365, true);
    const bytes = encodeYear(2026, days);
    const formatOne = Buffer.from(bytes);
    formatOne[0] = 1;
    expect(() => decodeDays(formatOne, query.method, 0, 1)).toThrow(/format 1, expected 2/);
    expect(() => decodeDays(bytes.subarray(0, bytes.length - 40), query.method, 300, 65)).toThrow();
    expect(() => decodeDays(bytes.subarray(0, 4), query.method, 0, 1)).toThrow();
  });

  it('refuses a partial year and days outside the stored ones', () => {
    const query = { latitude: 0, longitude: 0, timeZone: 'UTC', method: methodById('isna'), madhab: 'shafi' as const };
    const days = computeTimetable(query, { year: 2026, month: 1, day: 1 }, 365, true);
    expect(() => encodeYear(2026, days.slice(1))).toThrow();
    expect(() => decodeDays(encodeYear(2026, days), query.method, 360, 10)).toThrow();
  });
});
