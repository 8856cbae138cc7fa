// The Umm al-Qura Hijri date of a Gregorian date, from the runtime's ICU calendar `islamic-umalqura`.
import type { CalendarDate } from '../zones/calendarDate.js';

export const HIJRI_MONTH_NAMES = [
  'Muharram', 'Safar', 'Rabi al-Awwal', 'Rabi al-Thani', 'Jumada al-Ula', 'Jumada al-Akhirah',
  'Rajab', 'Shaban', 'Ramadan', 'Shawwal', 'Dhu al-Qadah', 'Dhu al-Hijjah',
] as const;

export const RAMADAN = 9;

export interface HijriDate {
  day: number;
  month: number;
  year: number;
  monthName: string;
}

export interface HijriDateDetail extends HijriDate {
  monthNameAr: string;
  weekday: string;
}

const numericUmmAlQura = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
});
const arabicMonthName = new Intl.DateTimeFormat('ar-u-ca-islamic-umalqura', { timeZone: 'UTC', month: 'long' });
const englishWeekday = new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'long' });

if (numericUmmAlQura.resolvedOptions().calendar !== 'islamic-umalqura') {
  // Without full ICU the runtime silently falls back to another calendar: refuse rather than print wrong dates.
  throw new Error('this Node.js runtime lacks the ICU calendar islamic-umalqura (full-icu is required)');
}

const utcNoon = (d: CalendarDate): Date => new Date(Date.UTC(d.year, d.month - 1, d.day, 12));

/** ICU formatting costs microseconds and every response needs it: each date is converted once. */
const converted = new Map<number, HijriDate>();
const CACHE_LIMIT = 100_000;

export function hijriDate(d: CalendarDate): HijriDate {
  const key = d.year * 10_000 + d.month * 100 + d.day;
  const known = converted.get(key);
  if (known) return known;
  const found = convert(d);
  if (converted.size >= CACHE_LIMIT) converted.clear();
  converted.set(key, found);
  return found;
}

function convert(d: CalendarDate): HijriDate {
  let day = 0;
  let month = 0;
  let year = 0;
  for (const part of numericUmmAlQura.formatToParts(utcNoon(d))) {
    if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'year') year = Number(part.value);
  }
  return { day, month, year, monthName: HIJRI_MONTH_NAMES[month - 1] };
}

export function hijriDateDetail(d: CalendarDate): HijriDateDetail {
  const at = utcNoon(d);
  return { ...hijriDate(d), monthNameAr: arabicMonthName.format(at), weekday: englishWeekday.format(at) };
}
