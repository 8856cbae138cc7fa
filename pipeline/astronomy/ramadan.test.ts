import { describe, expect, it } from 'vitest';
import { addDays, formatDate, parseDate, type CalendarDate } from '../zones/calendarDate.js';
import { hijriDate } from './hijri.js';
import { ramadanOf } from './ramadan.js';

const date = (text: string): CalendarDate => parseDate(text)!;

describe('the Ramadan a date looks to (Umm al-Qura)', () => {
  it.each([
    // Today in the brief's world; the day before, on and after 1 Ramadan 1448; its last day; the day after it.
    ['2026-11-26', 1448, '2027-02-08', 29],
    ['2027-02-07', 1448, '2027-02-08', 29],
    ['2027-02-08', 1448, '2027-02-08', 29],
    ['2027-02-20', 1448, '2027-02-08', 29],
    ['2027-03-08', 1448, '2027-02-08', 29],
    ['2027-03-09', 1449, '2028-01-28', 29],
    // Ramadan 1447 (1 Shawwal is 2026-03-20 in the API's own Hijri tests: 30 days) and the day after the Eid of 1446.
    ['2026-02-18', 1447, '2026-02-18', 30],
    ['2025-03-31', 1447, '2026-02-18', 30],
  ])('%s: Ramadan %i begins on %s and lasts %i days', (from, hijriYear, first, days) => {
    const span = ramadanOf(date(from));
    expect({ hijriYear: span.hijriYear, first: formatDate(span.first), days: span.days }).toEqual({ hijriYear, first, days });
  });

  it('is, for every date of 2026 to 2030, the run of dates whose Hijri month is Ramadan, at or after the date', () => {
    const start = date('2026-01-01');
    for (let i = 0; i < 5 * 366; i++) {
      const day = addDays(start, i);
      const span = ramadanOf(day);
      const rows = Array.from({ length: span.days }, (_, k) => hijriDate(addDays(span.first, k)));
      expect(rows.map((h) => [h.month, h.day, h.year])).toEqual(rows.map((_, k) => [9, k + 1, span.hijriYear]));
      expect(hijriDate(addDays(span.first, -1)).month).toBe(8);
      expect(hijriDate(addDays(span.first, span.days)).month).toBe(10);
      // The date is in it, or before it with no Ramadan between: this year's if Ramadan is still to come, else next year's.
      const last = addDays(span.first, span.days - 1);
      expect(formatDate(day) <= formatDate(last)).toBe(true);
      const h = hijriDate(day);
      if (h.month === 9) expect(span.hijriYear).toBe(h.year);
      else expect(span.hijriYear).toBe(h.month < 9 ? h.year : h.year + 1);
    }
  });
});
