// adhan's PrayerTimes (adhan 4.4.6, rounding None, no adjustments, polar circle unresolved) without its Date objects,
// with the sun of each date worked out once for all places (adhanSunOfDate.ts), a place's sine and cosine of latitude
// once per solar day, and a place's solar day reused for the next day's "tomorrow". The astronomy is adhan's own
// (its SolarCoordinates; its Astronomical's transit and hour-angle formulas written out here expression for
// expression, the per-date and per-place factors computed once): the instants are bit-identical to
// `new PrayerTimes(…)`'s, which adhanCore.test.ts checks over many places, dates and parameters. Dates become numbers
// with the same clipping a Date applies (TimeClip: whole milliseconds, truncated towards zero; NaN for an invalid
// instant).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { degreesToRadians, normalizeToScale, radiansToDegrees, sunOfEpochDay, unwindAngle, type SunOfDate } from './adhanSunOfDate.js';
import { epochDayOf, fromEpochDay } from '../zones/calendarDate.js';

// adhan's Astronomical, for the Moonsighting Committee's seasonal twilight only (no method uses it by default).
const esmDir = path.join(path.dirname(createRequire(import.meta.url).resolve('adhan')), '..', 'esm');
/* eslint-disable @typescript-eslint/no-explicit-any */
const Astronomical: any = (await import(pathToFileURL(path.join(esmDir, 'Astronomical.js')).href)).default;
const { dayOfYear } = (await import(pathToFileURL(path.join(esmDir, 'DateUtils.js')).href)) as { dayOfYear: (d: Date) => number };
/* eslint-enable @typescript-eslint/no-explicit-any */

const MAX_TIME_MS = 8.64e15;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What `new Date(ms).getTime()` gives: TimeClip. */
function clip(ms: number): number {
  if (!(Math.abs(ms) <= MAX_TIME_MS)) return NaN;
  return Math.trunc(ms) + 0;
}

/**
 * TimeComponents(hours).utcDate(year, month0, day).getTime(), from the date's UTC midnight: Date.UTC adds
 * h × 3,600,000 + m × 60,000 + s × 1,000 to it, whole numbers all, so the sum here is exact and the same.
 */
function utcDate(hours: number, midnight: number): number {
  const h = Math.floor(hours);
  const minutes = Math.floor((hours - h) * 60);
  const seconds = Math.floor((hours - (h + minutes / 60)) * 60 * 60);
  return clip(midnight + (h * HOUR_MS + minutes * MINUTE_MS + seconds * 1000));
}

/** dateByAddingSeconds(date, seconds).getTime(). */
const addSeconds = (ms: number, seconds: number): number => clip(ms + seconds * 1000);

const SUN_ALTITUDE = -50.0 / 60.0;
const SIN_SUN_ALTITUDE = Math.sin(degreesToRadians(SUN_ALTITUDE));

/** Where a solar day keeps each hour angle's instant (`SolarTime.times`). */
const SUNRISE_SLOT = 0;
const SUNSET_SLOT = 1;
const ASR_SLOT = 2;
const FAJR_SLOT = 3;
const ISHA_SLOT = 4;
const MAGHRIB_SLOT = 5;
const SLOTS = 6;
/** Per slot, 1 where the time is after the transit. */
const AFTER_TRANSIT = Uint8Array.of(0, 1, 1, 0, 1, 1);

/**
 * Where a place is. One class, so that every read of a place's coordinates in the day loop sees one shape: places of
 * several shapes (queries, literals) made each read a lookup and each coordinate a new boxed number.
 */
export class AdhanPlace {
  constructor(
    public latitude: number,
    public longitude: number,
  ) {}
}

/**
 * adhan's SolarTime for a date and a place: transit, sunrise and sunset, and its correctedHourAngle for the asr and
 * twilight altitudes, each as the instant adhan's Date of it holds. The place's sine and cosine of latitude and the
 * date's sun terms are taken once; every expression is adhan's own, in its order. A few are kept and set anew for each
 * date (solarTime below): a precompute goes through hundreds of millions of dates, and a new object's number fields
 * are each an allocation. The hour angles are written into `times` by one loop (hourAnglesInto), never passed as numbers
 * between functions (a number passed to or returned from a call that is not inlined is a new boxed number): the
 * compiler keeps them unboxed, and the formula is written out once.
 */
