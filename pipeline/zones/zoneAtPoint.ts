// The civil zone at a point, from geo-tz's full boundary data: every zone of the tz database, each country's own
// (Kampala is Africa/Kampala, not the Asia/Riyadh that the data merged since 1970 gives), so a point's clocks before
// 1970 are its own too (contract, "Time zones"). At sea the data gives only Etc/GMT±N; the caller decides what then.
// A thread given the zone index (zoneIndex.ts, built with the catalog and shared by the serving threads) answers from
// it: geo-tz's answer without reading or decoding polygons. Otherwise (the pipeline, or a data directory without the
// index) geo-tz answers, loaded on first use, with its decoded border polygons kept within a budget.
import { createRequire } from 'node:module';
import { BorderCache } from './borderCache.js';
import { ZoneIndex, type SharedZoneIndex } from './zoneIndex.js';
import { canonicalZoneName, countryOfZone } from './zoneRules.js';

/**
 * The polygon points of geo-tz's border quads a thread keeps (borderCache.ts): about 20 MB of heap, a few hundred
 * quads, where geo-tz alone would keep every quad a scan of random points (or the catalog's places) touches.
 */
export const BORDER_CACHE_POINTS = 100_000;

type GeoTz = typeof import('geo-tz/all');
let geoTzModule: GeoTz | undefined;

/** geo-tz, loaded when first needed (a thread with the index never loads it: its quadtree alone is about 9 MB). */
function geoTz(): GeoTz {
  if (!geoTzModule) {
    geoTzModule = createRequire(import.meta.url)('geo-tz/all') as GeoTz;
    geoTzModule.setCache({ store: new BorderCache(BORDER_CACHE_POINTS) });
  }
  return geoTzModule;
}

/** Bounds geo-tz's cache of decoded border polygons to `points` (a new, empty cache); returns it. */
export function boundBorderCache(points: number): BorderCache {
  const cache = new BorderCache(points);
  geoTz().setCache({ store: cache });
  return cache;
}

/** The zone index in use in this thread, with each of its zones' canonical names. */
let installed: { index: ZoneIndex; canonical: string[] } | undefined;

/** Answers from this zone index from now on (undefined: from geo-tz again). */
export function useZoneIndex(shared: SharedZoneIndex | undefined): void {
  if (!shared) {
    installed = undefined;
    return;
  }
  const index = new ZoneIndex(shared);
  installed = { index, canonical: index.names.map((name) => canonicalZoneName(name) || 'Etc/UTC') };
}

/** Whether this thread answers from the zone index. */
export function usesZoneIndex(): boolean {
  return installed !== undefined;
}

/** The zone at a point, by its canonical name; `Etc/UTC` where the data names none. */
export function zoneAtPoint(latitude: number, longitude: number): string {
  if (installed) return installed.canonical[installed.index.zoneIndexAt(latitude, longitude)];
  const found = geoTz().find(latitude, longitude)[0];
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
