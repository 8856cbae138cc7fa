// The catalog's search and spatial indexes on small synthetic catalogs, against plain oracles.
import { describe, expect, it } from 'vitest';
import { NearestPlace } from '../../server/places/nearestPlace.js';
import { PlaceSearch } from '../../server/places/placeSearch.js';
import { buildSharedCatalog, CatalogTables } from '../../server/places/catalogTables.js';
import type { CatalogPlace } from './buildCatalog.js';
import { distanceKm } from './buildCatalog.js';
import { buildSearchIndex } from './searchIndex.js';
import { buildSpatialOrder } from './spatialIndex.js';

describe('nearest place', () => {
  it('agrees with a brute-force search, across the poles and the date line', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const points = Array.from({ length: 3000 }, () => ({ latitude: Math.asin(2 * random() - 1) * (180 / Math.PI), longitude: 360 * random() - 180 }));
    const index = NearestPlace.of(points, buildSpatialOrder(points));
    const queries = [...Array.from({ length: 500 }, () => [180 * random() - 90, 360 * random() - 180]), [90, 0], [-90, 0], [0, 180], [0, -180], [10, 179.99]];
    for (const [lat, lon] of queries) {
      const found = index.nearest(lat, lon);
      const best = Math.min(...points.map((p) => distanceKm(lat, lon, p.latitude, p.longitude)));
      expect(distanceKm(lat, lon, points[found].latitude, points[found].longitude)).toBeCloseTo(best, 6);
    }
  });
});

describe('search ranking', () => {
  const place = (id: string, rankWeight: number, own: string[], alternates: string[] = [], extra: Partial<CatalogPlace> = {}): CatalogPlace => ({
    id, name: own[0], type: 'city', country: 'XX', region: 'R', qualifier: '', latitude: 0, longitude: 0, timeZone: 'UTC', rankWeight,
    path: `x/r/${id}`, names: [...own, ...alternates], ownNameCount: own.length, ...extra,
  });
  const places = [
    place('koln', 963_000, ['koln'], ['cologne', 'koeln']),
    place('cologne-mn', 1_500, ['cologne']),
    place('mugla', 48_000, ['mugla'], ['mentese']),
    place('mentese', 12_000, ['mentese'], [], { type: 'district' }),
    place('parisfr', 2_100_000, ['paris']),
    place('paristx', 25_000, ['paris'], [], { country: 'US' }),
    place('parys', 71_000, ['parys'], ['paris']),
    place('parisien', 500, ['parisien']),
    place('big-pa', 5_000_000, ['pamplona']),
  ];
  const search = new PlaceSearch(new CatalogTables(buildSharedCatalog({ builtAt: '', places, search: buildSearchIndex(places), spatialOrder: buildSpatialOrder(places) })));
  const ids = (q: string, limit = 10, filter?: { country?: string }) => search.search(q, limit, filter).map((i) => places[i].id);

  it('puts exact matches before prefix matches, then the larger population', () => {
    expect(ids('paris')).toEqual(['parisfr', 'paristx', 'parys', 'parisien']);
    expect(ids('pa')).toEqual(['big-pa', 'parisfr', 'parys', 'paristx', 'parisien']);
  });

  it('lets an own name count ten times an alternate name', () => {
    expect(ids('cologne')[0]).toBe('koln'); // 963,000 > 10 × 1,500
    expect(ids('mentese')[0]).toBe('mentese'); // 10 × 12,000 > 48,000
  });

  it('filters by country and honours the limit', () => {
    expect(ids('paris', 10, { country: 'US' })).toEqual(['paristx']);
    expect(ids('paris', 2)).toEqual(['parisfr', 'paristx']);
    expect(ids('zzz')).toEqual([]);
  });
});
