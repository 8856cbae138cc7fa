// Instants (UTC milliseconds) seen on a place's wall clock: offsets, `HH:mm`, ISO instants and local dates. The
// offsets come from zoneRules.ts (IANA's data), in seconds: before standard time, zones kept local mean time,
// whose offsets have seconds (Istanbul's was +01:55:52).
import { fromEpochDay, toEpochDay, type CalendarDate } from './calendarDate.js';
import { offsetAt } from './transitionTable.js';
import { offsetSeconds, transitionTable } from './zoneRules.js';

export { canonicalZoneName, offsetSeconds } from './zoneRules.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** `HH:mm` of every minute of a day: formatting a time is a table lookup. */
const CLOCK = Array.from({ length: 1440 }, (_, m) => pad2(Math.floor(m / 60)) + ':' + pad2(m % 60));

/** `HH:mm` on the wall clock of a place whose offset at that instant is `offset` seconds. */
export function clockTime(ms: number, offset: number): string {
  return CLOCK[((Math.floor((ms + offset * SECOND_MS) / MINUTE_MS) % 1440) + 1440) % 1440];
}

/**
 * The instant rounded to the nearest minute of the place's wall clock (a UTC minute, unless the offset has seconds);
 * `up` takes the next minute (the same one when already whole), `down` the minute it falls in.
 */
export function roundToLocalMinute(ms: number, zoneName: string, mode: 'nearest' | 'up' | 'down' = 'nearest'): number {
  const offset = offsetSeconds(zoneName, ms) * SECOND_MS;
  const minutes = (ms + offset) / MINUTE_MS;
  const whole = mode === 'nearest' ? Math.round(minutes) : mode === 'up' ? Math.ceil(minutes) : Math.floor(minutes);
  return whole * MINUTE_MS - offset;
}

/** roundedUtcMinutes's modes. */
export const ROUND_NEAREST = 0;
export const ROUND_UP = 1;
export const ROUND_DOWN = 2;

/**
 * roundToLocalMinute's arithmetic for an instant whose zone offset is `offset` milliseconds (`offsetMinutes` is
 * offset / 60,000, given so that a day's instants at one offset divide once), the mode as a number, and the result in
 * UTC minutes since 1970: whole unless the offset has seconds; × 60,000, rounded, it is roundToLocalMinute's. Small
 * enough for the compiler to write it out where it is called.
 */
export function roundedUtcMinutes(ms: number, mode: number, offset: number, offsetMinutes: number): number {
  const minutes = (ms + offset) / MINUTE_MS;
  return (mode === ROUND_NEAREST ? Math.round(minutes) : mode === ROUND_UP ? Math.ceil(minutes) : Math.floor(minutes)) - offsetMinutes;
}

/**
 * One zone's offsets read in runs (a place's days, in order): the interval between transitions of the last lookup is
 * kept, so an instant in it costs two comparisons. Gives what offsetSeconds and roundToLocalMinute give.
 */
export class ZoneOffsets {
  private from = Infinity;
  private to = -Infinity;
  private offset = 0;
  private readonly table;

  constructor(zoneName: string) {
    this.table = transitionTable(zoneName);
  }

  /** The offset at `ms` in milliseconds (offsetSeconds × 1000). */
  offsetMs(ms: number): number {
    if (ms >= this.from && ms < this.to) return this.offset;
    const table = this.table;
    this.offset = offsetAt(table, ms) * SECOND_MS;
    const i = table.hint ?? 0;
    this.from = table.at[i];
    this.to = i + 1 < table.at.length ? table.at[i + 1] : Infinity;
    return this.offset;
  }

  /**
   * Whether every offset in force from `from` to `to` (instants) is a whole number of minutes, as every zone's has
   * been since the 1970s: rounding an instant to a minute of the local clock is then rounding it to a UTC minute, and
   * the offset need not be looked up at all.
   */
  wholeMinutesThroughout(from: number, to: number): boolean {
    const { at, offset } = this.table;
    let i = 0;
    while (i + 1 < at.length && at[i + 1] <= from) i++;
    for (; i < at.length && at[i] <= to; i++) if (offset[i] % 60 !== 0) return false;
    return true;
  }

