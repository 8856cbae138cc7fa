import { find } from 'geo-tz/all';
import { afterAll, describe, expect, it } from 'vitest';
import { BorderCache, polygonPoints } from './borderCache.js';
import { BORDER_CACHE_POINTS, boundBorderCache, zoneAtPoint as zoneAt } from './zoneAtPoint.js';

const square = (points: number) => ({
  features: [{ geometry: { type: 'Polygon', coordinates: [Array.from({ length: points }, (_, i) => [i, i])] } }],
});

describe('BorderCache', () => {
  it('counts the points of Polygons and MultiPolygons, ring by ring', () => {
    const multi = { features: [{ geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 1]]], [[[5, 5], [6, 6], [7, 7], [5, 5]]]] } }] };
    expect(polygonPoints(multi)).toBe(3 + 2 + 4);
    expect(polygonPoints(square(10))).toBe(10);
  });

  it('keeps the quads used last within its budget of points, and says what it holds', () => {
    const cache = new BorderCache(3 * (100 + 16));
    for (const key of ['a', 'b', 'c']) cache.set(key, square(100));
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeDefined(); // a is now the most recent: b goes first
    cache.set('d', square(100));
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')].every(Boolean)).toBe(true);
    expect(cache.points).toBe(3 * 116);
    // One quad over the whole budget is kept alone (geo-tz reads it right after setting it).
    cache.set('huge', square(1000));
    expect(cache.size).toBe(1);
    expect(cache.get('huge')).toBeDefined();
    expect(cache.points).toBe(1016);
  });
});

describe('geo-tz with the bounded cache', () => {
  afterAll(() => {
    boundBorderCache(BORDER_CACHE_POINTS);
  });

  it('stays within its bound over a scan of never-seen points, and finds the same zones as geo-tz', () => {
    const budget = 20_000;
    const cache = boundBorderCache(budget);
    let seed = 12345;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let overBudget = 0;
    let mostQuads = 0;
    const zones = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      const lat = Math.round((random() * 130 - 55) * 1e4) / 1e4;
      const lon = Math.round((random() * 360 - 180) * 1e4) / 1e4;
      zones.add(zoneAt(lat, lon));
      // Within the budget after every lookup, or holding one quad alone that weighs more.
      if (cache.points > budget && cache.size > 1) overBudget++;
      mostQuads = Math.max(mostQuads, cache.size);
    }
    // The scan touched many quads (and zones); the cache held some of them, never more than its budget.
    expect(zones.size).toBeGreaterThan(100);
    expect(mostQuads).toBeGreaterThan(5);
    expect(overBudget).toBe(0);
    // Quads read again after their eviction answer as before.
    for (const [lat, lon, zone] of [
      [41.0082, 28.9784, 'Europe/Istanbul'],
      [52.52, 13.405, 'Europe/Berlin'],
      [40.7128, -74.006, 'America/New_York'],
      [-33.8688, 151.2093, 'Australia/Sydney'],
    ] as const) {
      expect(find(lat, lon)).toEqual([zone]);
    }
  });
});
