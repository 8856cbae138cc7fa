// One day's astronomical prayer events at a point, from adhan, unrounded and without the method's fixed
// adjustments. Invalid events (the sun never reaches the altitude) are NaN here; highLatitude.ts decides
// what replaces them.
import {
  CalculationParameters,
  Coordinates,
  HighLatitudeRule,
  PolarCircleResolution,
  PrayerTimes,
  Rounding,
} from 'adhan';
import { addDays, epochDayOf, fromEpochDay, toEpochDay, type CalendarDate } from '../zones/calendarDate.js';
import { adhanTimes, DHUHR, ISHA, MAGHRIB, seasonalFajr, seasonalIsha, SUNRISE, SUNSET, twilightsReached, type AdhanParameters, type AdhanTimes } from './adhanCore.js';
import { almanacSunPosition, julianDay, sunPosition } from './sunPosition.js';
import type { Madhab, MethodDefinition } from './methods.js';

/**
 * A solar day's events, UTC milliseconds, before the method's adjustments and rounding: adhan's own fields (dhuhr is
 * the solar transit; maghrib by the method's angle or interval).
 */
export type SolarEvents = AdhanTimes;

export type HighLatitudeRuleName = (typeof HighLatitudeRule)[keyof Omit<typeof HighLatitudeRule, 'recommended'>];
export type PolarResolution = (typeof PolarCircleResolution)[keyof typeof PolarCircleResolution];

