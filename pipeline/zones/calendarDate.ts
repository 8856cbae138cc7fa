// A Gregorian calendar date without a zone, and the few pure operations on it that the pipeline needs.

export interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

export const MIN_DATE: CalendarDate = { year: 1900, month: 1, day: 1 };
export const MAX_DATE: CalendarDate = { year: 2100, month: 12, day: 31 };

const DAY_MS = 86_400_000;

/** UTC milliseconds of a date's midnight. Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not. */
function utcMidnight(year: number, monthIndex: number, day: number): number {
  if (year >= 100) return Date.UTC(year, monthIndex, day);
  const t = new Date(0);
  t.setUTCFullYear(year, monthIndex, day);
  return t.getTime();
}

export function daysInMonth(year: number, month: number): number {
  return new Date(utcMidnight(year, month, 0)).getUTCDate();
}

/**
 * Days since 1970-01-01 (negative before), by arithmetic (the proleptic Gregorian calendar, as Date.UTC counts):
 * this runs several times for every place-day of a precompute, where a Date costs more than the rest of the step.
 * Days past the month's end roll over as Date.UTC's do.
 */
export function toEpochDay(d: CalendarDate): number {
  return epochDayOf(d.year, d.month, d.day);
}

/** Days since 1970-01-01 of year-month-day (a month or day past its end rolls over, as in Date.UTC). */
export function epochDayOf(year: number, month: number, day: number): number {
  if (month < 1 || month > 12) {
    year += Math.floor((month - 1) / 12);
    month = month - 12 * Math.floor((month - 1) / 12);
  }
  // Howard Hinnant's days_from_civil: years start on 1 March, so the leap day ends a year.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function fromEpochDay(epochDay: number): CalendarDate {
  // civil_from_days, the inverse of epochDayOf.
  const z = epochDay + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function addDays(d: CalendarDate, days: number): CalendarDate {
  return fromEpochDay(toEpochDay(d) + days);
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

export function formatDate(d: CalendarDate): string {
  return `${String(d.year).padStart(4, '0')}-${pad2(d.month)}-${pad2(d.day)}`;
}

/** Parses `YYYY-MM-DD` when it names a real calendar date, else returns undefined. */
export function parseDate(text: string): CalendarDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > daysInMonth(d.year, d.month)) return undefined;
  return d;
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return toEpochDay(a) - toEpochDay(b);
}

export function isWithinSupportedRange(d: CalendarDate): boolean {
  return compareDates(d, MIN_DATE) >= 0 && compareDates(d, MAX_DATE) <= 0;
}
