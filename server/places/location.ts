// Where a request is: `city`, or `lat`/`lon` with an optional `tz` (contract, "Location").
import { find as zonesAt } from 'geo-tz';
import { canonicalZoneName, countryOfZone } from '../../pipeline/zoneRules.js';
import { ApiError } from '../errors.js';
import { checkRules, type NumberParam, type ParameterRule, type StringParam } from '../api/params.js';
import type { PlaceCatalog } from './placeCatalog.js';

export const cityParam: StringParam = {
  type: 'string',
  maxLength: 200,
  description:
    'A city name, optionally with a country ("Paris, FR", "Köln, Almanya"), or a site path such as turkey/istanbul/kadikoy. Use either city or lat and lon.',
};
export const latParam: NumberParam = { type: 'number', minimum: -90, maximum: 90, description: 'Latitude in degrees, north positive.' };
export const lonParam: NumberParam = { type: 'number', minimum: -180, maximum: 180, description: 'Longitude in degrees, east positive.' };
export const tzParam: StringParam = {
  type: 'string',
  maxLength: 64,
  format: 'timeZone',
  description: 'IANA time zone for lat/lon, such as Europe/Istanbul. Guessed from the coordinates when omitted.',
};

/**
 * How city, lat, lon and tz go together (contract, "Location"), in the order they are checked: the operations'
 * descriptions and `x-parameter-rules` are derived from this list, and resolvePlace enforces it.
 */
export const LOCATION_RULES: readonly ParameterRule[] = [
  { type: 'excludes', parameter: 'city', parameters: ['lat', 'lon'], error: 'conflicting_parameters', message: 'Give either city or lat and lon, not both.' },
  { type: 'requires', parameter: 'lat', parameters: ['lon'], error: 'missing_parameter', message: 'Give both lat and lon; lon is missing.' },
  { type: 'requires', parameter: 'lon', parameters: ['lat'], error: 'missing_parameter', message: 'Give both lat and lon; lat is missing.' },
  { type: 'oneOf', groups: [['city'], ['lat', 'lon']], error: 'missing_parameter', message: 'Give a place: city, or lat and lon.' },
  { type: 'requires', parameter: 'tz', parameters: ['lat', 'lon'], error: 'invalid_parameter', message: 'tz goes only with lat and lon; a city has its own time zone.' },
];

export interface Place {
  /** The Location object of the response. */
  location: Record<string, unknown>;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** ISO 3166 alpha-2, when known: it picks the default method and madhab. */
  country: string | undefined;
  /** The catalog place's id, when the request named one: its precomputed timetables may answer. */
  placeId?: string;
}

export interface LocationInput {
  city?: string;
  lat?: number;
  lon?: number;
  tz?: string;
}

const ZONE_CACHE_LIMIT = 50_000;
const zoneCache = new Map<string, string>();

/** The civil zone at a point, from geo-tz's boundary polygons (an `Etc/GMT±N` zone at sea). */
export function zoneAt(latitude: number, longitude: number): string {
  const key = `${latitude},${longitude}`;
  let zone = zoneCache.get(key);
  if (zone === undefined) {
    const found = zonesAt(latitude, longitude)[0];
    zone = (found && canonicalZoneName(found)) || 'Etc/UTC';
    if (zoneCache.size >= ZONE_CACHE_LIMIT) zoneCache.clear();
    zoneCache.set(key, zone);
  }
  return zone;
}

export function resolvePlace(input: LocationInput, catalog: PlaceCatalog | undefined): Place {
  checkRules(LOCATION_RULES, input as Record<string, unknown>);
  const { city, lat, lon, tz } = input;
  if (city !== undefined) {
    if (!catalog) {
      throw new ApiError('service_unavailable', 'City lookup is not available: the place catalog has not been built. Use lat and lon meanwhile.');
    }
    const place = catalog.resolve(city);
    return {
      location: catalog.location(place),
      latitude: place.latitude,
      longitude: place.longitude,
      timeZone: place.timeZone,
      country: place.country,
      placeId: place.id,
    };
  }
  if (lat === undefined || lon === undefined) throw new Error('LOCATION_RULES let a request without a place through');
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
