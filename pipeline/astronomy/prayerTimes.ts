// Prayer times for a run of local days at a place: the one entry point that both the precompute batch and the
// server's live path use, so that a stored timetable and a live answer cannot differ.
import { AdhanPlace, adhanTimesInto, ASR, DHUHR, FAJR, ISHA, MAGHRIB, SUNRISE, SUNSET, type AdhanParameters } from './adhanCore.js';
import { fromEpochDay, toEpochDay, type CalendarDate } from '../zones/calendarDate.js';
import { ESTIMATED_BIT, keptAsTheyAre, resolveDay, resolutionRun, type ResolutionRun, type ResolvedSolarDay, type SolarEventName } from './highLatitude.js';
import { hijriDate, RAMADAN } from './hijri.js';
import { ROUND_DOWN, ROUND_NEAREST, ROUND_UP, roundedUtcMinutes, ZoneOffsets } from '../zones/localTime.js';
import type { Madhab, MethodDefinition, TimeName } from './methods.js';
import { PRAYERS, TIME_NAMES } from './methods.js';
import { zonedQuery } from './methodZones.js';
import { EVENING, monthDifference, MORNING, NOON } from './perpetualTable.js';
import { adhanParametersOf, lowSunAsr, lowSunOn, lowSunPossible, withHorizonInto, type HighLatitudeRuleName } from './solarDay.js';

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

/**
 * Longitude −180° is the meridian 180°, and is computed as such: at exactly −180° adhan's hour angles put asr a day
 * after dhuhr, so for some methods no day at all was complete (every date failed with the Umm al-Qura, Singapore and
 * Algeria methods).
 */
function onEastMeridian(q: TimetableQuery): TimetableQuery {
  return q.longitude === -180 ? { ...q, longitude: 180 } : q;
}