export interface SolarDayOptions {
  method: MethodDefinition;
  madhab: Madhab;
  /** Isha minutes after maghrib for this day (Umm al-Qura changes it in Ramadan). */
  ishaInterval: number;
  highLatitudeRule: HighLatitudeRuleName;
  polarResolution: PolarResolution;
  /** Angles only: no night-portion bound and no Moonsighting seasons, so an unreached angle shows as NaN. */
  pureAngles?: boolean;
  /** adhanParameters of these options, kept with them on first use (options are made once per run of days). */
  adhan?: AdhanParameters;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** adhan reads the date from local calendar fields; noon keeps them right whatever the process's zone. */
export function adhanDate(date: CalendarDate): Date {
  return new Date(date.year, date.month - 1, date.day, 12);
}

function parameters(o: SolarDayOptions): CalculationParameters {
  const m = o.method;
  const adhanMethod = m.moonsighting && !o.pureAngles ? 'MoonsightingCommittee' : 'Other';
  // adhan counts isha minutes from sunset; ours count from maghrib.
  const ishaAfterSunset = o.ishaInterval > 0 ? o.ishaInterval + (m.maghribInterval ?? 0) : 0;
  const p = new CalculationParameters(adhanMethod, m.fajrAngle, m.ishaAngle ?? 0, ishaAfterSunset, m.maghribAngle ?? 0);
  p.madhab = o.madhab;
  p.rounding = Rounding.None;
  p.highLatitudeRule = o.highLatitudeRule;
  p.polarCircleResolution = o.polarResolution;
  // adhan keeps fajr no earlier than sunrise − portion × night; an infinite portion makes that bound an
  // invalid date, which never replaces a real angle time and leaves an unreached one invalid.
  if (o.pureAngles) p.nightPortions = () => ({ fajr: Infinity, isha: Infinity });
  return p;
}

const ms = (d: Date): number => d.getTime(); // NaN for an invalid Date

const RULE_INDEX: Record<string, number> = { [HighLatitudeRule.MiddleOfTheNight]: 0, [HighLatitudeRule.SeventhOfTheNight]: 1, [HighLatitudeRule.TwilightAngle]: 2 };
const adhanParametersByMethod = new WeakMap<MethodDefinition, Map<number, AdhanParameters>>();

/** What parameters(o) gives adhan, as adhanCore takes it; one object for each method and option set. */
function adhanParameters(o: SolarDayOptions): AdhanParameters {
  if (!Number.isInteger(o.ishaInterval)) return newAdhanParameters(o);
  let byKey = adhanParametersByMethod.get(o.method);
  if (byKey === undefined) adhanParametersByMethod.set(o.method, (byKey = new Map()));
  const ruleIndex = RULE_INDEX[o.highLatitudeRule] ?? 3;
  const key = ((o.ishaInterval * 4 + ruleIndex) * 2 + (o.madhab === 'hanafi' ? 1 : 0)) * 2 + (o.pureAngles ? 1 : 0);
  let p = byKey.get(key);
  if (p === undefined) byKey.set(key, (p = newAdhanParameters(o)));
  return p;
}

/** What adhanCore is called with for these options, kept with them. */
export function adhanParametersOf(o: SolarDayOptions): AdhanParameters {
  return (o.adhan ??= adhanParameters(o));
}

function newAdhanParameters(o: SolarDayOptions): AdhanParameters {
  const m = o.method;
  const fajrAngle = m.fajrAngle;
  const ishaAngle = m.ishaAngle ?? 0;
  let fajrPortion: number;
  let ishaPortion: number;
  if (o.pureAngles) {
    fajrPortion = Infinity;
    ishaPortion = Infinity;
  } else if (o.highLatitudeRule === HighLatitudeRule.MiddleOfTheNight) {
    fajrPortion = 1 / 2;
    ishaPortion = 1 / 2;
  } else if (o.highLatitudeRule === HighLatitudeRule.SeventhOfTheNight) {
    fajrPortion = 1 / 7;
    ishaPortion = 1 / 7;
  } else {
    fajrPortion = fajrAngle / 60;
    ishaPortion = ishaAngle / 60;
  }
  return {
    method: m.moonsighting && !o.pureAngles ? 'MoonsightingCommittee' : 'Other',
    fajrAngle,
    ishaAngle,
    ishaInterval: o.ishaInterval > 0 ? o.ishaInterval + (m.maghribInterval ?? 0) : 0,
    maghribAngle: m.maghribAngle ?? 0,
    shadowLength: o.madhab === 'hanafi' ? 2 : 1,
    fajrPortion,
    ishaPortion,
    solveNearMeridian: true,
  };
}

/**
 * The date whose sun a method computes `date` with: the same month and day of its `sunYear` (a perpetual table; 29
 * February of a year without one is 1 March), then `sunDayOffset` days later; `date` itself for most methods.
 */
export function sunDateOf(method: MethodDefinition, date: CalendarDate): CalendarDate {
  const offset = method.sunDayOffset ?? 0;
  const year = method.sunYear;
  if (year === undefined) return offset === 0 ? date : addDays(date, offset);
  return fromEpochDay(epochDayOf(year, date.month, date.day) + offset);
}

export function solarEvents(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions): SolarEvents {
  const sunDate = sunDateOf(o.method, date);
  if (sunDate === date) return solarEventsOn(latitude, longitude, date, o);
  // The sun of another date, on this date's clock: every event of that day, moved back by whole days.
  const e = solarEventsOn(latitude, longitude, sunDate, o);
  const shift = (toEpochDay(sunDate) - toEpochDay(date)) * DAY_MS;
  return { fajr: e.fajr - shift, sunrise: e.sunrise - shift, dhuhr: e.dhuhr - shift, asr: e.asr - shift, sunset: e.sunset - shift, maghrib: e.maghrib - shift, isha: e.isha - shift };
}

/**
 * Whether solarEvents(latitude, longitude, date, o) with pure-angle options `o` has a finite fajr (bit 1; only asked
 * with `fajr`) and isha (bit 2; with `isha`, isha by angle), without the rest of the day where adhanCore can tell
 * (adhan's model with the polar circle unresolved: the twilight hour angles alone decide; the whole-day shift of
 * sunDayOffset and sunYear keeps a time finite or not, and the horizon, asr and maghrib changes touch neither time).
 */
export function twilightsReachedOn(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions, fajr: boolean, isha: boolean): number {
  // The fixed hours' twilights are two hour angles of two readings: not a whole day of events.
  if (o.method.solarModel === 'fixedHours' && o.pureAngles && !(o.ishaInterval !== 0 && isha) && !o.method.sunDayOffset && o.method.sunYear === undefined) {
    return fixedHourTwilightsReached(latitude, longitude, date, o.method, fajr, isha);
  }
  if (o.method.solarModel !== 'adhan' || o.polarResolution !== PolarCircleResolution.Unresolved || !o.pureAngles || (o.ishaInterval !== 0 && isha)) {
    const e = solarEvents(latitude, longitude, date, o);
    return (fajr && Number.isFinite(e.fajr) ? 1 : 0) | (isha && Number.isFinite(e.isha) ? 2 : 0);
  }
  const d = sunDateOf(o.method, date);
  return twilightsReached(latitude, longitude, d.year, d.month, d.day, adhanParametersOf(o), fajr, isha);
}

function solarEventsOn(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions): SolarEvents {
  if (o.method.solarModel === 'dailyAt0hUT') return dailySunEvents(latitude, longitude, date, o);
  if (o.method.solarModel === 'fixedHours') return fixedHourEvents(latitude, longitude, date, o);
  const maghribInterval = o.method.maghribInterval ?? 0;
  let events: SolarEvents;
  if (o.polarResolution === PolarCircleResolution.Unresolved) {
    // adhan's PrayerTimes without its Date objects, the sun's coordinates shared by all places (adhanCore.ts).
    events = adhanTimes(latitude, longitude, date.year, date.month, date.day, adhanParametersOf(o));
    events.maghrib += maghribInterval * MINUTE_MS;
  } else {
    const t = new PrayerTimes(new Coordinates(latitude, longitude), adhanDate(date), parameters(o));
    events = {
      fajr: ms(t.fajr),
      sunrise: ms(t.sunrise),
      dhuhr: ms(t.dhuhr),
      asr: ms(t.asr),
      sunset: ms(t.sunset),
      maghrib: ms(t.maghrib) + maghribInterval * MINUTE_MS,
      isha: ms(t.isha),
    };
  }
  if (o.method.asrShadowAtAsr && Number.isFinite(events.asr)) events.asr = asrWithSunAtAsr(events.asr, latitude, longitude, date, o.madhab);
  else if (lowSunPossible(latitude) && lowSunOn(latitude, toEpochDay(date))) events.asr = lowSunAsr(events.asr, events.dhuhr, latitude, longitude, date, o.madhab);
  return o.method.horizon === undefined ? events : withHorizon(events, latitude, o.method, o.ishaInterval > 0);
}

const STANDARD_HORIZON = -0.8333;

/**
 * How much earlier sunrise and later sunset are with the sun at `horizon` than at the standard −0.8333° (ms): the
 * time the sun takes between the two, from the sun's declination at transit (exact enough for seconds); 0 where
 * sunrise or sunset does not exist or the sun does not reach `horizon`.
 */
function horizonShiftMs(latitude: number, horizon: number, sunrise: number, sunset: number, dhuhr: number): number {
  if (!Number.isFinite(sunrise) || !Number.isFinite(sunset)) return 0;
  const { declination } = sunPosition(julianDay(dhuhr));
  const phi = latitude * RAD;
  const delta = declination * RAD;
  const hourAngle = (altitude: number): number =>
    (Math.acos((Math.sin(altitude * RAD) - Math.sin(phi) * Math.sin(delta)) / (Math.cos(phi) * Math.cos(delta))) / RAD) * 4;
  const shift = (hourAngle(horizon) - hourAngle(STANDARD_HORIZON)) * MINUTE_MS;
  return Number.isFinite(shift) ? shift : 0;
}

/** Sunrise and sunset at the method's horizon; maghrib by sunset, and isha by minutes, move with sunset. */
function withHorizon(e: SolarEvents, latitude: number, method: MethodDefinition, ishaFromSunset: boolean): SolarEvents {
  const shift = horizonShiftMs(latitude, method.horizon!, e.sunrise, e.sunset, e.dhuhr);
  if (shift === 0) return e;
  return { ...e, sunrise: e.sunrise - shift, sunset: e.sunset + shift, maghrib: method.maghribAngle === undefined ? e.maghrib + shift : e.maghrib, isha: ishaFromSunset ? e.isha + shift : e.isha };
}

/** withHorizon of the events in `e` from `at` (adhanCore's FAJR … ISHA), in place: the precompute's plain days. */
export function withHorizonInto(e: Float64Array, at: number, latitude: number, method: MethodDefinition, ishaFromSunset: boolean): void {
  const shift = horizonShiftMs(latitude, method.horizon!, e[at + SUNRISE], e[at + SUNSET], e[at + DHUHR]);
  if (shift === 0) return;
  e[at + SUNRISE] -= shift;
  e[at + SUNSET] += shift;
  if (method.maghribAngle === undefined) e[at + MAGHRIB] += shift;
  if (ishaFromSunset) e[at + ISHA] += shift;
}

const RAD = Math.PI / 180;

/**
 * Below this noon altitude (degrees) adhan's asr drifts from the sun's: it takes the shadow from the declination at 0h
 * UT and the hour angle from the sun's later place, and where the sun stands low the asr altitude lies so close to
 * the noon altitude that a tenth of a degree moves asr by minutes (3 at 6°, 10 at 1°, hours below: before dhuhr, or
 * a day that jumps by 20 minutes). From here to LOW_SUN_ALTITUDE_FULL, asr moves over to the sun's own.
 */
const LOW_SUN_ALTITUDE_START = 10;
const LOW_SUN_ALTITUDE_FULL = 5;

/** Whether the sun can stand lower than LOW_SUN_ALTITUDE_START at noon on some day at this latitude. */
export function lowSunPossible(latitude: number): boolean {
  return Math.abs(latitude) > 90 - 23.45 - LOW_SUN_ALTITUDE_START;
}

/**
 * Whether the sun may stand lower than LOW_SUN_ALTITUDE_START at noon on the UTC date `epochDay` (days since 1970),
 * with a degree to spare (the declination at noon UT, from the Astronomical Almanac's short formulas, lies within
 * 0.2° of the sun's at any hour of the date): the day loop asks it to keep its quick path on the other days.
 */
export function lowSunOn(latitude: number, epochDay: number): boolean {
  const { declination } = almanacSunPosition(julianDay((epochDay + 0.5) * DAY_MS));
  return 90 - Math.abs(latitude - declination) < LOW_SUN_ALTITUDE_START + 1;
}

/**
 * Asr where the sun stands low at noon: from the sun's own declination (asrWithSunAtAsr), blended in from adhan's
 * between LOW_SUN_ALTITUDE_START and LOW_SUN_ALTITUDE_FULL so that no day jumps; NaN where the sun is not above the
 * horizon at noon (no shadow grows: highLatitude.ts resolves it).
 */
export function lowSunAsr(asr: number, dhuhr: number, latitude: number, longitude: number, date: CalendarDate, madhab: Madhab): number {
  if (!Number.isFinite(dhuhr)) return asr;
  const noonAltitude = 90 - Math.abs(latitude - sunPosition(julianDay(dhuhr)).declination);
  if (noonAltitude >= LOW_SUN_ALTITUDE_START) return asr;
  if (noonAltitude <= 0) return NaN;
  const own = asrWithSunAtAsr(dhuhr, latitude, longitude, date, madhab, NaN);
  const weight = Math.min(1, (LOW_SUN_ALTITUDE_START - noonAltitude) / (LOW_SUN_ALTITUDE_START - LOW_SUN_ALTITUDE_FULL));
  return weight === 1 || !Number.isFinite(asr) ? own : asr + weight * (own - asr);
}

/**
 * Asr with the shadow's length taken from the sun's declination at the asr instant itself (adhan takes it at 0h UT
 * of the date, up to half a minute off where the declination changes fastest): from adhan's asr, the sun's
 * declination and equation of time are re-read at the instant and the hour angle solved again, three times (the
 * change from one pass to the next is then far below a second).
 */
function asrWithSunAtAsr(asr: number, latitude: number, longitude: number, date: CalendarDate, madhab: Madhab, unreached = asr): number {
  const midnightUT = Date.UTC(date.year, date.month - 1, date.day);
  const phi = latitude * RAD;
  const shadow = madhab === 'hanafi' ? 2 : 1;
  let t = asr;
  for (let i = 0; i < 3; i++) {
    const { declination, equationOfTime } = sunPosition(julianDay(t));
    const delta = declination * RAD;
    const altitude = Math.atan(1 / (shadow + Math.tan(Math.abs(phi - delta))));
    const cos = (Math.sin(altitude) - Math.sin(phi) * Math.sin(delta)) / (Math.cos(phi) * Math.cos(delta));
    if (cos < -1 || cos > 1) return unreached;
    t = midnightUT + (720 - 4 * longitude - equationOfTime + (Math.acos(cos) / RAD) * 4) * MINUTE_MS;
  }
  return t;
}

/**
 * The events with the sun's declination and equation of time taken once a day, at 0h UT of the date, and each time
 * from its hour angle. An altitude the sun does not reach gives NaN (highLatitude.ts decides what replaces it);
 * no night-portion rule applies here.
 */
function dailySunEvents(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions): SolarEvents {
  const midnightUT = Date.UTC(date.year, date.month - 1, date.day);
  const { declination, equationOfTime } = sunPosition(julianDay(midnightUT));
  const transit = midnightUT + (720 - 4 * longitude - equationOfTime) * MINUTE_MS;
  const phi = latitude * RAD;
  const delta = declination * RAD;
  /** Minutes from transit to the sun's reaching `altitude` degrees (NaN when it never does). */
  const hourAngle = (altitude: number): number => {
    const cos = (Math.sin(altitude * RAD) - Math.sin(phi) * Math.sin(delta)) / (Math.cos(phi) * Math.cos(delta));
    return cos < -1 || cos > 1 ? NaN : (Math.acos(cos) / RAD) * 4;
  };
  const shadow = o.madhab === 'hanafi' ? 2 : 1;
  const asrAltitude = Math.atan(1 / (shadow + Math.tan(Math.abs(phi - delta)))) / RAD;
  const horizon = o.method.horizon ?? STANDARD_HORIZON;
  const sunrise = transit - hourAngle(horizon) * MINUTE_MS;
  const sunset = transit + hourAngle(horizon) * MINUTE_MS;
  const m = o.method;
  const maghrib = m.maghribAngle ? transit + hourAngle(-m.maghribAngle) * MINUTE_MS : sunset;
  const ishaAfterSunset = o.ishaInterval > 0 ? o.ishaInterval + (m.maghribInterval ?? 0) : 0;
  let fajr = transit - hourAngle(-m.fajrAngle) * MINUTE_MS;
  let isha = ishaAfterSunset ? sunset + ishaAfterSunset * MINUTE_MS : transit + hourAngle(-(m.ishaAngle ?? 0)) * MINUTE_MS;
  if (!o.pureAngles && m.highLatitudeRule !== 'diyanet') {
    // The night-portion bound, as adhan's (Diyanet has its own rule, in highLatitude.ts): it moves nothing where the
    // angles are reached well inside the night, as at the authorities that use this model.
    const next = dailySunrise(latitude, longitude, addDays(date, 1), horizon);
    const night = Number.isNaN(next) ? sunrise + DAY_MS - sunset : next - sunset;
    const p = adhanParametersOf(o);
    const safeFajr = sunrise - p.fajrPortion * night;
    if (Number.isNaN(fajr) || safeFajr > fajr) fajr = safeFajr;
    const safeIsha = sunset + p.ishaPortion * night;
    if (!ishaAfterSunset && (Number.isNaN(isha) || safeIsha < isha)) isha = safeIsha;
  }
  return {
    fajr,
    sunrise,
    dhuhr: transit,
    asr: transit + hourAngle(asrAltitude) * MINUTE_MS,
    sunset,
    maghrib: maghrib + (m.maghribInterval ?? 0) * MINUTE_MS,
    isha,
  };
}

/** dailySunEvents's sunrise of a date (the sun at 0h UT of it), NaN where the sun does not rise. */
function dailySunrise(latitude: number, longitude: number, date: CalendarDate, horizon: number): number {
  const midnightUT = Date.UTC(date.year, date.month - 1, date.day);
  const { declination, equationOfTime } = sunPosition(julianDay(midnightUT));
  const delta = declination * RAD;
  const cos = (Math.sin(horizon * RAD) - Math.sin(latitude * RAD) * Math.sin(delta)) / (Math.cos(latitude * RAD) * Math.cos(delta));
  return cos < -1 || cos > 1 ? NaN : midnightUT + (720 - 4 * longitude - equationOfTime - (Math.acos(cos) / RAD) * 4) * MINUTE_MS;
}

/**
 * The hour of local mean time (from the longitude's mean midnight) at which the `fixedHours` model reads the sun for
 * each event: PrayTimes.org's first guesses (fajr 5 h, sunrise 6 h, dhuhr 12 h, asr 13 h, sunset, maghrib and isha
 * 18 h), which its calculator corrects by iterating and Moonsighting.com's service, computing once, keeps.
 */
const FIXED_HOUR = { fajr: 5, sunrise: 6, dhuhr: 12, asr: 13, sunset: 18 } as const;
/** adhan's latitude from which the Moonsighting Committee's twilight is a seventh of the night at least. */
const MOONSIGHTING_SEVENTH_LATITUDE = 55;

/**
 * The events with the sun read once for each event at its fixed hour of local mean time (FIXED_HOUR), from the
 * Astronomical Almanac's low-precision formulas, and each time from its hour angle around the transit of that same
 * reading (asr's shadow from the declination at 13 h): Moonsighting.com's timetable service (docs/authorities.md).
 * The method's twilight rules follow as in adhan: the Moonsighting Committee's seasonal fajr and isha (fajr the later
 * of its angle's and the seasonal one, isha the earlier; above 55° a seventh of the night), or the night-portion
 * bound; with `pureAngles`, the angles alone (NaN where unreached).
 */
function fixedHourEvents(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions): SolarEvents {
  const m = o.method;
  const midnightUT = Date.UTC(date.year, date.month - 1, date.day);
  // Julian day of the longitude's mean midnight: each reading is this plus its hour.
  const meanMidnight = julianDay(midnightUT) - longitude / 360;
  const sinPhi = Math.sin(latitude * RAD);
  const cosPhi = Math.cos(latitude * RAD);
  // Five readings a day (the evening's serves sunset, maghrib and isha), a sixth for tomorrow's sunrise.
  const morning = almanacSunPosition(meanMidnight + FIXED_HOUR.fajr / 24);
  const rising = almanacSunPosition(meanMidnight + FIXED_HOUR.sunrise / 24);
  const noon = almanacSunPosition(meanMidnight + FIXED_HOUR.dhuhr / 24);
  const afternoon = almanacSunPosition(meanMidnight + FIXED_HOUR.asr / 24);
  const evening = almanacSunPosition(meanMidnight + FIXED_HOUR.sunset / 24);
  const base = midnightUT - 4 * longitude * MINUTE_MS;
  const horizon = m.horizon ?? STANDARD_HORIZON;
  const sunrise = fixedHourTime(rising, horizon, -1, sinPhi, cosPhi, base);
  const sunset = fixedHourTime(evening, horizon, 1, sinPhi, cosPhi, base);
  const transit = base + (720 - noon.equationOfTime) * MINUTE_MS;
  const shadow = o.madhab === 'hanafi' ? 2 : 1;
  const asrAltitude = Math.atan(1 / (shadow + Math.tan(Math.abs(latitude - afternoon.declination) * RAD))) / RAD;
  const asr = fixedHourTime(afternoon, asrAltitude, 1, sinPhi, cosPhi, base);
  const ishaAfterSunset = o.ishaInterval > 0 ? o.ishaInterval + (m.maghribInterval ?? 0) : 0;
  let fajr = fixedHourTime(morning, -m.fajrAngle, -1, sinPhi, cosPhi, base);
  let isha = ishaAfterSunset ? sunset + ishaAfterSunset * MINUTE_MS : fixedHourTime(evening, -(m.ishaAngle ?? 0), 1, sinPhi, cosPhi, base);
  if (!o.pureAngles) {
    // adhan's bounds: the night to tomorrow's sunrise (the rest of today's 24 hours where tomorrow has none).
    const tomorrowSunrise = fixedHourTime(almanacSunPosition(meanMidnight + 1 + FIXED_HOUR.sunrise / 24), horizon, -1, sinPhi, cosPhi, base + DAY_MS);
    const night = Number.isNaN(tomorrowSunrise) ? sunrise + DAY_MS - sunset : tomorrowSunrise - sunset;
    const p = adhanParametersOf(o);
    const epochDay = midnightUT / DAY_MS;
    const seventh = m.moonsighting === true && latitude >= MOONSIGHTING_SEVENTH_LATITUDE;
    if (seventh) fajr = sunrise - night / 7;
    const safeFajr = m.moonsighting ? seasonalFajr(latitude, epochDay, sunrise) : sunrise - p.fajrPortion * night;
    if (Number.isNaN(fajr) || safeFajr > fajr) fajr = safeFajr;
    if (!ishaAfterSunset) {
      if (seventh) isha = sunset + night / 7;
      const safeIsha = m.moonsighting ? seasonalIsha(latitude, epochDay, sunset) : sunset + p.ishaPortion * night;
      if (Number.isNaN(isha) || safeIsha < isha) isha = safeIsha;
    }
  }
  let maghrib = sunset;
  if (m.maghribAngle) {
    const byAngle = fixedHourTime(evening, -m.maghribAngle, 1, sinPhi, cosPhi, base);
    if (sunset < byAngle && isha > byAngle) maghrib = byAngle;
  }
  return { fajr, sunrise, dhuhr: transit, asr, sunset, maghrib: maghrib + (m.maghribInterval ?? 0) * MINUTE_MS, isha };
}

/**
 * UTC ms at which the sun of one reading (`sun`) stands at `altitude` degrees before (`sign` −1) or after (+1) that
 * reading's transit; NaN where it never does. `base`: the date's 0h UT less 4 minutes a degree of longitude east.
 */
function fixedHourTime(sun: { declination: number; equationOfTime: number }, altitude: number, sign: number, sinPhi: number, cosPhi: number, base: number): number {
  const delta = sun.declination * RAD;
  const cos = (Math.sin(altitude * RAD) - sinPhi * Math.sin(delta)) / (cosPhi * Math.cos(delta));
  if (!(cos >= -1 && cos <= 1)) return NaN;
  return base + (720 - sun.equationOfTime + (sign * Math.acos(cos) * 4) / RAD) * MINUTE_MS;
}

/** twilightsReachedOn for `fixedHours` with pure angles: fajr's angle at its reading (bit 1), isha's at its (bit 2). */
function fixedHourTwilightsReached(latitude: number, longitude: number, date: CalendarDate, method: MethodDefinition, fajr: boolean, isha: boolean): number {
  const meanMidnight = julianDay(Date.UTC(date.year, date.month - 1, date.day)) - longitude / 360;
  const sinPhi = Math.sin(latitude * RAD);
  const cosPhi = Math.cos(latitude * RAD);
  let reached = 0;
  if (fajr && !Number.isNaN(fixedHourTime(almanacSunPosition(meanMidnight + FIXED_HOUR.fajr / 24), -method.fajrAngle, -1, sinPhi, cosPhi, 0))) reached |= 1;
  if (isha && !Number.isNaN(fixedHourTime(almanacSunPosition(meanMidnight + FIXED_HOUR.sunset / 24), -(method.ishaAngle ?? 0), 1, sinPhi, cosPhi, 0))) reached |= 2;
  return reached;
}
