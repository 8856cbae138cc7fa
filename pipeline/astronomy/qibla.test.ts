import { describe, expect, it } from 'vitest';
import { distanceToKaabaKm, KAABA, qiblaBearing } from './qibla.js';

/** Vincenty's inverse formula on WGS-84: an independent oracle for the geodesic distance (metres). */
function vincentyMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = 6378137;
  const f = 1 / 298.257223563;
  const b = (1 - f) * a;
  const rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L;
  let sinSigma = 0, cosSigma = 0, sigma = 0, cos2Alpha = 0, cos2SigmaM = 0;
  for (let i = 0; i < 200; i++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const next = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(next - lambda) < 1e-12) break;
    lambda = next;
  }
  const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const dSigma = B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return b * A * (sigma - dSigma);
}

describe('qibla', () => {
  it.each([
    // bearings given in the issue
    ['Istanbul', 41.0082, 28.9784, 151.6],
    ['New York', 40.7128, -74.006, 58.5],
  ])('%s bearing ≈ %f°', (_name, lat, lon, bearing) => {
    expect(Math.abs(qiblaBearing(lat, lon) - bearing)).toBeLessThan(0.05);
  });

  it.each([
    ['Istanbul', 41.0082, 28.9784],
    ['New York', 40.7128, -74.006],
    ['Jakarta', -6.2, 106.85],
    ['Cape Town', -33.92, 18.42],
    ['Honolulu', 21.31, -157.86],
  ])('%s distance agrees with Vincenty to 0.1 km', (_name, lat, lon) => {
    expect(Math.abs(distanceToKaabaKm(lat, lon) - vincentyMetres(lat, lon, KAABA.latitude, KAABA.longitude) / 1000)).toBeLessThanOrEqual(0.1);
  });

  it('stays in [0, 360) with two decimals, also at the Kaaba and its antipode', () => {
    for (const [lat, lon] of [[KAABA.latitude, KAABA.longitude], [-KAABA.latitude, KAABA.longitude - 180], [89.9, 0], [-89.9, 179.9]]) {
      const b = qiblaBearing(lat, lon);
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(360);
      expect(Math.round(b * 100) / 100).toBe(b);
      expect(Number.isFinite(distanceToKaabaKm(lat, lon))).toBe(true);
    }
    expect(distanceToKaabaKm(KAABA.latitude, KAABA.longitude)).toBe(0);
    // At the antipode (where Vincenty fails) the geodesic is half a meridian of WGS-84: 20003.9 km.
    expect(distanceToKaabaKm(-KAABA.latitude, KAABA.longitude - 180)).toBeCloseTo(20003.9, 0);
  });
});
