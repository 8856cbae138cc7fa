// adhan's PrayerTimes (adhan 4.4.6, rounding None, no adjustments, polar circle unresolved) without its Date objects,
// with the sun's coordinates of each date computed once for all places and a place's solar day reused for the next
// day's "tomorrow". The astronomy is adhan's own code (its SolarCoordinates and Astronomical modules, loaded from
// the installed package), only the glue of PrayerTimes and SolarTime is written out here, operation for operation:
// the instants are bit-identical to `new PrayerTimes(…)`'s, which adhanCore.test.ts checks over many places, dates
// and parameters. Dates become numbers with the same clipping a Date applies (TimeClip: whole milliseconds,
// truncated towards zero; NaN for an invalid instant).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface AdhanSolarCoordinates {
  declination: number;
  rightAscension: number;
  apparentSiderealTime: number;
}
interface AdhanCoordinates {
  latitude: number;
  longitude: number;
}

// The ES module build of the installed adhan, the same files its PrayerTimes runs (the package exports only its
// index, so the modules are loaded by path).
const esmDir = path.join(path.dirname(createRequire(import.meta.url).resolve('adhan')), '..', 'esm');
const load = async (file: string) => (await import(pathToFileURL(path.join(esmDir, file)).href)).default;
/* eslint-disable @typescript-eslint/no-explicit-any */
const SolarCoordinates: new (julianDay: number) => AdhanSolarCoordinates = await load('SolarCoordinates.js');
const Astronomical: any = await load('Astronomical.js');
const { dayOfYear } = (await import(pathToFileURL(path.join(esmDir, 'DateUtils.js')).href)) as { dayOfYear: (d: Date) => number };
/* eslint-enable @typescript-eslint/no-explicit-any */

const degreesToRadians = (degrees: number): number => (degrees * Math.PI) / 180.0;
const radiansToDegrees = (radians: number): number => (radians * 180.0) / Math.PI;

/** What `new Date(ms).getTime()` gives: TimeClip. */
function clip(ms: number): number {
  if (!(Math.abs(ms) <= 8.64e15)) return NaN;
  return Math.trunc(ms) + 0;
}

/** TimeComponents(num).utcDate(year, month0, day).getTime(). */
function utcDate(num: number, year: number, month0: number, day: number): number {
  const hours = Math.floor(num);
  const minutes = Math.floor((num - hours) * 60);
  const seconds = Math.floor((num - (hours + minutes / 60)) * 60 * 60);
  return Date.UTC(year, month0, day, hours, minutes, seconds);
}

/** dateByAddingSeconds(date, seconds).getTime(). */
const addSeconds = (ms: number, seconds: number): number => clip(ms + seconds * 1000);

// The sun's coordinates by Julian day: the same for every place.
const solarByDay = new Map<number, AdhanSolarCoordinates>();
function solarCoordinates(julianDay: number): AdhanSolarCoordinates {
  let s = solarByDay.get(julianDay);
  if (s === undefined) {
    if (solarByDay.size >= 4096) solarByDay.clear();
    s = new SolarCoordinates(julianDay);
    solarByDay.set(julianDay, s);
  }
  return s;
}

/** adhan's SolarTime for a date (its local calendar fields) and a place. */
class SolarTime {
  readonly observer: AdhanCoordinates;
  readonly solar: AdhanSolarCoordinates;
  readonly prevSolar: AdhanSolarCoordinates;
  readonly nextSolar: AdhanSolarCoordinates;
  readonly approxTransit: number;
  readonly transit: number;
  readonly sunrise: number;
  readonly sunset: number;

  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
    latitude: number,
    longitude: number,
  ) {
    const julianDay = Astronomical.julianDay(year, month, day, 0);
    const coordinates = { latitude, longitude };
    this.observer = coordinates;
    this.solar = solarCoordinates(julianDay);
    this.prevSolar = solarCoordinates(julianDay - 1);
    this.nextSolar = solarCoordinates(julianDay + 1);
    const m0 = Astronomical.approximateTransit(coordinates.longitude, this.solar.apparentSiderealTime, this.solar.rightAscension);
    const solarAltitude = -50.0 / 60.0;
    this.approxTransit = m0;
    this.transit = Astronomical.correctedTransit(m0, coordinates.longitude, this.solar.apparentSiderealTime, this.solar.rightAscension, this.prevSolar.rightAscension, this.nextSolar.rightAscension);
    this.sunrise = this.hourAngle(solarAltitude, false);
    this.sunset = this.hourAngle(solarAltitude, true);
  }

  hourAngle(angle: number, afterTransit: boolean): number {
    return Astronomical.correctedHourAngle(
      this.approxTransit,
      angle,
      this.observer,
      afterTransit,
      this.solar.apparentSiderealTime,
      this.solar.rightAscension,
      this.prevSolar.rightAscension,
      this.nextSolar.rightAscension,
      this.solar.declination,
      this.prevSolar.declination,
      this.nextSolar.declination,
    );
  }

  afternoon(shadowLength: number): number {
    const tangent = Math.abs(this.observer.latitude - this.solar.declination);
    const inverse = shadowLength + Math.tan(degreesToRadians(tangent));
    const angle = radiansToDegrees(Math.atan(1.0 / inverse));
    return this.hourAngle(angle, true);
  }
}