class SolarTime {
  epochDay = NaN;
  latitude = NaN;
  longitude = NaN;
  midnight = NaN;
  sun: SunOfDate = sunOfEpochDay(0);
  sinLatitude = NaN;
  cosLatitude = NaN;
  westLongitude = NaN;
  approxTransit = NaN;
  /** The transit's instant (UTC ms, as adhan's Date of it). */
  transit = NaN;
  /**
   * Each slot's instant (UTC ms, as adhan's Date of it; NaN where invalid), for the altitude `altitudes` (its sine
   * `altitudeSines`) gives.
   */
  readonly times = new Float64Array(SLOTS);
  /**
   * Where adhan's step overshoots (bits of `overshoot`), the slot's time solved properly (solvedHourAngle): adhanTimesInto
   * takes it with `AdhanParameters.solveNearMeridian`.
   */
  readonly solved = new Float64Array(SLOTS);
  overshoot = 0;
  readonly altitudes = Float64Array.of(SUN_ALTITUDE, SUN_ALTITUDE, NaN, NaN, NaN, NaN);
  readonly altitudeSines = Float64Array.of(SIN_SUN_ALTITUDE, SIN_SUN_ALTITUDE, NaN, NaN, NaN, NaN);
  /** The slots (bits) whose times are this day's. */
  private valid = 0;
  /**
   * The angle of each twilight slot's altitude (asr: the shadow length): a day is computed twice at high latitudes
   * (with and without the bound) and its twilights are asked for again by twilightsReached, and a run of days asks
   * for the same angles every day (their sines are kept).
   */
  private readonly keys = new Float64Array(SLOTS).fill(NaN);

  /** This becomes the solar day of the UTC date `epochDay` (days since 1970-01-01) at a place. */
  set(epochDay: number, place: AdhanPlace): void {
    const { latitude, longitude } = place;
    this.epochDay = epochDay;
    this.latitude = latitude;
    this.longitude = longitude;
    this.midnight = epochDay * DAY_MS;
    const sun = sunOfEpochDay(epochDay);
    this.sun = sun;
    // A run of days is at one latitude: its sine and cosine are kept.
    if (latitude !== lastLatitude) {
      lastLatitude = latitude;
      lastSinLatitude = Math.sin(degreesToRadians(latitude));
      lastCosLatitude = Math.cos(degreesToRadians(latitude));
    }
    this.sinLatitude = lastSinLatitude;
    this.cosLatitude = lastCosLatitude;
    this.westLongitude = longitude * -1;
    this.approxTransit = approximateTransit(longitude, sun.siderealTime, sun.rightAscension);
    // Astronomical.correctedTransit
    const m0 = this.approxTransit;
    const theta = unwindAngle(sun.siderealTime + 360.985647 * m0);
    const a = unwindAngle(sun.rightAscension + (m0 / 2) * (sun.rightAscensionAB + m0 * sun.rightAscensionC));
    const H = quadrantShiftAngle(theta - this.westLongitude - a);
    const dm = H / -360;
    this.transit = utcDate((m0 + dm) * 24, this.midnight);
    this.valid = (1 << SUNRISE_SLOT) | (1 << SUNSET_SLOT);
    this.overshoot = 0;
    hourAnglesInto(this, this.valid);
  }

  /**
   * Makes sure the slots of `wanted` (bits) hold p's times: asr for its shadow length, the twilights for its angles
   * (an angle's time is computed once per day however often asked for).
   */
  complete(p: AdhanParameters, wanted: number): void {
    const { keys, altitudes, altitudeSines } = this;
    let stale = 0;
    if (wanted & (1 << ASR_SLOT) && ((this.valid & (1 << ASR_SLOT)) === 0 || keys[ASR_SLOT] !== p.shadowLength)) {
      // SolarTime.afternoon: the altitude is the day's.
      keys[ASR_SLOT] = p.shadowLength;
      const tangent = Math.abs(this.latitude - this.sun.declination);
      const inverse = p.shadowLength + Math.tan(degreesToRadians(tangent));
      const angle = radiansToDegrees(Math.atan(1.0 / inverse));
      altitudes[ASR_SLOT] = angle;
      altitudeSines[ASR_SLOT] = Math.sin(degreesToRadians(angle));
      stale |= 1 << ASR_SLOT;
    }
    if (wanted & (1 << FAJR_SLOT)) stale |= this.twilight(FAJR_SLOT, p.fajrAngle);
    if (wanted & (1 << ISHA_SLOT)) stale |= this.twilight(ISHA_SLOT, p.ishaAngle);
    if (wanted & (1 << MAGHRIB_SLOT)) stale |= this.twilight(MAGHRIB_SLOT, p.maghribAngle);
    if (stale !== 0) {
      this.overshoot &= ~stale;
      hourAnglesInto(this, stale);
      this.valid |= stale;
    }
  }

