// Builds the zone index (zoneIndex.ts) from geo-tz's own data: its quadtree (timezones.geojson.index.json) and the
// polygons of its border quads (timezones.geojson.geo.dat), read from where geo-tz reads them and decoded with the
// decoder geo-tz itself loads, so every coordinate is the very double geo-tz tests a point against.
//
// Why a cell's answer equals geo-tz's. geo-tz answers a point in a border quad with the first feature (in the quad's
// order) whose polygon holds it, by turf's test: a point on an edge is inside; otherwise the edges are counted that a
// ray from the point going west crosses (an edge counts when exactly one of its ends lies above the point, by the
// sign of an exact orientation of the ends' differences from the point), and an odd count is inside. For a point p in
// a closed cell, each edge of a polygon is one of:
// - an edge whose bounding box meets the cell: kept with the cell and taken at query time exactly as turf takes it;
// - an edge wholly east of the cell, or wholly above or below its rows: turf never counts it for p (the differences
//   from p keep the sign of the true differences, so the orientation's sign is certain), nor finds p on it;
// - an edge wholly west of the cell: turf counts it exactly when one of its ends lies above p, whatever the rounding.
// The count of the west edges, modulo 2, is the count of their ends' latitudes above p's (each edge adds its two
// ends), so it is a parity fixed for the cell (the latitudes outside its rows) and a few latitudes inside its rows to
// compare with p's; those are ends of the kept edges. Splitting a cell in four moves the parent's kept edges that miss
// a child into the child's west edges or drops them; geo-tz's own descent and the split's arithmetic decide which
// cell a point is in, so a point is always inside the closed cell it is tested in.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CELL, COORDINATE_SCALE, NODE, OCEAN, SEA_ZONES, ZONE, type SharedZoneIndex } from './zoneIndex.js';

/**
 * A cell splits further while its candidate polygons have more edges in it than this. Fewer edges a cell make the
 * index larger (nodes, and runs of edges cut more often) for little speed. Measured: 128 gave 25.5 MB, 256 gave
 * 21.3 MB (1.0 µs a point next to a polygon point), 512 gives 19.5 MB (1.7 µs there; 0.2 to 0.4 µs a point spread
 * over the globe), of which 15.6 MB are the polygons' edges; the server holds it all in memory.
 */
const CELL_EDGES = 512;
/** A run of edges holds at most this many (its count shares an integer with where its bytes begin). */
const RUN_EDGES = 127;
/** At most this many splits below one of geo-tz's quads (a quad is 0.70° by 0.35°; 2^-12 of that is 10 to 20 m). */
const MAX_SPLITS = 12;

interface GeoJsonFeatures {
  features: Array<{ properties: { tzid: string }; geometry: { type: string; coordinates: unknown } }>;
}

/** geo-tz's data files and its decoder, found as geo-tz finds them. */
export interface GeoTzData {
  version: string;
  indexFile: string;
  polygonFile: string;
  decode(bytes: Uint8Array): GeoJsonFeatures;
}

export function geoTzData(): GeoTzData {
  const main = createRequire(import.meta.url).resolve('geo-tz/all');
  const fromGeoTz = createRequire(main);
  const geobuf = fromGeoTz('geobuf') as { decode(pbf: unknown): GeoJsonFeatures };
  const Pbf = fromGeoTz('pbf') as new (bytes: Uint8Array) => unknown;
  const packageDir = path.join(path.dirname(main), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return {
    version,
    indexFile: path.join(packageDir, 'data', 'timezones.geojson.index.json'),
    polygonFile: path.join(process.env.GEO_TZ_DATA_PATH || path.join(packageDir, 'data'), 'timezones.geojson.geo.dat'),
    decode: (bytes) => geobuf.decode(new Pbf(bytes)),
  };
}

/**
 * What an index is built from: geo-tz's version and a digest of its two data files, read a megabyte at a time (the
 * server checks it at every start, in its loader thread, and should not hold the 30 MB file for it).
 */
export function geoTzSource(data: GeoTzData = geoTzData()): string {
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1 << 20);
  for (const file of [data.indexFile, data.polygonFile]) {
    const fd = openSync(file, 'r');
    try {
      for (let read: number; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, read));
    } finally {
      closeSync(fd);
    }
  }
  return `geo-tz ${data.version} ${hash.digest('hex').slice(0, 16)}`;
}

