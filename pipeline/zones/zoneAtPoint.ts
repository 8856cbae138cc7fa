// The civil zone at a point, from geo-tz's full boundary data: every zone of the tz database, each country's own
// (Kampala is Africa/Kampala, not the Asia/Riyadh that the data merged since 1970 gives), so a point's clocks before
// 1970 are its own too (contract, "Time zones"). At sea the data gives only Etc/GMT±N; the caller decides what then.
import { find as zonesAt, setCache as setGeoTzCache } from 'geo-tz/all';
import { BorderCache } from './borderCache.js';
import { canonicalZoneName, countryOfZone } from './zoneRules.js';

/**
 * The polygon points of geo-tz's border quads a thread keeps (borderCache.ts): about 20 MB of heap, a few hundred
 * quads, where geo-tz alone would keep every quad a scan of random points (or the catalog's places) touches.
 */
export const BORDER_CACHE_POINTS = 100_000;

/** Bounds geo-tz's cache of decoded border polygons to `points` (a new, empty cache); returns it. */
export function boundBorderCache(points: number): BorderCache {
  const cache = new BorderCache(points);
  setGeoTzCache({ store: cache });
  return cache;
}
boundBorderCache(BORDER_CACHE_POINTS);

/** The zone at a point, by its canonical name; `Etc/UTC` where the data names none. */
export function zoneAtPoint(latitude: number, longitude: number): string {
  const found = zonesAt(latitude, longitude)[0];
  return (found && canonicalZoneName(found)) || 'Etc/UTC';
}

/**
 * A place's zone: the zone at its point when that is a zone of the place's own country, else the zone its source
 * names (a point a few metres across a border, or at sea). So a catalog place and its coordinates keep one clock.
 */
export function placeZoneAt(latitude: number, longitude: number, country: string, sourceZone: string): string {
  const found = zoneAtPoint(latitude, longitude);
  return countryOfZone(found) === country ? found : sourceZone;
}
