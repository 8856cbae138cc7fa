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

/** Days since 1970-01-01 (negative before). */
export function toEpochDay(d: CalendarDate): number {
  return Math.round(utcMidnight(d.year, d.month - 1, d.day) / DAY_MS);
}

export function fromEpochDay(epochDay: number): CalendarDate {
  const t = new Date(epochDay * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
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
