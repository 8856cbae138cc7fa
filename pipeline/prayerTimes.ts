// Prayer times for a run of local days at a place: the one entry point that both the precompute batch and the
// server's live path use, so that a stored timetable and a live answer cannot differ.
import { fromEpochDay, toEpochDay, type CalendarDate } from './calendarDate.js';
import { ESTIMATED_BIT, resolveSolarDay, type ResolvedSolarDay, type SolarEventName } from './highLatitude.js';
import { hijriDate, RAMADAN } from './hijri.js';
import { localEpochDay, offsetSeconds, roundToLocalMinute } from './localTime.js';
import type { Madhab, MethodDefinition, Prayer, TimeName } from './methods.js';
import { TIME_NAMES } from './methods.js';
import { zonedQuery } from './methodZones.js';
import type { HighLatitudeRuleName } from './solarDay.js';

export const EXTRA_NAMES = ['ishraq', 'zawalStart', 'isfirar', 'midnight', 'lastThirdStart'] as const;
export type ExtraName = (typeof EXTRA_NAMES)[number];

export interface TimetableQuery {
  latitude: number;
  longitude: number;
  timeZone: string;
  method: MethodDefinition;
  madhab: Madhab;
  /** Only the adhan fixtures set this: they name the rule they were made with. */
  highLatitudeRule?: HighLatitudeRuleName;
  /** The method's zone the place lies in (methodZones.ts): the zone's reference point and exceptions are used. */
  zone?: string;
}