// The last few solar days computed (a place's today is its yesterday's tomorrow; a day is often computed twice, with
// and without the night-portion bound).
const RECENT = 8;
const recent: (SolarTime | undefined)[] = new Array(RECENT);
let recentNext = 0;
function solarTime(year: number, month: number, day: number, latitude: number, longitude: number): SolarTime {
  for (let i = 0; i < RECENT; i++) {
    const s = recent[i];
    if (s !== undefined && s.day === day && s.month === month && s.year === year && s.observer.latitude === latitude && s.observer.longitude === longitude) return s;
  }
  const s = new SolarTime(year, month, day, latitude, longitude);
  recent[recentNext] = s;
  recentNext = (recentNext + 1) % RECENT;
  return s;
}

export interface AdhanParameters {
  /** 'MoonsightingCommittee' or anything else. */
  method: string;
  fajrAngle: number;
  ishaAngle: number;
  /** Minutes after sunset; 0 for isha by angle. */
  ishaInterval: number;
  maghribAngle: number;
  /** 1 (shafi) or 2 (hanafi). */
  shadowLength: number;
  /** The night portions of the high-latitude rule. */
  fajrPortion: number;
  ishaPortion: number;
}

/** UTC milliseconds (NaN where adhan's Date is invalid), as adhan's PrayerTimes with `Rounding.None`. */
export interface AdhanTimes {
  fajr: number;
  sunrise: number;
  dhuhr: number;
  asr: number;
  sunset: number;
  maghrib: number;
  isha: number;
}

const HIGH_LATITUDE_THRESHOLD = 55;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function nextDate(year: number, month: number, day: number): [number, number, number] {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const last = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (day < last) return [year, month, day + 1];
  return month === 12 ? [year + 1, 1, 1] : [year, month + 1, 1];
}

/** `new PrayerTimes(new Coordinates(latitude, longitude), <local noon of year-month-day>, parameters)`, as numbers. */
export function adhanTimes(latitude: number, longitude: number, year: number, month: number, day: number, p: AdhanParameters): AdhanTimes {
  const m0 = month - 1;
  const solar = solarTime(year, month, day, latitude, longitude);
  const dhuhrTime = utcDate(solar.transit, year, m0, day);
  const sunriseTime = utcDate(solar.sunrise, year, m0, day);
  const sunsetTime = utcDate(solar.sunset, year, m0, day);
  const [ty, tm, td] = nextDate(year, month, day);
  const tomorrow = solarTime(ty, tm, td, latitude, longitude);
  const asrTime = utcDate(solar.afternoon(p.shadowLength), year, m0, day);
  const tomorrowSunrise = utcDate(tomorrow.sunrise, ty, tm - 1, td);
  const night = (tomorrowSunrise - sunsetTime) / 1000;
  let fajrTime = utcDate(solar.hourAngle(-1 * p.fajrAngle, false), year, m0, day);
  const moonsighting = p.method === 'MoonsightingCommittee';
  if (moonsighting && latitude >= HIGH_LATITUDE_THRESHOLD) fajrTime = addSeconds(sunriseTime, -(night / 7));
  let safeFajr: number;
  if (moonsighting) {
    safeFajr = Astronomical.seasonAdjustedMorningTwilight(latitude, dayOfYear(new Date(year, m0, day, 12)), year, new Date(sunriseTime)).getTime();
  } else {
    safeFajr = addSeconds(sunriseTime, -(p.fajrPortion * night));
  }
  if (Number.isNaN(fajrTime) || safeFajr > fajrTime) fajrTime = safeFajr;
  let ishaTime: number;
  if (p.ishaInterval > 0) {
    ishaTime = addSeconds(sunsetTime, p.ishaInterval * 60);
  } else {
    ishaTime = utcDate(solar.hourAngle(-1 * p.ishaAngle, true), year, m0, day);
    if (moonsighting && latitude >= HIGH_LATITUDE_THRESHOLD) ishaTime = addSeconds(sunsetTime, night / 7);
    let safeIsha: number;
    if (moonsighting) {
      safeIsha = Astronomical.seasonAdjustedEveningTwilight(latitude, dayOfYear(new Date(year, m0, day, 12)), year, new Date(sunsetTime), 'general').getTime();
    } else {
      safeIsha = addSeconds(sunsetTime, p.ishaPortion * night);
    }
    if (Number.isNaN(ishaTime) || safeIsha < ishaTime) ishaTime = safeIsha;
  }
  let maghribTime = sunsetTime;
  if (p.maghribAngle) {
    const angleBasedMaghrib = utcDate(solar.hourAngle(-1 * p.maghribAngle, true), year, m0, day);
    if (sunsetTime < angleBasedMaghrib && ishaTime > angleBasedMaghrib) maghribTime = angleBasedMaghrib;
  }
  return { fajr: fajrTime, sunrise: sunriseTime, dhuhr: dhuhrTime, asr: asrTime, sunset: sunsetTime, maghrib: maghribTime, isha: ishaTime };
}