  /** The twilight slot at `angle` degrees below: its bit when its time is to be computed, else 0. */
  private twilight(slot: number, angle: number): number {
    if (this.keys[slot] !== angle) {
      this.keys[slot] = angle;
      this.altitudes[slot] = -1 * angle;
      this.altitudeSines[slot] = sinOfDepression(angle);
      return 1 << slot;
    }
    return this.valid & (1 << slot) ? 0 : 1 << slot;
  }
}

/**
 * Astronomical.correctedHourAngle for each slot of `slots` (bits), at the slot's altitude (degrees) whose sine of
 * its radians is its altitudeSine, into its time (as TimeComponents(hours).utcDate of the date).
 */
function hourAnglesInto(s: SolarTime, slots: number): void {
  const m0 = s.approxTransit;
  const sun = s.sun;
  const { times, altitudes, altitudeSines, midnight, sinLatitude, cosLatitude, westLongitude } = s;
  const sinLatitudeSinDeclination = sinLatitude * sun.sinDeclination;
  const term2 = cosLatitude * sun.cosDeclination;
  // Sunrise and sunset are at one altitude: the hour angle of the one is the other's.
  let H0Sine = NaN;
  let H0 = NaN;
  for (let k = 0; k < SLOTS; k++) {
    if ((slots & (1 << k)) === 0) continue;
    const angle = altitudes[k];
    const sine = altitudeSines[k];
    if (sine !== H0Sine) {
      H0Sine = sine;
      const term1 = sine - sinLatitudeSinDeclination;
      H0 = radiansToDegrees(Math.acos(term1 / term2));
    }
    const m = AFTER_TRANSIT[k] === 1 ? m0 + H0 / 360 : m0 - H0 / 360;
    const theta = unwindAngle(sun.siderealTime + 360.985647 * m);
    const a = unwindAngle(sun.rightAscension + (m / 2) * (sun.rightAscensionAB + m * sun.rightAscensionC));
    const delta = sun.declination + (m / 2) * (sun.declinationAB + m * sun.declinationC);
    const H = theta - westLongitude - a;
    // altitudeOfCelestialBody(latitude, delta, H)
    const deltaRadians = degreesToRadians(delta);
    const HRadians = degreesToRadians(H);
    const cosDelta = Math.cos(deltaRadians);
    const h = radiansToDegrees(Math.asin(sinLatitude * Math.sin(deltaRadians) + cosLatitude * cosDelta * Math.cos(HRadians)));
    const term3 = h - angle;
    const term4 = 360 * cosDelta * cosLatitude * Math.sin(HRadians);
    const dm = term3 / term4;
    times[k] = utcDate((m + dm) * 24, midnight);
    // adhan's one correction divides by sin H: where the sun barely rises or sets (H near 0° or 180°, at the polar
    // circles) it overshoots by minutes, hours near the day the sun first rises. There the hour angle is also solved
    // until it holds (the sun's place at the instant found).
    // (The slots' bits were cleared by the caller: only an overshoot sets one.)
    if (Math.abs(dm) > NEWTON_STEP_LIMIT && Math.abs(term4) < NEAR_TRANSIT_TERM) {
      s.solved[k] = utcDate(solvedHourAngle(s, m, sine, AFTER_TRANSIT[k] === 1) * 24, midnight);
      s.overshoot |= 1 << k;
    }
  }
}

