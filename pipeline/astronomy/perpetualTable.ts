// A perpetual takvim's town differences (Bosnia and Herzegovina's Rijaset: a Sarajevo base table plus, for every
// town, whole minutes fixed per month). Pure and allocation-free: the precompute asks once per month of a run.
// See docs/authorities.md ("Bosnia and Herzegovina").
import { julianDay, sunPosition } from './sunPosition.js';

const RAD = Math.PI / 180;
/** Sunrise and sunset: the sun's upper limb on the horizon, refraction included. */
const HORIZON = -0.8333;

/** Minutes from transit to sunset (and from sunrise to transit) at `latitude` with the sun at `declination`; NaN if none. */
function semiDiurnalArc(latitude: number, declination: number): number {
  const phi = latitude * RAD;
  const delta = declination * RAD;
  const cos = (Math.sin(HORIZON * RAD) - Math.sin(phi) * Math.sin(delta)) / (Math.cos(phi) * Math.cos(delta));
  return cos < -1 || cos > 1 ? NaN : (Math.acos(cos) / RAD) * 4;
}

/** Which of a place's three differences: fajr and sunrise's, dhuhr's, asr, maghrib and isha's. */
export const MORNING = 0;
export const NOON = 1;
export const EVENING = 2;

/**
 * A place's difference from the base point in whole minutes (later positive), for a month: the difference in sunrise
 * (`which` MORNING), in transit (NOON: the longitude's, 4 minutes a degree) or in sunset (EVENING), computed with the
 * sun of the month's 15th at 0h UT and rounded to the nearest minute. Where the sun does not rise or set at one of
 * the two points that day, the transit's difference.
 */
export function monthDifference(latitude: number, longitude: number, baseLatitude: number, baseLongitude: number, year: number, month: number, which: number): number {
  const noon = 4 * (baseLongitude - longitude);
  if (which === NOON) return Math.round(noon);
  const { declination } = sunPosition(julianDay(Date.UTC(year, month - 1, 15)));
  const arc = semiDiurnalArc(latitude, declination) - semiDiurnalArc(baseLatitude, declination);
  if (!Number.isFinite(arc)) return Math.round(noon);
  return Math.round(which === MORNING ? noon - arc : noon + arc);
}
