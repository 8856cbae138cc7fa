// Instants (UTC milliseconds) seen on a place's wall clock: offsets, `HH:mm`, ISO minutes and local dates.
import { IANAZone } from 'luxon';
import { fromEpochDay, type CalendarDate } from './calendarDate.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const zones = new Map<string, IANAZone>();

function zone(name: string): IANAZone {
  let z = zones.get(name);
  if (!z) {
    z = IANAZone.create(name);
    zones.set(name, z);
  }
  return z;
}

const canonicalNames = new Map<string, string>();

/**
 * The runtime's canonical spelling of an IANA zone name (`europe/berlin` → `Europe/Berlin`),
 * or undefined when the runtime does not know it. Offsets like `+03:00` are not IANA names.
 */
export function canonicalZoneName(name: string): string | undefined {
  const known = canonicalNames.get(name);
  if (known) return known;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return undefined;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // Only valid names are remembered, so the cache stays as small as the zone database.
    canonicalNames.set(name, canonical);
    return canonical;
  } catch {
    return undefined;
  }
}

/**
 * A zone's offsets over one UTC day: one number when it holds all day, else the offsets before and after a
 * transition and the transition's instant (zones change offset on whole minutes, at most once a day).
 */
type DayOffsets = number | { before: number; after: number; at: number };

const OFFSET_CACHE_DAYS = 200_000;
const offsetDays = new Map<string, Map<number, DayOffsets>>();

function dayOffsets(zoneName: string, day: number): DayOffsets {
  let days = offsetDays.get(zoneName);
  if (!days) offsetDays.set(zoneName, (days = new Map()));
  let found = days.get(day);
  if (found === undefined) {
    const z = zone(zoneName);
    const start = day * DAY_MS;
    const before = z.offset(start);
    const after = z.offset(start + DAY_MS - MINUTE_MS);
    if (before === after) found = before;
    else {
      // The first minute with the new offset.
      let lo = 0;
      let hi = 1439;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (z.offset(start + mid * MINUTE_MS) === before) lo = mid + 1;
        else hi = mid;
      }
      found = { before, after, at: start + lo * MINUTE_MS };
    }
    if (days.size >= OFFSET_CACHE_DAYS) days.clear();
    days.set(day, found);
  }
  return found;
}

/** Offset from UTC in minutes of `zoneName` at the instant `ms` (luxon's, remembered per zone and UTC day). */
export function offsetMinutes(zoneName: string, ms: number): number {
  const offsets = dayOffsets(zoneName, Math.floor(ms / DAY_MS));
  if (typeof offsets === 'number') return offsets;
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS < offsets.at ? offsets.before : offsets.after;
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** `HH:mm` of every minute of a day: formatting a time is a table lookup. */
const CLOCK = Array.from({ length: 1440 }, (_, m) => pad2(Math.floor(m / 60)) + ':' + pad2(m % 60));

/** `HH:mm` on the wall clock of a place whose offset at that instant is `offset` minutes. */
export function clockTime(ms: number, offset: number): string {
  return CLOCK[(((Math.floor(ms / MINUTE_MS) + offset) % 1440) + 1440) % 1440];
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

/** The calendar date on the place's wall clock at the instant `ms`. */
export function localDate(ms: number, zoneName: string): CalendarDate {
  const local = ms + offsetMinutes(zoneName, ms) * MINUTE_MS;
  return fromEpochDay(Math.floor(local / DAY_MS));
}

/** UTC milliseconds of local noon on `date` in the zone (noon exists on every DST change day). */
export function localNoon(date: CalendarDate, zoneName: string): number {
  const utcNoon = Date.UTC(date.year, date.month - 1, date.day, 12);
  return utcNoon - offsetMinutes(zoneName, utcNoon) * MINUTE_MS;
}