/** The largest correction (days) adhan's single step is trusted with near the meridian: a minute. */
const NEWTON_STEP_LIMIT = 1 / 1440;
/**
 * adhan's step divides by 360 cos δ cos φ sin H; below this (sin H under a quarter at the equator, the hour angle
 * within a quarter of an hour of the meridian, less at high latitudes) it may overshoot. Elsewhere the step stands
 * as adhan takes it, to the second.
 */
const NEAR_TRANSIT_TERM = 90;

/**
 * The fraction of the day (as adhan's m) when the sun's hour angle equals the hour angle of altitude sine `sine`
 * for the sun's declination at that instant, after transit or before it, from adhan's first guess `m`; NaN when the
 * sun does not reach that altitude. A fixed point: the hour angle changes 361° a day, the declination under half a
 * degree, so each pass shrinks the error many times over.
 */
function solvedHourAngle(s: SolarTime, m: number, sine: number, afterTransit: boolean): number {
  const sun = s.sun;
  for (let i = 0; i < 12; i++) {
    const delta = degreesToRadians(sun.declination + (m / 2) * (sun.declinationAB + m * sun.declinationC));
    const cosH0 = (sine - s.sinLatitude * Math.sin(delta)) / (s.cosLatitude * Math.cos(delta));
    if (!(cosH0 >= -1 && cosH0 <= 1)) return NaN;
    const H0 = radiansToDegrees(Math.acos(cosH0));
    const theta = unwindAngle(sun.siderealTime + 360.985647 * m);
    const a = unwindAngle(sun.rightAscension + (m / 2) * (sun.rightAscensionAB + m * sun.rightAscensionC));
    const error = quadrantShiftAngle((afterTransit ? H0 : -H0) - (theta - s.westLongitude - a));
    m += error / 360.985647;
    if (Math.abs(error) < 1e-7) break;
  }
  return m;
}

let lastLatitude = NaN;
let lastSinLatitude = NaN;
let lastCosLatitude = NaN;

// A run of days asks for the same two or three twilight angles every day: their sines are kept.
const depressionSines = new Map<number, number>();

/** Math.sin(degreesToRadians(−angle)), the sine adhan's hour angle takes for a twilight `angle` degrees below. */
function sinOfDepression(angle: number): number {
  let sine = depressionSines.get(angle);
  if (sine === undefined) {
    if (depressionSines.size > 64) depressionSines.clear();
    depressionSines.set(angle, (sine = Math.sin(degreesToRadians(-1 * angle))));
  }
  return sine;
}

/** MathUtils.quadrantShiftAngle. */
function quadrantShiftAngle(angle: number): number {
  if (angle >= -180 && angle <= 180) return angle;
  return angle - 360 * Math.round(angle / 360);
}

/** Astronomical.approximateTransit. */
function approximateTransit(longitude: number, siderealTime: number, rightAscension: number): number {
  const Lw = longitude * -1;
  const m0 = normalizeToScale((rightAscension + Lw - siderealTime) / 360, 1);
  // Near the date line the normalisation can land on the wrong day: adhan compares with the longitude's transit.
  const expectedTransit = normalizeToScale((12.0 - longitude / 15.0) / 24.0, 1);
  if (m0 - expectedTransit > 0.5) return m0 - 1.0;
  if (expectedTransit - m0 > 0.5) return m0 + 1.0;
  return m0;
}