  /**
   * The offset in milliseconds in force from `from` to `to` (instants, `from` ≤ `to`), or NaN when the clocks change
   * between them (or either is NaN): a day's instants then share one offset, looked up once.
   */
  offsetThroughout(from: number, to: number): number {
    const offset = this.offsetMs(from);
    return from >= this.from && to < this.to ? offset : NaN;
  }

  /** localEpochDay(ms, zone). */
  localEpochDay(ms: number): number {
    return Math.floor((ms + this.offsetMs(ms)) / DAY_MS);
  }

  /** localDateExists for the date `epochDay` (days since 1970-01-01). */
  dateExists(epochDay: number): boolean {
    const noon = epochDay * DAY_MS + DAY_MS / 2;
    // With one offset from three days before to three after, every probe below finds the date: a month of days asks
    // the table once a day, not six times.
    if (!Number.isNaN(this.offsetThroughout(noon - 3 * DAY_MS, noon + 3 * DAY_MS))) return true;
    // Local noon seen with each offset the zone had within two days either side.
    for (let probe = noon - 2 * DAY_MS; probe <= noon + 2 * DAY_MS; probe += 2 * DAY_MS) {
      if (this.localEpochDay(noon - this.offsetMs(probe)) === epochDay) return true;
    }
    return false;
  }
}

const isoDays = new Map<number, string>();

/** `YYYY-MM-DDTHH:mm:ssZ`, whole seconds. */
export function isoInstant(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds % 60 !== 0) return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  // Whole minutes (every prayer time): the day's date, once per day, and the clock table.
  const day = Math.floor(ms / DAY_MS);
  let date = isoDays.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (isoDays.size >= 100_000) isoDays.clear();
    isoDays.set(day, date);
  }
  return `${date}T${CLOCK[Math.floor((ms - day * DAY_MS) / MINUTE_MS)]}:00Z`;
}

/** The day (days since 1970-01-01) on the place's wall clock at the instant `ms`. */
export function localEpochDay(ms: number, zoneName: string): number {
  return Math.floor((ms + offsetSeconds(zoneName, ms) * SECOND_MS) / DAY_MS);
}

/** The calendar date on the place's wall clock at the instant `ms`. */
export function localDate(ms: number, zoneName: string): CalendarDate {
  return fromEpochDay(localEpochDay(ms, zoneName));
}

/** UTC milliseconds of local noon on `date` in the zone (noon exists on every DST change day). */
export function localNoon(date: CalendarDate, zoneName: string): number {
  const utcNoon = toEpochDay(date) * DAY_MS + DAY_MS / 2;
  return utcNoon - offsetSeconds(zoneName, utcNoon) * SECOND_MS;
}

/**
 * Whether the zone's clocks ever show `date`. A zone that moves across the date line skips a whole day (Samoa
 * went from 29 to 31 December 2011): no instant falls on it.
 */
export function localDateExists(date: CalendarDate, zoneName: string): boolean {
  return new ZoneOffsets(zoneName).dateExists(toEpochDay(date));
}

/** The first instant after `ms` that falls on the next local date (the coming midnight, or what a DST change makes of it). */
export function nextLocalMidnight(ms: number, zoneName: string): number {
  const day = localEpochDay(ms, zoneName);
  let at = (day + 1) * DAY_MS - offsetSeconds(zoneName, ms) * SECOND_MS;
  // An offset change before midnight moves it: take the offset in force there, then step to the exact minute.
  at = (day + 1) * DAY_MS - offsetSeconds(zoneName, at) * SECOND_MS;
  while (localEpochDay(at, zoneName) <= day) at += MINUTE_MS;
  while (at - MINUTE_MS > ms && localEpochDay(at - MINUTE_MS, zoneName) > day) at -= MINUTE_MS;
  return at;
}
