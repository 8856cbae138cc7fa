// Prayer times for a run of local days at a place: the one entry point that both the precompute batch and the
// server's live path use, so that a stored timetable and a live answer cannot differ.
import { fromEpochDay, toEpochDay, type CalendarDate } from './calendarDate.js';
import { ESTIMATED_BIT, resolveDay, resolutionRun, type ResolutionRun, type ResolvedSolarDay, type SolarEventName } from './highLatitude.js';
import { hijriDate, RAMADAN } from './hijri.js';
import { ROUND_DOWN, ROUND_NEAREST, ROUND_UP, ZoneOffsets } from './localTime.js';
import type { Madhab, MethodDefinition, TimeName } from './methods.js';
import { PRAYERS, TIME_NAMES } from './methods.js';
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
  return fromEpochDay(solarEpochDayFor(toEpochDay(date), longitude, new ZoneOffsets(timeZone)));
}

/** solarDateFor in days since 1970-01-01. */
function solarEpochDayFor(epochDay: number, longitude: number, zone: ZoneOffsets): number {
  const utcNoon = epochDay * DAY_MS + DAY_MS / 2;
  const localNoon = utcNoon - zone.offsetMs(utcNoon);
  const offsetHours = zone.offsetMs(localNoon) / SECOND_MS / 3600;
  const transitLocalHour = 12 - longitude / 15 + offsetHours;
  return epochDay - Math.floor(transitLocalHour / 24);
}

/** A run of days at one place: the resolution runs for the method's isha interval, and in Ramadan its other one. */
interface PlaceRun {
  q: TimetableQuery;
  zone: ZoneOffsets;
  usual: ResolutionRun;
  ramadan?: ResolutionRun;
}

function resolution(q: TimetableQuery, ishaInterval: number): ResolutionRun {
  return resolutionRun({
    latitude: q.latitude,
    longitude: q.longitude,
    options: { method: q.method, madhab: q.madhab, ishaInterval },
    highLatitudeRule: q.highLatitudeRule,
  });
}

function placeRun(q: TimetableQuery): PlaceRun {
  const { method } = q;
  return {
    q,
    zone: new ZoneOffsets(q.timeZone),
    usual: resolution(q, method.ishaInterval ?? 0),
    ramadan: method.ishaIntervalInRamadan === undefined ? undefined : resolution(q, method.ishaIntervalInRamadan),
  };
}

/**
 * The solar day whose transit (dhuhr) falls on the local date `epochDay`. solarDateFor's guess ignores the equation
 * of time (up to 16 minutes), so where the transit comes near local midnight (at the date line, or with a `tz` far
 * from the longitude) it is checked: a day whose transit lands on a neighbouring date is replaced by the next solar
 * day. When no transit falls on the date at all (the transit crosses midnight), the one nearer its local noon is taken.
 */
