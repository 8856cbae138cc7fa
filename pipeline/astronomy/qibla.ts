// Direction and distance to the Kaaba (contract: great-circle initial bearing, WGS-84 geodesic distance).
import geodesic from 'geographiclib-geodesic';

export const KAABA = { latitude: 21.422487, longitude: 39.826206 } as const;

const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

/** Degrees clockwise from true north, in [0, 360), two decimals. */
export function qiblaBearing(latitude: number, longitude: number): number {
  const rad = Math.PI / 180;
  const phi1 = latitude * rad;
  const phi2 = KAABA.latitude * rad;
  const dLambda = (KAABA.longitude - longitude) * rad;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  const bearing = round(((Math.atan2(y, x) / rad) % 360 + 360) % 360, 2);
  return bearing >= 360 ? bearing - 360 : bearing;
}

/** Kilometres along the WGS-84 ellipsoid (Karney's algorithm, exact also near the antipode), one decimal. */
export function distanceToKaabaKm(latitude: number, longitude: number): number {
  const { s12 } = geodesic.Geodesic.WGS84.Inverse(latitude, longitude, KAABA.latitude, KAABA.longitude);
  return round((s12 ?? 0) / 1000, 1);
}
