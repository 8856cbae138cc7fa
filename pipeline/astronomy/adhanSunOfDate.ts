// The sun as adhan's SolarTime sees it on one date (0h UT of the date, and of the days before and after), with the
// terms every place's hour angles need of it worked out once per date instead of once per place: the interpolation
// differences of right ascension and declination, and the sine and cosine of the declination. Each term is the very
// expression adhan's Astronomical evaluates (same operations, same order), so the instants stay bit-identical.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromEpochDay } from '../zones/calendarDate.js';

interface AdhanSolarCoordinates {
  declination: number;
  rightAscension: number;
  apparentSiderealTime: number;
}

// The ES module build of the installed adhan, the same files its PrayerTimes runs (the package exports only its
// index, so the module is loaded by path).
const esmDir = path.join(path.dirname(createRequire(import.meta.url).resolve('adhan')), '..', 'esm');
const SolarCoordinates: new (julianDay: number) => AdhanSolarCoordinates = (await import(pathToFileURL(path.join(esmDir, 'SolarCoordinates.js')).href)).default;

/** adhan's MathUtils, operation for operation. */
export const degreesToRadians = (degrees: number): number => (degrees * Math.PI) / 180.0;
export const radiansToDegrees = (radians: number): number => (radians * 180.0) / Math.PI;
export const normalizeToScale = (num: number, max: number): number => num - max * Math.floor(num / max);
export const unwindAngle = (angle: number): number => normalizeToScale(angle, 360.0);

export interface SunOfDate {
  /** Apparent sidereal time at 0h UT, degrees (adhan's Θ0). */
  readonly siderealTime: number;
  /** Right ascension at 0h UT, degrees, and the interpolation terms a + b and c of adhan's interpolateAngles. */
  readonly rightAscension: number;
  readonly rightAscensionAB: number;
  readonly rightAscensionC: number;
  /** Declination at 0h UT, degrees, and the terms a + b and c of adhan's interpolate. */
  readonly declination: number;
  readonly declinationAB: number;
  readonly declinationC: number;
  readonly sinDeclination: number;
  readonly cosDeclination: number;
}

/** adhan's Astronomical.julianDay(year, month, day, 0). */
export function julianDayOfDate(year: number, month: number, day: number): number {
  const trunc = Math.trunc;
  const Y = trunc(month > 2 ? year : year - 1);
  const M = trunc(month > 2 ? month : month + 12);
  const D = day + 0 / 24;
  const A = trunc(Y / 100);
  const B = trunc(2 - A + trunc(A / 4));
  const i0 = trunc(365.25 * (Y + 4716));
  const i1 = trunc(30.6001 * (M + 1));
  return i0 + i1 + D + B - 1524.5;
}

function newSunOfDate(julianDay: number): SunOfDate {
  const solar = new SolarCoordinates(julianDay);
  const previous = new SolarCoordinates(julianDay - 1);
  const next = new SolarCoordinates(julianDay + 1);
  // interpolateAngles(y2, y1, y3, n) = y2 + n / 2 * (a + b + n * c), with a, b unwound; interpolate without unwinding.
  const raA = unwindAngle(solar.rightAscension - previous.rightAscension);
  const raB = unwindAngle(next.rightAscension - solar.rightAscension);
  const decA = solar.declination - previous.declination;
  const decB = next.declination - solar.declination;
  return {
    siderealTime: solar.apparentSiderealTime,
    rightAscension: solar.rightAscension,
    rightAscensionAB: raA + raB,
    rightAscensionC: raB - raA,
    declination: solar.declination,
    declinationAB: decA + decB,
    declinationC: decB - decA,
    sinDeclination: Math.sin(degreesToRadians(solar.declination)),
    cosDeclination: Math.cos(degreesToRadians(solar.declination)),
  };
}

// By Julian day: the same for every place. A precompute walks the same few hundred dates for every place.
const byJulianDay = new Map<number, SunOfDate>();
const LIMIT = 4096;

// By epoch day, for the dates a precompute walks (1900–2100 and a margin): an array read, not a Map's hashing of a
// double. Each is sunOfDate(julianDayOfDate(…)) of its date.
const EPOCH_DAY_BASE = -25_567 - 400; // 1900-01-01, less a margin
const EPOCH_DAYS = 74_000;
const byEpochDay = new Array<SunOfDate | undefined>(EPOCH_DAYS).fill(undefined);

/** sunOfDate(julianDayOfDate(year, month, day)), where `epochDay` is that date's. */
export function sunOfEpochDay(epochDay: number): SunOfDate {
  const i = epochDay - EPOCH_DAY_BASE;
  if (i >= 0 && i < EPOCH_DAYS) {
    const sun = byEpochDay[i];
    if (sun !== undefined) return sun;
  }
  const { year, month, day } = fromEpochDay(epochDay);
  const sun = sunOfDate(julianDayOfDate(year, month, day));
  if (i >= 0 && i < EPOCH_DAYS) byEpochDay[i] = sun;
  return sun;
}

export function sunOfDate(julianDay: number): SunOfDate {
  let sun = byJulianDay.get(julianDay);
  if (sun === undefined) {
    if (byJulianDay.size >= LIMIT) byJulianDay.clear();
    sun = newSunOfDate(julianDay);
    byJulianDay.set(julianDay, sun);
  }
  return sun;
}