export interface DayTimes {
  date: CalendarDate;
  /** UTC milliseconds of each time, on a whole minute of the local clock. */
  times: Record<TimeName, number>;
  /** Names of `times` that were estimated, in TIME_NAMES order. */
  estimated: TimeName[];
  /** UTC milliseconds, on a whole minute of the local clock; an extra whose base event does not exist is absent. */
  extras: Partial<Record<ExtraName, number>>;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * adhan computes the solar day of a UTC date. Where the zone is far from the longitude's solar time
 * (Kiribati's +14 at 157° W), local noon of `date` belongs to the solar day of the UTC date before or after.
 */
export function solarDateFor(date: CalendarDate, longitude: number, timeZone: string): CalendarDate {
  return fromEpochDay(solarEpochDayFor(toEpochDay(date), longitude, timeZone));
}

/** solarDateFor in days since 1970-01-01. */
function solarEpochDayFor(epochDay: number, longitude: number, timeZone: string): number {
  const utcNoon = epochDay * DAY_MS + DAY_MS / 2;
  const localNoon = utcNoon - offsetSeconds(timeZone, utcNoon) * SECOND_MS;
  const offsetHours = offsetSeconds(timeZone, localNoon) / 3600;
  const transitLocalHour = 12 - longitude / 15 + offsetHours;
  return epochDay - Math.floor(transitLocalHour / 24);
}

// Module-level functions rather than closures on the hot path: tsx names every closure it creates (keepNames), which
// costs more than the closure's work.
function resolvedOn(q: TimetableQuery, solarEpochDay: number, ishaInterval: number): ResolvedSolarDay {
  return resolveSolarDay({
    latitude: q.latitude,
    longitude: q.longitude,
    date: fromEpochDay(solarEpochDay),
    options: { method: q.method, madhab: q.madhab, ishaInterval },
    highLatitudeRule: q.highLatitudeRule,
  });
}

/**
 * The solar day whose transit (dhuhr) falls on the local date `epochDay`. solarDateFor's guess ignores the equation
 * of time (up to 16 minutes), so where the transit comes near local midnight (at the date line, or with a `tz` far
 * from the longitude) it is checked: a day whose transit lands on a neighbouring date is replaced by the next solar
 * day. When no transit falls on the date at all (the transit crosses midnight), the one nearer its local noon is taken.
 */
function solarDay(q: TimetableQuery, epochDay: number): ResolvedSolarDay {
  const { method } = q;
  let ishaInterval = method.ishaInterval ?? 0;
  if (method.ishaIntervalInRamadan !== undefined && hijriDate(fromEpochDay(epochDay)).month === RAMADAN) {
    ishaInterval = method.ishaIntervalInRamadan;
  }
  const guess = solarEpochDayFor(epochDay, q.longitude, q.timeZone);
  const day = resolvedOn(q, guess, ishaInterval);
  const shift = localEpochDay(day.events.dhuhr, q.timeZone) - epochDay;
  if (shift === 0) return day;
  const other = resolvedOn(q, guess - Math.sign(shift), ishaInterval);
  if (localEpochDay(other.events.dhuhr, q.timeZone) === epochDay) return other;
  const utcNoon = epochDay * DAY_MS + DAY_MS / 2;
  const noon = utcNoon - offsetSeconds(q.timeZone, utcNoon) * SECOND_MS;
  return Math.abs(other.events.dhuhr - noon) < Math.abs(day.events.dhuhr - noon) ? other : day;
}

/** Which estimated solar event makes each of the seven times estimated. */
const SOURCE_EVENT: Record<TimeName, SolarEventName> = {
  imsak: 'fajr',
  fajr: 'fajr',
  sunrise: 'sunrise',
  dhuhr: 'dhuhr',
  asr: 'asr',
  maghrib: 'maghrib',
  isha: 'isha',
};
/** SOURCE_EVENT's bit in ResolvedSolarDay.estimated, in TIME_NAMES order. */
const SOURCE_BIT: readonly number[] = TIME_NAMES.map((n) => ESTIMATED_BIT[SOURCE_EVENT[n]]);

/** The event with the method's fixed adjustment, rounded to the local minute as the method rounds that prayer. */
function adjustedMinute(q: TimetableQuery, prayer: Prayer, t: number): number {
  return roundToLocalMinute(t + (q.method.adjustments[prayer] ?? 0) * MINUTE_MS, q.timeZone, q.method.rounding?.[prayer]);
}

function dayTimes(q: TimetableQuery, date: CalendarDate, today: ResolvedSolarDay, tomorrow?: ResolvedSolarDay): DayTimes {
  const e = today.events;
  const fajr = adjustedMinute(q, 'fajr', e.fajr);
  const times: Record<TimeName, number> = {
    imsak: q.method.imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS,
    fajr,
    sunrise: adjustedMinute(q, 'sunrise', e.sunrise),
    dhuhr: adjustedMinute(q, 'dhuhr', e.dhuhr),
    asr: adjustedMinute(q, 'asr', e.asr),
    maghrib: adjustedMinute(q, 'maghrib', e.maghrib),
    isha: adjustedMinute(q, 'isha', e.isha),
  };
  const estimated: TimeName[] = [];
  if (today.estimated !== 0) for (let i = 0; i < TIME_NAMES.length; i++) if (today.estimated & SOURCE_BIT[i]) estimated.push(TIME_NAMES[i]);
  return { date, times, estimated, extras: tomorrow ? extras(q, today, tomorrow) : {} };
}

/** Extras come from the astronomical events, without the method's fixed adjustments. */
function extras(q: TimetableQuery, today: ResolvedSolarDay, tomorrow: ResolvedSolarDay): DayTimes['extras'] {
  const e = today.events;
  const estimated = today.estimated;
  const out: DayTimes['extras'] = {};
  if (!(estimated & ESTIMATED_BIT.sunrise)) out.ishraq = roundToLocalMinute(e.sunrise + 15 * MINUTE_MS, q.timeZone);
  if (!(estimated & ESTIMATED_BIT.dhuhr)) out.zawalStart = roundToLocalMinute(e.dhuhr - 5 * MINUTE_MS, q.timeZone);
  if (!(estimated & ESTIMATED_BIT.sunset)) out.isfirar = roundToLocalMinute(e.sunset - 20 * MINUTE_MS, q.timeZone);
  const nightStartEvent: SolarEventName = q.method.nightFromSunset ? 'sunset' : 'maghrib';
  if (!(estimated & ESTIMATED_BIT[nightStartEvent]) && !(tomorrow.estimated & ESTIMATED_BIT.fajr)) {
    const start = e[nightStartEvent];
    const night = tomorrow.events.fajr - start;
    out.midnight = roundToLocalMinute(start + night / 2, q.timeZone);
    out.lastThirdStart = roundToLocalMinute(start + (night * 2) / 3, q.timeZone);
  }
  return out;
}

/**
 * Times for `count` consecutive local days from `first`. With `withExtras`, each day also gets the extras,
 * which need the next day's fajr.
 */
export function computeTimetable(q: TimetableQuery, first: CalendarDate, count: number, withExtras: boolean): DayTimes[] {
  q = zonedQuery(q);
  const days: DayTimes[] = [];
  let epochDay = toEpochDay(first);
  let date = first;
  let today = solarDay(q, epochDay);
  for (let i = 0; i < count; i++) {
    const tomorrow = withExtras || i + 1 < count ? solarDay(q, epochDay + 1) : undefined;
    days.push(dayTimes(q, date, today, withExtras ? tomorrow : undefined));
    if (tomorrow) today = tomorrow;
    epochDay++;
    date = fromEpochDay(epochDay);
  }
  return days;
}

export function computeDay(q: TimetableQuery, date: CalendarDate, withExtras = true): DayTimes {
  return computeTimetable(q, date, 1, withExtras)[0];
}