/** A growing array of 32-bit integers. */
class Int32List {
  array = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.array.length) this.grow();
    this.array[this.length++] = value;
  }
  private grow(): void {
    const bigger = new Int32Array(this.array.length * 2);
    bigger.set(this.array);
    this.array = bigger;
  }
}

/** A growing array of bytes, written as zigzag varints. */
class VarintList {
  array = new Uint8Array(1 << 20);
  length = 0;
  pushSigned(value: number): void {
    if (this.length + 5 > this.array.length) {
      const bigger = new Uint8Array(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
    while (zigzag >= 0x80) {
      this.array[this.length++] = (zigzag & 0x7f) | 0x80;
      zigzag = Math.floor(zigzag / 128);
    }
    this.array[this.length++] = zigzag;
  }
}

/**
 * The edges of one of geo-tz's quads, each stored once in the edge bytes: where two zones share a border the quad lists
 * each point twice, once each way round (9 edges in 10 lie on such a border). Edges are stored in slots,
 * as polylines of consecutive slots (each slot the delta from its first point to its last). Turf's step takes an edge
 * the same either way round (swapping its ends negates the exact orientation and swaps the cases that count), so a
 * part's edges may be read in the slots' direction, whichever way its ring runs.
 */
class QuadEdges {
  private readonly keys: Int32Array;
  private readonly found: Int32Array;
  private readonly mask: number;
  /** Per slot: where its delta begins in the edge bytes, its first point, its polyline. */
  readonly byteAt: number[] = [];
  readonly firstX: number[] = [];
  readonly firstY: number[] = [];
  readonly line: number[] = [];
  private lines = 0;
  private endX = NaN;
  private endY = NaN;

  constructor(
    edgeCount: number,
    private readonly bytes: VarintList,
  ) {
    let capacity = 16;
    while (capacity < edgeCount * 2) capacity *= 2;
    this.keys = new Int32Array(capacity * 4);
    this.found = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
  }

  /** The slot of the edge from (ax, ay) to (bx, by), in whole millionths; stored now if it is new. */
  slot(ax: number, ay: number, bx: number, by: number): number {
    const swap = ax > bx || (ax === bx && ay > by);
    const x1 = swap ? bx : ax;
    const y1 = swap ? by : ay;
    const x2 = swap ? ax : bx;
    const y2 = swap ? ay : by;
    let h = (Math.imul(x1, 0x9e3779b1) ^ Math.imul(y1, 0x85ebca77) ^ Math.imul(x2, 0xc2b2ae3d) ^ Math.imul(y2, 0x27d4eb2f)) & this.mask;
    for (; this.found[h] >= 0; h = (h + 1) & this.mask) {
      const k = h * 4;
      if (this.keys[k] === x1 && this.keys[k + 1] === y1 && this.keys[k + 2] === x2 && this.keys[k + 3] === y2) return this.found[h];
    }
    const slot = this.byteAt.length;
    this.keys.set([x1, y1, x2, y2], h * 4);
    this.found[h] = slot;
    // The polyline goes on when the edge starts where the last one stored ends.
    if (this.endX !== ax || this.endY !== ay) this.lines++;
    this.line.push(this.lines);
    this.byteAt.push(this.bytes.length);
    this.firstX.push(ax);
    this.firstY.push(ay);
    this.bytes.pushSigned(bx - ax);
    this.bytes.pushSigned(by - ay);
    this.endX = bx;
    this.endY = by;
    return slot;
  }
}

/** A polygon of a feature (one of a MultiPolygon's), its rings one after the other, each closed (last point = first). */
interface Part {
  x: Float64Array;
  y: Float64Array;
  xi: Int32Array;
  yi: Int32Array;
  /** The edges of the part's quad, and the slot of each of its edges there (by the edge's first point). */
  edges: QuadEdges;
  slotOf: Int32Array;
  /** The first point of each edge (every point but the last of each ring). */
  edgeStarts: Int32Array;
}

/** A part as seen from a cell: its edges meeting the cell, the parity of the west edges, their ends in the rows. */
interface PartInCell {
  part: Part;
  kept: Int32Array;
  parity: number;
  latitudes: Int32Array;
}

/** A feature as seen from a cell: inside it everywhere in the cell, or to be tested with its parts' edges. */
type FeatureInCell = { zone: number; inside: true } | { zone: number; inside: false; parts: PartInCell[] };

interface Bounds {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface ZoneIndexBuild {
  index: SharedZoneIndex;
  /** Counts for the build's report. */
  stats: { quads: number; nodes: number; cells: number; zoneLeaves: number; points: number; bytes: number };
}

/** Builds the index; `source` names what it is built from (geoTzSource). */
export function buildZoneIndex(data: GeoTzData = geoTzData(), source = geoTzSource(data)): ZoneIndexBuild {
  const tree = JSON.parse(readFileSync(data.indexFile, 'utf8')) as { timezones: string[]; lookup: Record<string, unknown> };
  const names = [...tree.timezones];
  const nameIndex = new Map(names.map((name, i) => [name, i]));
  const zoneOf = (name: string): number => {
    let index = nameIndex.get(name);
    if (index === undefined) {
      nameIndex.set(name, (index = names.length));
      names.push(name);
    }
    return index;
  };
  for (const zone of SEA_ZONES) zoneOf(zone);

  const nodes = new Int32List();
  const cells = new Int32List();
  /** Per quad: where its edge bytes begin and end. */
  const quadBytes = new Int32List();
  const edges = new VarintList();
  const stats = { quads: 0, nodes: 0, cells: 0, zoneLeaves: 0, points: 0, bytes: 0 };
  const polygons = openSync(data.polygonFile, 'r');

  const addNode = (children: number[]): number => {
    const at = nodes.length / 4;
    for (const child of children) nodes.push(child);
    stats.nodes++;
    return (at << 2) | NODE;
  };

  /** Reads a part's rings: coordinates as geo-tz has them, and as whole millionths (checked to be exact). */
  const readPart = (rings: number[][][], quadEdges: QuadEdges): Part => {
    let count = 0;
    for (const ring of rings) count += ring.length;
    const part: Part = {
      x: new Float64Array(count),
      y: new Float64Array(count),
      xi: new Int32Array(count),
      yi: new Int32Array(count),
      edges: quadEdges,
      slotOf: new Int32Array(count),
      edgeStarts: new Int32Array(count - rings.length),
    };
    let at = 0;
    let edge = 0;
    for (const ring of rings) {
      const first = ring[0];
      const last = ring[ring.length - 1];
      if (first[0] !== last[0] || first[1] !== last[1]) throw new Error('geo-tz data: a ring that does not close');
      ring.forEach(([x, y], k) => {
        const xi = Math.round(x * COORDINATE_SCALE);
        const yi = Math.round(y * COORDINATE_SCALE);
        if (xi / COORDINATE_SCALE !== x || yi / COORDINATE_SCALE !== y) throw new Error(`geo-tz data: a point not in whole millionths (${x}, ${y})`);
        part.x[at] = x;
        part.y[at] = y;
        part.xi[at] = xi;
        part.yi[at] = yi;
        if (k > 0) {
          part.slotOf[at - 1] = quadEdges.slot(part.xi[at - 1], part.yi[at - 1], xi, yi);
          part.edgeStarts[edge++] = at - 1;
        }
        at++;
      });
      stats.points += ring.length - 1;
    }
    return part;
  };

  /**
   * Latitudes toggled by the ends of west edges (sorted), as a cell's rows see them: those counted twice cancel;
   * those outside the rows lie above every point of the cell (they flip the parity) or below (they do nothing).
   */
  const fold = (sorted: Int32Array, parity: number, b: Bounds): { parity: number; latitudes: Int32Array } => {
    const inRows: number[] = [];
    for (let k = 0; k < sorted.length; k++) {
      if (k + 1 < sorted.length && sorted[k + 1] === sorted[k]) {
        k++;
        continue;
      }
      const latitude = sorted[k] / COORDINATE_SCALE;
      if (latitude >= b.bottom && latitude <= b.top) inRows.push(sorted[k]);
      else if (latitude > b.top) parity ^= 1;
    }
    return { parity, latitudes: Int32Array.from(inRows) };
  };

  const inCell = (part: Part, b: Bounds, kept: Int32Array, folded: { parity: number; latitudes: Int32Array }): PartInCell => {
    if (kept.length === 0 && folded.latitudes.length > 0) throw new Error('zone index: latitudes to compare in a cell without edges');
    return { part, kept, ...folded };
  };

  /** A part in one of geo-tz's quads: the edges whose bounding box meets it are kept; the ends of those west toggle. */
  const partInQuad = (part: Part, b: Bounds): PartInCell => {
    const { x, y, yi, edgeStarts } = part;
    const kept: number[] = [];
    const toggles: number[] = [];
    for (const g of edgeStarts) {
      const x1 = x[g];
      const x2 = x[g + 1];
      const y1 = y[g];
      const y2 = y[g + 1];
      const east = x1 > x2 ? x1 : x2;
      if ((x1 < x2 ? x1 : x2) <= b.right && east >= b.left && (y1 < y2 ? y1 : y2) <= b.top && (y1 > y2 ? y1 : y2) >= b.bottom) kept.push(g);
      else if (east < b.left) toggles.push(yi[g], yi[g + 1]);
    }
    return inCell(part, b, Int32Array.from(kept), fold(Int32Array.from(toggles).sort(), 0, b));
  };

  /**
   * A part in the four quarters of a cell (quarters' order), in one pass over the cell's kept edges: an edge that
   * meets the cell meets a quarter when it reaches over the quarter's two middle lines; the eastern quarters have as
   * west edges, besides the cell's, the kept edges wholly west of the middle meridian.
   */
  const partInQuarters = (p: PartInCell, q: Bounds[]): PartInCell[] => {
    const { x, y, yi } = p.part;
    const midLon = q[0].left;
    const midLat = q[0].bottom;
    const n = p.kept.length;
    const kept = [new Int32Array(n), new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    const counts = [0, 0, 0, 0];
    const toggles = new Int32Array(p.latitudes.length + 2 * n);
    toggles.set(p.latitudes);
    let toggleCount = p.latitudes.length;
    for (let k = 0; k < n; k++) {
      const g = p.kept[k];
      const x1 = x[g];
      const x2 = x[g + 1];
      const y1 = y[g];
      const y2 = y[g + 1];
      const east = (x1 > x2 ? x1 : x2) >= midLon;
      const west = (x1 < x2 ? x1 : x2) <= midLon;
      const north = (y1 > y2 ? y1 : y2) >= midLat;
      const south = (y1 < y2 ? y1 : y2) <= midLat;
      if (north && east) kept[0][counts[0]++] = g;
      if (north && west) kept[1][counts[1]++] = g;
      if (south && west) kept[2][counts[2]++] = g;
      if (south && east) kept[3][counts[3]++] = g;
      if (!east) {
        toggles[toggleCount++] = yi[g];
        toggles[toggleCount++] = yi[g + 1];
      }
    }
    const eastToggles = toggles.subarray(0, toggleCount).sort();
    const westToggles = p.latitudes; // sorted already, and folded for the cell's rows
    return q.map((b, k) => inCell(p.part, b, kept[k].slice(0, counts[k]), fold(k === 0 || k === 3 ? eastToggles : westToggles, p.parity, b)));
  };

  /** The features that matter in a cell, in order, up to the first the cell lies inside. */
  const reduce = (features: FeatureInCell[]): FeatureInCell[] => {
    const out: FeatureInCell[] = [];
    for (const feature of features) {
      if (feature.inside) {
        out.push(feature);
        break;
      }
      if (feature.parts.some((p) => p.kept.length === 0 && p.parity === 1)) {
        out.push({ zone: feature.zone, inside: true });
        break;
      }
      const parts = feature.parts.filter((p) => p.kept.length > 0);
      if (parts.length > 0) out.push({ zone: feature.zone, inside: false, parts });
    }
    return out;
  };

  /** A cell's record, as zoneIndex.ts reads it (its comment on `zoneInCell` gives the layout). */
  const writeCell = (features: FeatureInCell[]): number => {
    const at = cells.length;
    cells.push(quadBytes.length / 2);
    cells.push(features.length);
    for (const feature of features) {
      const parts = feature.inside ? [] : feature.parts;
      if (feature.zone > 0xffff || parts.length > 0x7fff) throw new Error('zone index: a cell beyond its record format');
      cells.push(feature.zone | (parts.length << 16));
      for (const { part, kept, parity, latitudes } of parts) {
        // The part's edges by slot; consecutive slots of one polyline make a run (an edge listed twice, twice).
        const { edges: quadEdges, slotOf } = part;
        const slots = Int32Array.from(kept, (g) => slotOf[g]).sort();
        const runs: number[] = [];
        for (let k = 0; k < slots.length; ) {
          let end = k + 1;
          while (end < slots.length && end - k < RUN_EDGES && slots[end] === slots[end - 1] + 1 && quadEdges.line[slots[end]] === quadEdges.line[slots[k]]) end++;
          const slot = slots[k];
          if (quadEdges.byteAt[slot] >= 2 ** 25) throw new Error('zone index: more edge bytes than its record format holds');
          runs.push(quadEdges.byteAt[slot] | ((end - k) << 25), quadEdges.firstX[slot], quadEdges.firstY[slot]);
          k = end;
        }
        if (latitudes.length > 0x7fff || runs.length / 3 > 0xffff) throw new Error('zone index: a cell beyond its record format');
        cells.push(parity | (latitudes.length << 1) | ((runs.length / 3) << 16));
        for (const y of latitudes) cells.push(y);
        for (const value of runs) cells.push(value);
      }
    }
    stats.cells++;
    return (at << 2) | CELL;
  };

  const quarters = (b: Bounds): Bounds[] => {
    const midLat = (b.top + b.bottom) / 2;
    const midLon = (b.left + b.right) / 2;
    return [
      { top: b.top, bottom: midLat, left: midLon, right: b.right },
      { top: b.top, bottom: midLat, left: b.left, right: midLon },
      { top: midLat, bottom: b.bottom, left: b.left, right: midLon },
      { top: midLat, bottom: b.bottom, left: midLon, right: b.right },
    ];
  };

  /** A cell's code: its answer at once, its edges, or a node of four smaller cells. */
  const cellCode = (b: Bounds, splits: number, given: FeatureInCell[]): number => {
    const features = reduce(given);
    if (features.length === 0) return OCEAN;
    if (features[0].inside) {
      stats.zoneLeaves++;
      return (features[0].zone << 2) | ZONE;
    }
    let edgeCount = 0;
    for (const feature of features) if (!feature.inside) for (const p of feature.parts) edgeCount += p.kept.length;
    if (edgeCount <= CELL_EDGES || splits >= MAX_SPLITS) return writeCell(features);
    const q = quarters(b);
    const split = features.map((f) => (f.inside ? undefined : f.parts.map((p) => partInQuarters(p, q))));
    const children = q.map((quarter, k) =>
      cellCode(
        quarter,
        splits + 1,
        features.map((f, i) => (f.inside ? f : { zone: f.zone, inside: false, parts: split[i]!.map((quartered) => quartered[k]) })),
      ),
    );
    return children.every((c) => c === children[0]) && (children[0] & 3) !== NODE ? children[0] : addNode(children);
  };

  const quadCode = (pos: number, len: number, b: Bounds): number => {
    const bytes = Buffer.alloc(len);
    if (readSync(polygons, bytes, 0, len, pos) < len) throw new Error(`geo-tz data: ${data.polygonFile} is shorter than its index says`);
    const decoded = data.decode(bytes);
    stats.quads++;
    const polygonsOf = decoded.features.map(({ geometry: { type, coordinates } }) => (type === 'MultiPolygon' ? coordinates : [coordinates]) as number[][][][]);
    let edgeCount = 0;
    for (const polygon of polygonsOf.flat(2)) edgeCount += polygon.length - 1;
    const quadEdges = new QuadEdges(edgeCount, edges);
    const firstByte = edges.length;
    const features: FeatureInCell[] = decoded.features.map((feature, k) => ({
      zone: zoneOf(feature.properties.tzid),
      inside: false,
      parts: polygonsOf[k].map((rings) => partInQuad(readPart(rings, quadEdges), b)),
    }));
    // The quad's edges are all stored now, one after the other; its cells name it (writeCell).
    const code = cellCode(b, 0, features);
    quadBytes.push(firstByte);
    quadBytes.push(edges.length);
    return code;
  };

  /** geo-tz's quadtree: the same children in the same order, bounds split with the same arithmetic. */
  const nodeCode = (node: Record<string, unknown>, b: Bounds): number => {
    const children = ['a', 'b', 'c', 'd'].map((key, k) => {
      const q = quarters(b)[k];
      const child = node[key] as { pos?: number; len?: number; length?: number } | undefined;
      if (!child) return OCEAN;
      if (child.pos! >= 0 && child.len) return quadCode(child.pos!, child.len, q);
      if (child.length! > 0) return (zoneOf(tree.timezones[(child as unknown as number[])[0]]) << 2) | ZONE;
      if (typeof child !== 'object') throw new Error('geo-tz data: an unexpected node in the quadtree');
      return nodeCode(child as Record<string, unknown>, q);
    });
    return addNode(children);
  };

  let root: number;
  try {
    root = nodeCode(tree.lookup, { top: 89.9999, bottom: -89.9999, left: -179.9999, right: 179.9999 }) >>> 2;
  } finally {
    closeSync(polygons);
  }

  const nodeBytes = nodes.length * 4;
  const cellBytes = cells.length * 4;
  const quadBytesBytes = quadBytes.length * 4;
  const buffer = new SharedArrayBuffer(nodeBytes + cellBytes + quadBytesBytes + edges.length);
  new Int32Array(buffer, 0, nodes.length).set(nodes.array.subarray(0, nodes.length));
  new Int32Array(buffer, nodeBytes, cells.length).set(cells.array.subarray(0, cells.length));
  new Int32Array(buffer, nodeBytes + cellBytes, quadBytes.length).set(quadBytes.array.subarray(0, quadBytes.length));
  new Uint8Array(buffer, nodeBytes + cellBytes + quadBytesBytes, edges.length).set(edges.array.subarray(0, edges.length));
  stats.bytes = buffer.byteLength;
  return {
    index: {
      source,
      names,
      root,
      buffer,
      layout: {
        nodes: [0, nodes.length],
        cells: [nodeBytes, cells.length],
        quads: [nodeBytes + cellBytes, quadBytes.length],
        edges: [nodeBytes + cellBytes + quadBytesBytes, edges.length],
      },
    },
    stats,
  };
}
