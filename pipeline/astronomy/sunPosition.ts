// The sun's declination and the equation of time at an instant, by the low-precision formulas of Meeus
// (Astronomical Algorithms, ch. 25 and 28): good to about 0.01°, far below a minute of prayer time.

const RAD = Math.PI / 180;

export interface SunPosition {
  /** Declination, degrees. */
  declination: number;
  /** Equation of time, minutes (apparent minus mean solar time). */
  equationOfTime: number;
}

/** Julian day of a UTC instant. */
export const julianDay = (ms: number): number => ms / 86_400_000 + 2440587.5;

export function sunPosition(jd: number): SunPosition {
  const T = (jd - 2451545) / 36525;
  const L0 = (280.46646 + T * (36000.76983 + 0.0003032 * T)) % 360;
  const M = 357.52911 + T * (35999.05029 - 0.0001537 * T);
  const e = 0.016708634 - T * (0.000042037 + 0.0000001267 * T);
  const C =
    Math.sin(M * RAD) * (1.914602 - T * (0.004817 + 0.000014 * T)) + Math.sin(2 * M * RAD) * (0.019993 - 0.000101 * T) + Math.sin(3 * M * RAD) * 0.000289;
  const omega = 125.04 - 1934.136 * T;
  const apparentLongitude = L0 + C - 0.00569 - 0.00478 * Math.sin(omega * RAD);
  const meanObliquity = 23 + (26 + (21.448 - T * (46.815 + T * (0.00059 - T * 0.001813))) / 60) / 60;
  const obliquity = meanObliquity + 0.00256 * Math.cos(omega * RAD);
  const declination = Math.asin(Math.sin(obliquity * RAD) * Math.sin(apparentLongitude * RAD)) / RAD;
  const y = Math.tan((obliquity / 2) * RAD) ** 2;
  const equationOfTime =
    (4 / RAD) *
    (y * Math.sin(2 * L0 * RAD) -
      2 * e * Math.sin(M * RAD) +
      4 * e * y * Math.sin(M * RAD) * Math.cos(2 * L0 * RAD) -
      0.5 * y * y * Math.sin(4 * L0 * RAD) -
      1.25 * e * e * Math.sin(2 * M * RAD));
  return { declination, equationOfTime };
}

/**
 * The sun's declination and equation of time by the Astronomical Almanac's low-precision formulas (the U.S. Naval
 * Observatory's "approximate solar coordinates": about 0.01° and 0.1 minute from 1950 to 2050), the sun of
 * PrayTimes.org's calculator and of the services built on it (the `fixedHours` solar model, solarDay.ts).
 */
export function almanacSunPosition(jd: number): SunPosition {
  const d = jd - 2451545;
  const g = (357.529 + 0.98560028 * d) * RAD;
  const q = 280.459 + 0.98564736 * d;
  const longitude = (q + 1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * RAD;
  const obliquity = (23.439 - 0.00000036 * d) * RAD;
  const rightAscension = Math.atan2(Math.cos(obliquity) * Math.sin(longitude), Math.cos(longitude)) / RAD;
  const declination = Math.asin(Math.sin(obliquity) * Math.sin(longitude)) / RAD;
  // Mean longitude minus right ascension, degrees, brought into (−180°, 180°]; 4 minutes a degree.
  let difference = (q - rightAscension) % 360;
  if (difference > 180) difference -= 360;
  else if (difference <= -180) difference += 360;
  return { declination, equationOfTime: difference * 4 };
}
