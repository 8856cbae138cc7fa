// The zone index answers as geo-tz does, point for point: over a million points, uniform on the sphere, crowded on
// geo-tz's own polygon points (the vertices themselves, their neighbours a millionth of a degree away and far nearer,
// points on the edges, on the vertices' latitude east and west), on the lines where geo-tz's quadtree and the index's
// cells split, and at the poles, the date line and the bands of the zones at sea. Each is compared with
// `find(lat, lon)[0]` of geo-tz/all, the answer the service used before the index; any difference is listed.
import { find, setCache } from 'geo-tz/all';
import { describe, expect, inject, it } from 'vitest';
import { BorderCache } from './borderCache.js';
import { seaZone, ZoneIndex } from './zoneIndex.js';
import { readZoneIndex } from './zoneIndexFile.js';
import { geoTzPolygonPoints } from '../../testing/geoTzPoints.js';

/** A seeded generator of doubles in [0, 1) with all 53 bits (mulberry32, twice). */
function randomDoubles(seed: number): () => number {
  let state = seed >>> 0;
  const next32 = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return () => (Math.floor(next32() * 2 ** 21) * 2 ** 32 + Math.floor(next32() * 2 ** 32)) / 2 ** 53;
}

const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));
const clampLon = (lon: number) => Math.max(-180, Math.min(180, lon));

/**
 * The lines a point's cell is split on `depth` levels down, by geo-tz's arithmetic (which the index's cells follow
 * below geo-tz's quads): the point moved onto the middle latitude, and onto the middle meridian.
 */
function onSplitLines(lat: number, lon: number, depth: number): Array<[number, number]> {
  let top = 89.9999;
  let bottom = -89.9999;
  let left = -179.9999;
  let right = 179.9999;
  let midLat = 0;
  let midLon = 0;
  for (let level = 0; level < depth; level++) {
    if (lat >= midLat) bottom = midLat;
    else top = midLat;
    if (lon >= midLon) left = midLon;
    else right = midLon;
    midLat = (top + bottom) / 2;
    midLon = (left + right) / 2;
  }
  return [
    [midLat, lon],
    [lat, midLon],
  ];
}

interface Sample {
  lat: number;
  lon: number;
  /** The polygon point it was made from, if any: its neighbours form a group. */
  group: number;
}

function samples(): { points: Sample[]; groups: number } {
  const random = randomDoubles(29);
  const points: Sample[] = [];
  // Uniform on the sphere.
  for (let i = 0; i < 400_000; i++) {
    points.push({ lat: (Math.asin(2 * random() - 1) * 180) / Math.PI, lon: 360 * random() - 180, group: -1 });
  }
  // Along borders and coasts: around every 100th point of geo-tz's polygons (about 79,000 of them).
  const vertices = geoTzPolygonPoints(100);
  vertices.forEach(([x, y, nextX, nextY], group) => {
    const add = (lat: number, lon: number) => points.push({ lat: clampLat(lat), lon: clampLon(lon), group });
    const jitter = (scale: number) => add(y + (2 * random() - 1) * scale, x + (2 * random() - 1) * scale);
    add(y, x);
    add(y + 1e-6 * (random() < 0.5 ? 1 : -1), x + 1e-6 * (random() < 0.5 ? 1 : -1));
    jitter(1e-9);
    jitter(1e-6);
    jitter(1e-4);
    jitter(1e-2);
    add((y + nextY) / 2, (x + nextX) / 2);
    const t = random();
    add(y + t * (nextY - y), x + t * (nextX - x));
    add(y, x + (random() < 0.5 ? 1e-3 : -1e-3));
    if (group % 3 === 0) for (const [lat, lon] of onSplitLines(y, x, 1 + (group % 22))) add(lat, lon);
  });
  // The poles, the date line, geo-tz's clamped bounds and the edges of the bands at sea.
  const lats = [90, -90, 89.9999, -89.9999, 89.99995, -89.99995, 89.99989, 0, -0, 1e-300, 30, 45, 60, 75, -30, -45, -60, -75];
  const lons = [180, -180, 179.9999, -179.9999, 179.99995, -179.99995, 0, -0, 1e-300];
  for (let k = 0; k < 24; k++) lons.push(-172.5 + 15 * k);
  for (const lat of lats) for (const lon of lons) points.push({ lat, lon, group: -1 });
  return { points, groups: vertices.length };
}

describe('the zone index', () => {
  const read = readZoneIndex(inject('catalogDataDir'));
  if (!read.index) throw new Error(`no zone index with the test catalog: ${read.detail}`);
  const index = new ZoneIndex(read.index);

  it('answers as geo-tz does at over a million points, on borders and coasts above all', { timeout: 600_000 }, () => {
    const { points, groups } = samples();
    expect(points.length).toBeGreaterThan(1_000_000);
    // geo-tz decodes a quad's polygons when a point first falls in it: points taken quad by quad decode each once.
    setCache({ store: new BorderCache(400_000) });
    const quad = (p: Sample) => Math.floor(((p.lon + 180) / 360) * 512) * 1024 + Math.floor(((p.lat + 90) / 180) * 512);
    points.sort((p, q) => quad(p) - quad(q));
    const differences: string[] = [];
    const answersByGroup = new Map<number, Set<string>>();
    for (const { lat, lon, group } of points) {
      const expected = find(lat, lon)[0];
      const got = index.zoneAt(lat, lon);
      if (got !== expected) differences.push(`(${lat}, ${lon}): index ${got}, geo-tz ${expected}`);
      if (group >= 0) {
        let answers = answersByGroup.get(group);
        if (!answers) answersByGroup.set(group, (answers = new Set()));
        answers.add(expected);
      }
    }
    expect(differences).toEqual([]);
    // The points around a polygon point straddle a border (two zones, or a zone and the sea) in many groups.
    const straddling = [...answersByGroup.values()].filter((answers) => answers.size > 1).length;
    expect(straddling).toBeGreaterThan(groups / 5);
  });

  it('refuses what geo-tz refuses, and names the zones at sea as geo-tz does', () => {
    for (const [lat, lon] of [
      [NaN, 0],
      [0, NaN],
      [90.0001, 0],
      [-91, 0],
      [0, 180.0001],
      [0, -181],
    ]) {
      expect(() => find(lat, lon)).toThrow();
      expect(() => index.zoneIndexAt(lat, lon)).toThrow(RangeError);
    }
    // South of nearly every land: geo-tz names the band of the longitude, the eastern one at a band's edge.
    let atSea = 0;
    for (let lon = -180; lon <= 180; lon += 2.5) {
      const expected = find(-60, lon)[0];
      expect(index.zoneAt(-60, lon)).toBe(expected);
      if (!expected.startsWith('Etc/')) continue;
      atSea++;
      expect(seaZone(lon)).toBe(expected);
    }
    expect(atSea).toBeGreaterThan(130);
  });
});
