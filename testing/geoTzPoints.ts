// Points of geo-tz's own border polygons, for the tests that compare the zone index with geo-tz where it is hardest:
// on and around the borders and coasts themselves.
import { readFileSync } from 'node:fs';
import { geoTzData } from '../pipeline/zones/zoneIndexBuild.js';

/** Every `stride`-th point of geo-tz's border polygons (quad by quad, ring by ring), with the next point of its ring. */
export function geoTzPolygonPoints(stride: number): Array<[x: number, y: number, nextX: number, nextY: number]> {
  const data = geoTzData();
  const tree = JSON.parse(readFileSync(data.indexFile, 'utf8')) as { lookup: Record<string, unknown> };
  const bytes = readFileSync(data.polygonFile);
  const out: Array<[number, number, number, number]> = [];
  let counter = 0;
  const walk = (node: Record<string, unknown>) => {
    for (const key of ['a', 'b', 'c', 'd']) {
      const child = node[key] as { pos?: number; len?: number } | undefined;
      if (!child || Array.isArray(child)) continue;
      if (child.pos! >= 0 && child.len) {
        for (const feature of data.decode(bytes.subarray(child.pos, child.pos! + child.len)).features) {
          const { type, coordinates } = feature.geometry;
          for (const rings of (type === 'MultiPolygon' ? coordinates : [coordinates]) as number[][][][]) {
            for (const ring of rings) {
              for (let k = 0; k + 1 < ring.length; k++) if (counter++ % stride === 0) out.push([ring[k][0], ring[k][1], ring[k + 1][0], ring[k + 1][1]]);
            }
          }
        }
      } else walk(child as Record<string, unknown>);
    }
  };
  walk(tree.lookup);
  return out;
}
