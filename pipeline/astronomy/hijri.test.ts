import { describe, expect, it } from 'vitest';
import { hijriDate, hijriDateDetail } from './hijri.js';

describe('Umm al-Qura dates from ICU', () => {
  it.each([
    ['2026-02-18', 1, 9, 1447, 'Ramadan'], // 1 Ramadan 1447
    ['2026-03-20', 1, 10, 1447, 'Shawwal'], // Eid al-Fitr 1447
    ['2025-06-26', 1, 1, 1447, 'Muharram'], // 1 Muharram 1447
    ['2024-06-16', 10, 12, 1445, 'Dhu al-Hijjah'], // Eid al-Adha 1445
  ])('%s is %i/%i/%i', (iso, day, month, year, monthName) => {
    const [y, m, d] = iso.split('-').map(Number);
    expect(hijriDate({ year: y, month: m, day: d })).toEqual({ day, month, year, monthName });
  });

  it('gives the Arabic month name and the weekday', () => {
    expect(hijriDateDetail({ year: 2026, month: 2, day: 18 })).toMatchObject({ monthNameAr: 'رمضان', weekday: 'Wednesday' });
  });

  it('covers the whole supported range', () => {
    expect(hijriDate({ year: 1900, month: 1, day: 1 }).year).toBe(1317);
    // Julian day 2488433.5 is 539,994 days after 1 Muharram 1 (JD 1948439.5): 1523.8 mean Hijri years, so 1524.
    expect(hijriDate({ year: 2100, month: 12, day: 31 }).year).toBe(1524);
  });
});
