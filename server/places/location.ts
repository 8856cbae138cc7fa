// Where a place is, as the timetables need it: a catalog place, or a point with its zone (contract, "Location").
// Domain code: it finds places and zones, and says "none" where there is none; the API decides what that means.
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { usesZoneIndex, zoneAtPoint } from '../../pipeline/zones/zoneAtPoint.js';
import { countryOfZone } from '../../pipeline/zones/zoneRules.js';
import type { PlaceCatalog } from './placeCatalog.js';

export interface Place {
  /** The Location object of the response. */
  location: Record<string, unknown>;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** ISO 3166 alpha-2, when known: it picks the default method and madhab. */
  country: string | undefined;
  /** A catalog place's region: with the country, it places the place in a zone-based authority's zone. */
  region?: string;
  /** The catalog place's id, when the request named one: its precomputed timetables may answer. */
  placeId?: string;
}

const ZONE_CACHE_LIMIT = 50_000;
const zoneCache = new Map<string, string>();

/**
 * The civil zone at a point (an `Etc/GMT±N` zone at sea): from the zone index where the thread has it (less than a
 * microsecond), else from geo-tz's boundary polygons, kept per point.
 */
export function zoneAt(latitude: number, longitude: number): string {
  if (usesZoneIndex()) return zoneAtPoint(latitude, longitude);
  const key = `${latitude},${longitude}`;
  let zone = zoneCache.get(key);
  if (zone === undefined) {
    zone = zoneAtPoint(latitude, longitude);
    if (zoneCache.size >= ZONE_CACHE_LIMIT) zoneCache.clear();
    zoneCache.set(key, zone);
  }
  return zone;
}

/** A catalog place as a Place. */
export function catalogPlace(catalog: PlaceCatalog, place: StoredPlace): Place {
  return {
    location: catalog.location(place),
    latitude: place.latitude,
    longitude: place.longitude,
    timeZone: place.timeZone,
    country: place.country,
    region: place.region,
    placeId: place.id,
  };
}

/** A point, with `tz` or the zone found there, and the nearest catalog place when there is a catalog. */
export function pointPlace(lat: number, lon: number, tz: string | undefined, catalog: PlaceCatalog | undefined): Place {
  const nearest = catalog?.nearest(lat, lon);
  // geo-tz's polygons give the civil zone on land; at sea they give only Etc/GMT±N, and the nearest place's zone is
  // what people there keep their clocks on.
  let zone = zoneAt(lat, lon);
  if (zone.startsWith('Etc/') && nearest) zone = nearest.timeZone;
  const timeZone = tz ?? zone;
  return {
    location: { latitude: lat, longitude: lon, timeZone, ...(nearest ? { nearestCity: catalog!.location(nearest) } : {}) },
    latitude: lat,
    longitude: lon,
    timeZone,
    // The country of the nearest catalog place picks the defaults; without a catalog, the country of the zone.
    country: nearest ? nearest.country : countryOfZone(zone),
  };
}