/** A run of days at one place: the resolution runs for the method's isha interval, and in Ramadan its other one. */
interface PlaceRun {
  q: TimetableQuery;
  /** q's coordinates as adhanCore takes them. */
  place: AdhanPlace;
  zone: ZoneOffsets;
  usual: ResolutionRun;
  ramadan?: ResolutionRun;
  /**
   * adhan's parameters when most days can skip the general path (see solarDayInto): adhan's own model, no asr or
   * whole-day change of the method's, one isha interval all year.
   */
  plain?: AdhanParameters;
  /** The sun may stand low at noon on some days: their asr is solarDay.ts's lowSunAsr, on the quick path too. */
  lowSun: boolean;
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
  const usual = resolution(q, method.ishaInterval ?? 0);
  const ramadan = method.ishaIntervalInRamadan === undefined ? undefined : resolution(q, method.ishaIntervalInRamadan);
  const plain =
    ramadan === undefined &&
    method.solarModel === 'adhan' &&
    !method.sunDayOffset &&
    method.sunYear === undefined &&
    !method.asrShadowAtAsr;
  return {
    q,
    place: new AdhanPlace(q.latitude, q.longitude),
    zone: new ZoneOffsets(q.timeZone),
    usual,
    ramadan,
    plain: plain ? adhanParametersOf(usual.dayOptions) : undefined,
    lowSun: lowSunPossible(q.latitude),
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

/** Events of a day in the loop's array: adhanCore's FAJR … ISHA from the day's offset, EVENTS numbers a day. */
const EVENTS = 7;

/**
 * solarDay(run, epochDay) into events[at + FAJR … at + ISHA], returning its estimated bits. Most days of most places
 * are taken straight from adhanCore: when the run is plain, the solar date's guess holds (its transit is on the local
 * date) and resolveDay would keep the events as they are. Any other day goes the general way, so the two cannot
 * differ (prayerTimes.test.ts compares them over many places, every method, every day of a year).
 */
function solarDayInto(run: PlaceRun, epochDay: number, events: Float64Array, at: number): number {
  const plain = run.plain;
  if (plain !== undefined) {
    const { q, zone } = run;
    const guess = solarEpochDayFor(epochDay, q.longitude, zone);
    // The plain run's angles are the method's: what adhanTimesInto says of them is resolveDay's twilightsReached.
    const reached = adhanTimesInto(events, at, run.place, guess, plain);
    // As solarEvents does where the sun stands low at noon.
    if (run.lowSun && lowSunOn(q.latitude, guess)) events[at + ASR] = lowSunAsr(events[at + ASR], events[at + DHUHR], q.latitude, q.longitude, fromEpochDay(guess), q.madhab);
    events[at + MAGHRIB] += (q.method.maghribInterval ?? 0) * MINUTE_MS;
    if (q.method.horizon !== undefined) withHorizonInto(events, at, q.latitude, q.method, plain.ishaInterval > 0);
    const { checkFajr, checkIsha } = run.usual;
    // Where a twilight may go unreached, resolveDay's own test: both reached, or the general path estimates.
    const twilightsReached = (!checkFajr || (reached & 1) !== 0) && (!checkIsha || (reached & 2) !== 0);
    if (twilightsReached && keptAsTheyAre(events, at, run.usual) && zone.localEpochDay(events[at + DHUHR]) === epochDay) return 0;
  }
  const day = solarDay(run, epochDay);
  const e = day.events;
  events[at + FAJR] = e.fajr;
  events[at + SUNRISE] = e.sunrise;
  events[at + DHUHR] = e.dhuhr;
  events[at + ASR] = e.asr;
  events[at + SUNSET] = e.sunset;
  events[at + MAGHRIB] = e.maghrib;
  events[at + ISHA] = e.isha;
  return day.estimated;
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
  /**
   * Minutes since 1970 (UTC) of each time, on a whole minute of the local clock, series s of day i at
   * `s * count + i` (SERIES_NAMES): whole numbers unless the zone's offset has seconds; milliseconds are
   * Math.round(value × 60,000). Minutes, so that the store's encoding takes them as they are.
   */
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
  /** How far a rounded instant can lie from the day's events: the largest adjustment, or the extras' 20 minutes. */
  reachMs: number;
  nightStartBit: number;
  nightFromSunset: boolean;
}

const ROUNDING_MODE = { nearest: ROUND_NEAREST, up: ROUND_UP, down: ROUND_DOWN } as const;
/** The event of each prayer, PRAYERS order. */
const PRAYER_EVENTS = Uint8Array.of(FAJR, SUNRISE, DHUHR, ASR, MAGHRIB, ISHA);

/** Run constants by method, worked out once: a live request's run is one to 31 days, and they showed in its profile. */
const constantsOf = new WeakMap<MethodDefinition, RunConstants>();

function runConstants(method: MethodDefinition): RunConstants {
  let k = constantsOf.get(method);
  if (k === undefined) {
    k = workedOutConstants(method);
    constantsOf.set(method, k);
  }
  return k;
}

function workedOutConstants(method: MethodDefinition): RunConstants {
  const adjustmentMs = Float64Array.from(PRAYERS, (p) => (method.adjustments[p] ?? 0) * MINUTE_MS);
  return {
    adjustmentMs,
    rounding: Uint8Array.from(PRAYERS, (p) => ROUNDING_MODE[method.rounding?.[p] ?? 'nearest']),
    reachMs: Math.max(20 * MINUTE_MS, ...adjustmentMs.map(Math.abs)),
    nightStartBit: method.nightFromSunset ? ESTIMATED_BIT.sunset : ESTIMATED_BIT.maghrib,
    nightFromSunset: method.nightFromSunset === true,
  };
}

/**
 * `at` rounded to the local minute as `mode` says, in UTC minutes: at the day's offset (`dayOffset` ms, its minutes
 * `dayOffsetMinutes`), or, on a day the clocks change (`dayOffset` NaN), at the offset at `at`.
 */
function minuteAt(zone: ZoneOffsets, at: number, mode: number, dayOffset: number, dayOffsetMinutes: number): number {
  if (dayOffset === dayOffset) return roundedUtcMinutes(at, mode, dayOffset, dayOffsetMinutes);
  const offset = zone.offsetMs(at);
  return roundedUtcMinutes(at, mode, offset, offset / MINUTE_MS);
}

/**
 * The offset (ms) in force from the day's first rounded instant to its last (its events widened by the adjustments
 * and extras' reach, to the next fajr with `tomorrow`), or NaN on a day the clocks change.
 */
function offsetOfDay(k: RunConstants, zone: ZoneOffsets, e: Float64Array, t: number, tomorrow: number): number {
  let first = e[t];
  let last = tomorrow >= 0 ? e[tomorrow + FAJR] : first;
  for (let n = 1; n < EVENTS; n++) {
    first = Math.min(first, e[t + n]);
    last = Math.max(last, e[t + n]);
  }
  return zone.offsetThroughout(first - k.reachMs, last + k.reachMs);
}

/**
 * Day i of the run into the series: the prayers and the estimated bits from the events at `t` in `e` (estimated:
 * their bits), and with `tomorrow` (the next day's offset in `e`; -1 for none) the extras. Each instant is rounded to
 * the local minute at the zone's offset at that instant; on all but the days the clocks change, one offset holds from
 * the day's first instant to its last and is looked up once, and where every offset of the run is a whole number of
 * minutes (`wholeMinutes`), none is: a local minute is then a UTC minute.
 */
function putDay(out: DaySeries, i: number, k: RunConstants, zone: ZoneOffsets, wholeMinutes: boolean, e: Float64Array, t: number, estimated: number, tomorrow: number, tomorrowEstimated: number): void {
  const { values, count } = out;
  const dayOffset = wholeMinutes ? 0 : offsetOfDay(k, zone, e, t, tomorrow);
  const dayOffsetMinutes = dayOffset / MINUTE_MS;
  const { adjustmentMs, rounding } = k;
  for (let p = 0; p < PRAYER_COUNT; p++) {
    values[p * count + i] = minuteAt(zone, e[t + PRAYER_EVENTS[p]] + adjustmentMs[p], rounding[p], dayOffset, dayOffsetMinutes);
  }
  out.estimated[i] = ESTIMATED_TIME_BITS[estimated];
  let extras = 0;
  // Extras come from the astronomical events, without the method's fixed adjustments.
  if (tomorrow >= 0) {
    if (!(estimated & ESTIMATED_BIT.sunrise)) {
      values[6 * count + i] = minuteAt(zone, e[t + SUNRISE] + 15 * MINUTE_MS, ROUND_NEAREST, dayOffset, dayOffsetMinutes);
      extras |= 1;
    }
    if (!(estimated & ESTIMATED_BIT.dhuhr)) {
      values[7 * count + i] = minuteAt(zone, e[t + DHUHR] - 5 * MINUTE_MS, ROUND_NEAREST, dayOffset, dayOffsetMinutes);
      extras |= 2;
    }
    if (!(estimated & ESTIMATED_BIT.sunset)) {
      values[8 * count + i] = minuteAt(zone, e[t + SUNSET] - 20 * MINUTE_MS, ROUND_NEAREST, dayOffset, dayOffsetMinutes);
      extras |= 4;
    }
    if (!(estimated & k.nightStartBit) && !(tomorrowEstimated & ESTIMATED_BIT.fajr)) {
      const start = k.nightFromSunset ? e[t + SUNSET] : e[t + MAGHRIB];
      const night = e[tomorrow + FAJR] - start;
      values[9 * count + i] = minuteAt(zone, start + night / 2, ROUND_NEAREST, dayOffset, dayOffsetMinutes);
      values[10 * count + i] = minuteAt(zone, start + (night * 2) / 3, ROUND_NEAREST, dayOffset, dayOffsetMinutes);
      extras |= 8 | 16;
    }
  }
  out.extras[i] = extras;
}

export interface SeriesOptions {
  /** False takes every day the general way (solarDayInto), for the test that holds the two to the same values. */
  plainDays?: boolean;
  /** A series of as many days to write into instead of new arrays (the precompute's workers reuse one). */
  reuse?: DaySeries;
}

/** computeSeries's events of two days: one array per thread, written anew by each run. */
const EVENTS_SCRATCH = new Float64Array(2 * EVENTS);

/**
 * Times for `count` consecutive local days from `first`, as series. With `withExtras`, each day also gets the extras,
 * which need the next day's fajr.
 */
export function computeSeries(q: TimetableQuery, first: CalendarDate, count: number, withExtras: boolean, options: SeriesOptions = {}): DaySeries {
  if (q.zone !== undefined) {
    const zone = q.method.zones?.find((z) => z.code === q.zone);
    if (zone?.monthlyDifferences) {
      const base = computeSeries({ ...zonedQuery(q), zone: undefined }, first, count, withExtras, options);
      return withMonthlyDifferences(base, q.latitude, q.longitude, zone.latitude, zone.longitude);
    }
  }
  q = onEastMeridian(zonedQuery(q));
  const reuse = options.reuse?.count === count ? options.reuse : undefined;
  // Every day's prayers, flags and extras bits are written below; an absent extra must read NaN.
  const out: DaySeries = reuse
    ? Object.assign(reuse, { first, values: reuse.values.fill(NaN) })
    : { first, count, values: new Float64Array(SERIES_COUNT * count).fill(NaN), estimated: new Uint8Array(count), extras: new Uint8Array(count) };
  const k = runConstants(q.method);
  const run = placeRun(q);
  if (options.plainDays === false) run.plain = undefined;
  // Today's and tomorrow's events, taking turns at offsets 0 and EVENTS: no object per day, and no new array per
  // run (a serving thread computes one for every request about a new point; nothing here runs two at once).
  const events = EVENTS_SCRATCH.fill(0);
  let epochDay = toEpochDay(first);
  // The run's instants lie between the day before its first and the day after its last (the extras' next fajr).
  const wholeMinutes = run.zone.wholeMinutesThroughout((epochDay - 2) * DAY_MS, (epochDay + count + 2) * DAY_MS);
  let today = 0;
  let todayEstimated = solarDayInto(run, epochDay, events, today);
  for (let i = 0; i < count; i++) {
    const tomorrow = EVENTS - today;
    const tomorrowEstimated = withExtras || i + 1 < count ? solarDayInto(run, epochDay + 1, events, tomorrow) : 0;
    putDay(out, i, k, run.zone, wholeMinutes, events, today, todayEstimated, withExtras ? tomorrow : -1, tomorrowEstimated);
    today = tomorrow;
    todayEstimated = tomorrowEstimated;
    epochDay++;
  }
  return out;
}

/**
 * A perpetual takvim's place (a zone with `monthlyDifferences`): the base point's series, each day moved by the
 * place's whole-minute differences for the day's month (perpetualTable.ts): fajr, sunrise and ishraq by the morning's,
 * dhuhr and the zawal by the noon's, asr, maghrib, isha and isfirar by the evening's; the middle and last third of the
 * night, which run from maghrib to the next fajr, by the nearest whole minute of their share of each.
 */
function withMonthlyDifferences(series: DaySeries, latitude: number, longitude: number, baseLatitude: number, baseLongitude: number): DaySeries {
  const { values, count } = series;
  const firstDay = toEpochDay(series.first);
  // The differences change on the first of a month: worked out there (and on the first day), not per day.
  let nextMonth = firstDay;
  let morning = 0;
  let noon = 0;
  let evening = 0;
  for (let i = 0; i < count; i++) {
    if (firstDay + i === nextMonth) {
      const { year, month } = fromEpochDay(nextMonth);
      morning = monthDifference(latitude, longitude, baseLatitude, baseLongitude, year, month, MORNING);
      noon = monthDifference(latitude, longitude, baseLatitude, baseLongitude, year, month, NOON);
      evening = monthDifference(latitude, longitude, baseLatitude, baseLongitude, year, month, EVENING);
      nextMonth = toEpochDay(month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 });
    }
    // SERIES_NAMES order: fajr, sunrise, dhuhr, asr, maghrib, isha, ishraq, zawalStart, isfirar, midnight, lastThirdStart.
    values[i] += morning;
    values[count + i] += morning;
    values[2 * count + i] += noon;
    values[3 * count + i] += evening;
    values[4 * count + i] += evening;
    values[5 * count + i] += evening;
    values[6 * count + i] += morning;
    values[7 * count + i] += noon;
    values[8 * count + i] += evening;
    values[9 * count + i] += Math.round((evening + morning) / 2);
    values[10 * count + i] += Math.round((evening + 2 * morning) / 3);
  }
  return series;
}

/** The series' days as DayTimes; imsak from fajr as the method (a zone's, for a zoned query) gives it. */
export function seriesDays(series: DaySeries, imsakIsFajr: boolean): DayTimes[] {
  const { values, count } = series;
  const days: DayTimes[] = [];
  const firstDay = toEpochDay(series.first);
  const ms = (minutes: number): number => Math.round(minutes * MINUTE_MS);
  for (let i = 0; i < count; i++) {
    const fajr = ms(values[i]);
    const times: Record<TimeName, number> = {
      imsak: imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS,
      fajr,
      sunrise: ms(values[count + i]),
      dhuhr: ms(values[2 * count + i]),
      asr: ms(values[3 * count + i]),
      maghrib: ms(values[4 * count + i]),
      isha: ms(values[5 * count + i]),
    };
    const estimatedBits = series.estimated[i];
    const estimated: TimeName[] = [];
    if (estimatedBits !== 0) for (let b = 0; b < TIME_NAMES.length; b++) if (estimatedBits & (1 << b)) estimated.push(TIME_NAMES[b]);
    const extrasBits = series.extras[i];
    const extras: DayTimes['extras'] = {};
    if (extrasBits !== 0) for (let b = 0; b < EXTRA_NAMES.length; b++) if (extrasBits & (1 << b)) extras[EXTRA_NAMES[b]] = ms(values[(PRAYER_COUNT + b) * count + i]);
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
