// The location parameters of the API (contract, "Location"): city, or lat and lon with an optional tz, declared
// once with the rules that tie them together, and resolved to a Place; "no such place" becomes city_not_found here.
import { ApiError } from '../errors.js';
import { catalogPlace, pointPlace, type Place } from '../places/location.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { checkRules, type NumberParam, type ParameterRule, type StringParam } from './params.js';

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

export interface LocationInput {
  city?: string;
  lat?: number;
  lon?: number;
  tz?: string;
}

export function resolvePlace(input: LocationInput, catalog: PlaceCatalog | undefined): Place {
  checkRules(LOCATION_RULES, input as Record<string, unknown>);
  const { city, lat, lon, tz } = input;
  if (city !== undefined) {
    if (!catalog) {
      throw new ApiError('service_unavailable', 'City lookup is not available: the place catalog has not been built. Use lat and lon meanwhile.');
    }
    const place = catalog.resolve(city);
    if (!place) {
      // Never a guess in its stead (a typo stays a 404), but the place a search would put first is named.
      const likely = city.includes('/') ? undefined : catalog.searchPlaces(city, 1, 'people')[0]?.place;
      const search = likely ? `; did you mean ${likely.name} (city=${likely.path})? Try` : '; try';
      throw new ApiError('city_not_found', `No place matches city=${JSON.stringify(city)}${search} /api/v1/cities?q= to search.`);
    }
    return catalogPlace(catalog, place);
  }
  if (lat === undefined || lon === undefined) throw new Error('LOCATION_RULES let a request without a place through');
  return pointPlace(lat, lon, tz, catalog);
}
