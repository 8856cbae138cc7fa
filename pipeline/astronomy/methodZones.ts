// Zone-based authorities (JAKIM; Kosovo's and Bosnia and Herzegovina's national tables) publish one table per zone,
// computed at the zone's reference point: a place inside a zone answers with the zone's times (contract, "National
// authorities"). Pure: which zone a place is in, and the
// query that computes the zone's table. See docs/authorities.md ("Zones") for the places covered.
import type { MethodDefinition, MethodZone } from './methods.js';

/** A catalog place as the zone lookup sees it; a point (no region) is in no zone but a whole country's. */
export interface ZonedPlace {
  id?: string;
  country?: string;
  region?: string;
}

/**
 * The method's zone that holds a catalog place (by its country and region), if any. A zone of a whole country (no
 * `regions`) holds every place of the country, and a point whose country is known (its nearest catalog place's).
 */
export function zoneFor(method: MethodDefinition, place: ZonedPlace): MethodZone | undefined {
  const { id, country, region } = place;
  if (!method.zones || country === undefined) return undefined;
  return method.zones.find(
    (z) =>
      z.country === country &&
      (z.regions === undefined || (region !== undefined && z.regions.includes(region))) &&
      !(id !== undefined && z.excludedPlaces?.includes(id)),
  );
}

/**
 * The query a zone's place is computed with: the zone's reference point and its exceptions, the place's own time
 * zone. A query without a zone, or with a code the method does not define, is returned as it is. (A zone with
 * `monthlyDifferences` computes the point's times this way, then adds the place's differences: computeSeries.)
 */
export function zonedQuery<Q extends { latitude: number; longitude: number; method: MethodDefinition; zone?: string }>(q: Q): Q {
  const zone = q.zone === undefined ? undefined : q.method.zones?.find((z) => z.code === q.zone);
  if (!zone) return q;
  const method = zone.imsakIsFajr === undefined ? q.method : { ...q.method, imsakIsFajr: zone.imsakIsFajr };
  return { ...q, latitude: zone.latitude, longitude: zone.longitude, method };
}