function solarDay(run: PlaceRun, epochDay: number): ResolvedSolarDay {
  const { q, zone } = run;
  // Umm al-Qura's isha interval is longer in Ramadan.
  const resolution = run.ramadan !== undefined && hijriDate(fromEpochDay(epochDay)).month === RAMADAN ? run.ramadan : run.usual;
  const guess = solarEpochDayFor(epochDay, q.longitude, zone);
  const day = resolveDay(resolution, fromEpochDay(guess));
  const shift = zone.localEpochDay(day.events.dhuhr) - epochDay;
  if (shift === 0) return day;
  const other = resolveDay(resolution, fromEpochDay(guess - Math.sign(shift)));
  if (zone.localEpochDay(other.events.dhuhr) === epochDay) return other;
  const utcNoon = epochDay * DAY_MS + DAY_MS / 2;
  const noon = utcNoon - zone.offsetMs(utcNoon);
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

/**
 * The stored series of a day, in this order: the six prayers (imsak follows from fajr), then the extras. A run of days
 * is kept series by series in one Float64Array, as the store encodes it.
 */
export const SERIES_NAMES = [...PRAYERS, ...EXTRA_NAMES] as const;
const PRAYER_COUNT = PRAYERS.length;
const SERIES_COUNT = SERIES_NAMES.length;

/** A run of consecutive local days as numbers: no object per day (a precompute makes hundreds of millions). */
export interface DaySeries {
  first: CalendarDate;
  count: number;
  /** UTC milliseconds, on a whole minute of the local clock: series s of day i at `s * count + i` (SERIES_NAMES). */
  values: Float64Array;
  /** Per day, a bit per TIME_NAMES index for each estimated time. */
  estimated: Uint8Array;
  /** Per day, a bit per EXTRA_NAMES index for each extra that exists (an absent extra's value is NaN). */
  extras: Uint8Array;
}

/** ResolvedSolarDay.estimated (solar events) as the bits of the estimated times, TIME_NAMES order. */
function estimatedTimeBits(estimatedEvents: number): number {
  let bits = 0;
  for (let i = 0; i < TIME_NAMES.length; i++) if (estimatedEvents & ESTIMATED_BIT[SOURCE_EVENT[TIME_NAMES[i]]]) bits |= 1 << i;
  return bits;
}
/** estimatedTimeBits of every combination of the seven event bits, looked up rather than worked out per day. */
const ESTIMATED_TIME_BITS = Uint8Array.from({ length: 128 }, (_, events) => estimatedTimeBits(events));

/** What a run's days share, worked out once per run: the method's adjustments and rounding per prayer. */
interface RunConstants {
  adjustmentMs: Float64Array;
  /** ROUND_NEAREST, ROUND_UP or ROUND_DOWN per prayer. */
  rounding: Uint8Array;
  nightStartBit: number;
  nightFromSunset: boolean;
}

const ROUNDING_MODE = { nearest: ROUND_NEAREST, up: ROUND_UP, down: ROUND_DOWN } as const;

function runConstants(method: MethodDefinition): RunConstants {
  return {
    adjustmentMs: Float64Array.from(PRAYERS, (p) => (method.adjustments[p] ?? 0) * MINUTE_MS),
    rounding: Uint8Array.from(PRAYERS, (p) => ROUNDING_MODE[method.rounding?.[p] ?? 'nearest']),
    nightStartBit: method.nightFromSunset ? ESTIMATED_BIT.sunset : ESTIMATED_BIT.maghrib,
    nightFromSunset: method.nightFromSunset === true,
  };
}

/** A prayer's event with the method's fixed adjustment, rounded to the local minute as the method rounds it. */
function adjustedMinute(k: RunConstants, zone: ZoneOffsets, prayer: number, t: number): number {
  return zone.roundToMinute(t + k.adjustmentMs[prayer], k.rounding[prayer]);
}

/** Day i of the run into the series: the prayers, the estimated bits, and with `tomorrow` the extras. */
function putDay(out: DaySeries, i: number, k: RunConstants, zone: ZoneOffsets, today: ResolvedSolarDay, tomorrow?: ResolvedSolarDay): void {
  const { values, count } = out;
  const e = today.events;
  values[i] = adjustedMinute(k, zone, 0, e.fajr);
  values[count + i] = adjustedMinute(k, zone, 1, e.sunrise);
  values[2 * count + i] = adjustedMinute(k, zone, 2, e.dhuhr);
  values[3 * count + i] = adjustedMinute(k, zone, 3, e.asr);
  values[4 * count + i] = adjustedMinute(k, zone, 4, e.maghrib);
  values[5 * count + i] = adjustedMinute(k, zone, 5, e.isha);
  const estimated = today.estimated;
  out.estimated[i] = ESTIMATED_TIME_BITS[estimated];
  let extras = 0;
  // Extras come from the astronomical events, without the method's fixed adjustments.
  if (tomorrow !== undefined) {
    if (!(estimated & ESTIMATED_BIT.sunrise)) {
      values[6 * count + i] = zone.roundToMinute(e.sunrise + 15 * MINUTE_MS);
      extras |= 1;
    }
    if (!(estimated & ESTIMATED_BIT.dhuhr)) {
      values[7 * count + i] = zone.roundToMinute(e.dhuhr - 5 * MINUTE_MS);
      extras |= 2;
    }
    if (!(estimated & ESTIMATED_BIT.sunset)) {
      values[8 * count + i] = zone.roundToMinute(e.sunset - 20 * MINUTE_MS);
      extras |= 4;
    }
    if (!(estimated & k.nightStartBit) && !(tomorrow.estimated & ESTIMATED_BIT.fajr)) {
      const start = k.nightFromSunset ? e.sunset : e.maghrib;
      const night = tomorrow.events.fajr - start;
      values[9 * count + i] = zone.roundToMinute(start + night / 2);
      values[10 * count + i] = zone.roundToMinute(start + (night * 2) / 3);
      extras |= 8 | 16;
    }
  }
  out.extras[i] = extras;
}

/**
 * Times for `count` consecutive local days from `first`, as series. With `withExtras`, each day also gets the extras,
 * which need the next day's fajr.
 */
export function computeSeries(q: TimetableQuery, first: CalendarDate, count: number, withExtras: boolean): DaySeries {
  q = zonedQuery(q);
  const out: DaySeries = {
    first,
    count,
    values: new Float64Array(SERIES_COUNT * count).fill(NaN),
    estimated: new Uint8Array(count),
    extras: new Uint8Array(count),
  };
  const k = runConstants(q.method);
  const run = placeRun(q);
  let epochDay = toEpochDay(first);
  let today = solarDay(run, epochDay);
  for (let i = 0; i < count; i++) {
    const tomorrow = withExtras || i + 1 < count ? solarDay(run, epochDay + 1) : undefined;
    putDay(out, i, k, run.zone, today, withExtras ? tomorrow : undefined);
    if (tomorrow) today = tomorrow;
    epochDay++;
  }
  return out;
}

/** The series' days as DayTimes; imsak from fajr as the method (a zone's, for a zoned query) gives it. */
export function seriesDays(series: DaySeries, imsakIsFajr: boolean): DayTimes[] {
  const { values, count } = series;
  const days: DayTimes[] = [];
  const firstDay = toEpochDay(series.first);
  for (let i = 0; i < count; i++) {
    const fajr = values[i];
    const times: Record<TimeName, number> = {
      imsak: imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS,
      fajr,
      sunrise: values[count + i],
      dhuhr: values[2 * count + i],
      asr: values[3 * count + i],
      maghrib: values[4 * count + i],
      isha: values[5 * count + i],
    };
    const estimatedBits = series.estimated[i];
    const estimated: TimeName[] = [];
    if (estimatedBits !== 0) for (let b = 0; b < TIME_NAMES.length; b++) if (estimatedBits & (1 << b)) estimated.push(TIME_NAMES[b]);
    const extrasBits = series.extras[i];
    const extras: DayTimes['extras'] = {};
    if (extrasBits !== 0) for (let b = 0; b < EXTRA_NAMES.length; b++) if (extrasBits & (1 << b)) extras[EXTRA_NAMES[b]] = values[(PRAYER_COUNT + b) * count + i];
    days.push({ date: fromEpochDay(firstDay + i), times, estimated, extras });
  }
  return days;
}

/**
 * Times for `count` consecutive local days from `first`. With `withExtras`, each day also gets the extras,
 * which need the next day's fajr.
 */
export function computeTimetable(q: TimetableQuery, first: CalendarDate, count: number, withExtras: boolean): DayTimes[] {
  return seriesDays(computeSeries(q, first, count, withExtras), zonedQuery(q).method.imsakIsFajr === true);
}

export function computeDay(q: TimetableQuery, date: CalendarDate, withExtras = true): DayTimes {
  return computeTimetable(q, date, 1, withExtras)[0];
}