// The last few solar days computed (a place's today is its yesterday's tomorrow; a day is often computed twice, with
// and without the night-portion bound).
const RECENT = 8;
const recent = Array.from({ length: RECENT }, () => new SolarTime());
let recentNext = 0;
// The solar day returned last is never the one set anew: a caller holds at most two at once (today and tomorrow).
let returned = recent[0];
function solarTime(epochDay: number, place: AdhanPlace): SolarTime {
  const { latitude, longitude } = place;
  // Newest first: a run asks for the day it just computed as tomorrow.
  for (let k = 1, i = recentNext - 1; k <= RECENT; k++, i--) {
    const s = recent[i < 0 ? i + RECENT : i];
    if (s.epochDay === epochDay && s.latitude === latitude && s.longitude === longitude) return (returned = s);
  }
  if (recent[recentNext] === returned) recentNext = recentNext + 1 === RECENT ? 0 : recentNext + 1;
  const s = recent[recentNext];
  recentNext = recentNext + 1 === RECENT ? 0 : recentNext + 1;
  s.set(epochDay, place);
  return (returned = s);
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
  /**
   * Where adhan's formulas break down at the polar circles, solve them (the pipeline's choice; adhan's own values
   * without it): the hour angle where adhan's one step overshoots (solvedHourAngle), and the night-portion bound on
   * the eve of a polar night or day, when tomorrow has no sunrise (the rest of today's 24 hours, where adhan drops
   * the bound and the twilight jumps by hours for that one day).
   */
  solveNearMeridian?: boolean;
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

/**
 * Whether adhanTimes with pure angles (portions Infinity, not Moonsighting) gives a finite fajr (bit 1) and isha
 * (bit 2) for p's angles (isha by angle), each only when asked for, without computing the rest of that day: with
 * infinite portions adhan's safe bound is an invalid date, so those times are exactly the twilight hour angles'
 * instants (NaN where the sun does not reach the angle). The high-latitude check asks this after the day's own
 * adhanTimes, whose solar day and twilight hour angles it finds remembered.
 */
export function twilightsReached(latitude: number, longitude: number, year: number, month: number, day: number, p: AdhanParameters, fajr: boolean, isha: boolean): number {
  const solar = solarTime(epochDayOf(year, month, day), placeAt(latitude, longitude));
  solar.complete(p, (fajr ? 1 << FAJR_SLOT : 0) | (isha ? 1 << ISHA_SLOT : 0));
  const times = solar.times;
  let reached = 0;
  if (fajr && !Number.isNaN(times[FAJR_SLOT])) reached |= 1;
  if (isha && !Number.isNaN(times[ISHA_SLOT])) reached |= 2;
  return reached;
}

// The place of the calls that give a latitude and longitude: read by solarTime at once, never kept.
const somePlace = new AdhanPlace(NaN, NaN);
function placeAt(latitude: number, longitude: number): AdhanPlace {
  somePlace.latitude = latitude;
  somePlace.longitude = longitude;
  return somePlace;
}

/** `new PrayerTimes(new Coordinates(latitude, longitude), <local noon of year-month-day>, parameters)`, as numbers. */
export function adhanTimes(latitude: number, longitude: number, year: number, month: number, day: number, p: AdhanParameters): AdhanTimes {
  const e = scratch;
  adhanTimesInto(e, 0, placeAt(latitude, longitude), epochDayOf(year, month, day), p);
  return { fajr: e[0], sunrise: e[1], dhuhr: e[2], asr: e[3], sunset: e[4], maghrib: e[5], isha: e[6] };
}

const scratch = new Float64Array(7);

/** A day's slot times with the solved ones in place of adhan's overshooting steps (one array, rewritten per call). */
const merged = new Float64Array(SLOTS);
function mergedTimes(solar: SolarTime): Float64Array {
  for (let k = 0; k < SLOTS; k++) merged[k] = solar.overshoot & (1 << k) ? solar.solved[k] : solar.times[k];
  return merged;
}

/** Where adhanTimesInto writes each time, from `at`. */
export const FAJR = 0;
export const SUNRISE = 1;
export const DHUHR = 2;
export const ASR = 3;
export const SUNSET = 4;
export const MAGHRIB = 5;
export const ISHA = 6;

/**
 * adhanTimes of the UTC date `epochDay` (days since 1970-01-01) into out[at + FAJR … at + ISHA], without an object:
 * the precompute's day loop keeps two days' times in one array. Returns what twilightsReached would of the same day
 * for p's angles (isha's only with isha by angle): found on the way, it needs no second call.
 */
export function adhanTimesInto(out: Float64Array, at: number, place: AdhanPlace, epochDay: number, p: AdhanParameters): number {
  const solar = solarTime(epochDay, place);
  const ishaByAngle = !(p.ishaInterval > 0);
  solar.complete(p, (1 << ASR_SLOT) | (1 << FAJR_SLOT) | (ishaByAngle ? 1 << ISHA_SLOT : 0) | (p.maghribAngle ? 1 << MAGHRIB_SLOT : 0));
  const solve = p.solveNearMeridian === true;
  const times = solve && solar.overshoot !== 0 ? mergedTimes(solar) : solar.times;
  const dhuhrTime = solar.transit;
  const sunriseTime = times[SUNRISE_SLOT];
  const sunsetTime = times[SUNSET_SLOT];
  const asrTime = times[ASR_SLOT];
  const tomorrow = solarTime(epochDay + 1, place);
  const tomorrowSunrise = solve && tomorrow.overshoot & (1 << SUNRISE_SLOT) ? tomorrow.solved[SUNRISE_SLOT] : tomorrow.times[SUNRISE_SLOT];
  const night = (solve && Number.isNaN(tomorrowSunrise) ? sunriseTime + DAY_MS - sunsetTime : tomorrowSunrise - sunsetTime) / 1000;
  let fajrTime = times[FAJR_SLOT];
  let reached = Number.isNaN(fajrTime) ? 0 : 1;
  const latitude = solar.latitude;
  const moonsighting = p.method === 'MoonsightingCommittee';
  if (moonsighting && latitude >= HIGH_LATITUDE_THRESHOLD) fajrTime = addSeconds(sunriseTime, -(night / 7));
  let safeFajr: number;
  if (moonsighting) {
    safeFajr = seasonalFajr(latitude, epochDay, sunriseTime);
  } else {
    safeFajr = addSeconds(sunriseTime, -(p.fajrPortion * night));
  }
  if (Number.isNaN(fajrTime) || safeFajr > fajrTime) fajrTime = safeFajr;
  let ishaTime: number;
  if (!ishaByAngle) {
    ishaTime = addSeconds(sunsetTime, p.ishaInterval * 60);
  } else {
    ishaTime = times[ISHA_SLOT];
    if (!Number.isNaN(ishaTime)) reached |= 2;
    if (moonsighting && latitude >= HIGH_LATITUDE_THRESHOLD) ishaTime = addSeconds(sunsetTime, night / 7);
    let safeIsha: number;
    if (moonsighting) {
      safeIsha = seasonalIsha(latitude, epochDay, sunsetTime);
    } else {
      safeIsha = addSeconds(sunsetTime, p.ishaPortion * night);
    }
    if (Number.isNaN(ishaTime) || safeIsha < ishaTime) ishaTime = safeIsha;
  }
  let maghribTime = sunsetTime;
  if (p.maghribAngle) {
    const angleBasedMaghrib = times[MAGHRIB_SLOT];
    if (sunsetTime < angleBasedMaghrib && ishaTime > angleBasedMaghrib) maghribTime = angleBasedMaghrib;
  }
  out[at + FAJR] = fajrTime;
  out[at + SUNRISE] = sunriseTime;
  out[at + DHUHR] = dhuhrTime;
  out[at + ASR] = asrTime;
  out[at + SUNSET] = sunsetTime;
  out[at + MAGHRIB] = maghribTime;
  out[at + ISHA] = ishaTime;
  return reached;
}

/**
 * The Moonsighting Committee's seasonal fajr of the date `epochDay` (days since 1970-01-01) at `latitude`: `sunrise`
 * (UTC ms) less the minutes Khalid Shaukat's function of latitude and season gives, to the second, as adhan computes
 * it (the adhan model above and the `fixedHours` solar model of solarDay.ts both take it from here).
 */
export function seasonalFajr(latitude: number, epochDay: number, sunrise: number): number {
  return Astronomical.seasonAdjustedMorningTwilight(latitude, dayOfYearOf(epochDay), fromEpochDay(epochDay).year, new Date(sunrise)).getTime();
}

/** The Moonsighting Committee's seasonal isha (general shafaq): `sunset` (UTC ms) plus its minutes, as seasonalFajr. */
export function seasonalIsha(latitude: number, epochDay: number, sunset: number): number {
  return Astronomical.seasonAdjustedEveningTwilight(latitude, dayOfYearOf(epochDay), fromEpochDay(epochDay).year, new Date(sunset), 'general').getTime();
}

/** adhan's dayOfYear of the date's local noon (its Moonsighting seasons read it), as PrayerTimes builds that Date. */
function dayOfYearOf(epochDay: number): number {
  const { year, month, day } = fromEpochDay(epochDay);
  return dayOfYear(new Date(year, month - 1, day, 12));
}
