// Which Ramadan a date looks to, by the Umm al-Qura calendar (hijri.ts, the API's /hijri and every day's `hijri`):
// the one it falls in, or else the next one. Its first day and its length (29 or 30 days) are read from the same
// calendar, so a Ramadan timetable's rows are exactly the dates whose `hijri.month` is 9.
import { addDays, toEpochDay, type CalendarDate } from '../zones/calendarDate.js';
import { hijriDate, RAMADAN } from './hijri.js';

export interface RamadanSpan {
  /** The Hijri year (1448 for the Ramadan that begins on 8 February 2027). */
  hijriYear: number;
  /** The Gregorian date of 1 Ramadan. */
  first: CalendarDate;
  /** 29 or 30. */
  days: number;
}

/** A Hijri month is 29.53 days on average: the estimate of where 1 Ramadan is falls within two days of it. */
const MEAN_MONTH_DAYS = 29.530_589;
/** How far either side of the estimate 1 Ramadan is looked for (the estimate is off by two days at most). */
const SEARCH_DAYS = 6;

/** Every date's answer is the same for every place and request: kept (a local date changes once a day). */
const known = new Map<number, RamadanSpan>();
const KNOWN_LIMIT = 4_096;

/** The Ramadan `date` falls in, or the next one if it falls in none. */
export function ramadanOf(date: CalendarDate): RamadanSpan {
  const key = toEpochDay(date);
  const kept = known.get(key);
  if (kept) return kept;
  const span = find(date);
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.set(key, span);
  return span;
}

function find(date: CalendarDate): RamadanSpan {
  const today = hijriDate(date);
  let first: CalendarDate | undefined;
  if (today.month === RAMADAN) {
    first = addDays(date, 1 - today.day);
  } else {
    // Months to go to Ramadan (after it, to next year's), less the days gone in this month.
    const months = (RAMADAN - today.month + 12) % 12;
    const estimate = Math.round(months * MEAN_MONTH_DAYS - (today.day - 1));
    for (let offset = Math.max(1, estimate - SEARCH_DAYS); offset <= estimate + SEARCH_DAYS && !first; offset++) {
      const candidate = addDays(date, offset);
      const h = hijriDate(candidate);
      if (h.month === RAMADAN) first = addDays(candidate, 1 - h.day);
    }
    if (!first) throw new Error(`no 1 Ramadan found near ${estimate} days after ${date.year}-${date.month}-${date.day}`);
  }
  const days = hijriDate(addDays(first, 29)).month === RAMADAN ? 30 : 29;
  return { hijriYear: hijriDate(first).year, first, days };
}
