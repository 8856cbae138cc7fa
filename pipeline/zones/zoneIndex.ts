// The zone at a point from the zone index (zoneIndexBuild.ts): geo-tz's own answer (`find(lat, lon)[0]` of
// `geo-tz/all`) without reading or decoding its polygons. The index is one tree in shared memory. Its upper levels are
// geo-tz's quadtree, walked with geo-tz's own arithmetic; below each of geo-tz's border quads it goes on splitting the
// same way until a cell lies inside one zone (answered at once) or holds few polygon edges. There the point is tested
// against those edges only, with the step geo-tz's point-in-polygon test (turf's, point-in-polygon-hao) takes on an
// edge, exact predicate included; the edges west of the cell, which that test would count along its ray, are folded
// at build time into a parity and a few latitudes to compare with (zoneIndexBuild.ts says why that is exact).
import { readSync } from 'node:fs';
import { orient2d } from 'robust-predicates';

/**
 * A child in the tree: the low two bits say what it is, the rest its payload. OCEAN: no zone (geo-tz then answers
 * with the zone at sea of the longitude); NODE: a node's index; ZONE: a zone's index in `names`; CELL: where a cell's
 * edges begin in `cells`.
 */
export const OCEAN = 0;
export const NODE = 1;
export const ZONE = 2;
export const CELL = 3;

/** The polygons' coordinates are whole millionths of a degree (geobuf's precision in geo-tz's data). */
export const COORDINATE_SCALE = 1e6;

/** What a thread needs to attach the index: one shared buffer and a small plain description. */
export interface SharedZoneIndex {
  /** What it was built from: geo-tz's version and a fingerprint of its data files (zoneIndexBuild.ts). */
  source: string;
  /** Zone names as geo-tz spells them, by index; geo-tz's own list first, then the zones at sea. */
  names: string[];
  /** The root node's index. */
  root: number;
  buffer: SharedArrayBuffer;
  /**
   * Where each array lies in the buffer: byte offset and length in elements. `quads`: where each of geo-tz's border
   * quads has its edge bytes in `edges`, from and to.
   */
  layout: { nodes: [number, number]; cells: [number, number]; quads: [number, number]; edges: [number, number] };
  /**
   * Given when the edge bytes are still in the index file (zoneIndexFile.ts): its descriptor, where `edges` begins
   * in it, and one flag a quad (shared by the threads) set once its bytes have been read into the buffer.
   */
  edgesFile?: { fd: number; offset: number; loaded: SharedArrayBuffer };
}

/**
 * geo-tz's zones at sea: 15° bands of `Etc/GMT±N`, listed from the east. At a band's edge both bands hold, the
 * eastern one first; at ±180° geo-tz names Etc/GMT+12 first. This is geo-tz's rule (its `oceanUtils`), which it does
 * not export.
 */
const SEA_BANDS: ReadonlyArray<[left: number, right: number, zone: string]> = Array.from({ length: 25 }, (_, k) => {
  const offset = 12 - k; // Etc/GMT-12 (east of 172.5°E) down to Etc/GMT+12
  const zone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  return [offset === -12 ? -180 : offset * 15 - 7.5, offset === 12 ? 180 : offset * 15 + 7.5, zone];
});

/** The first zone geo-tz names at sea at a longitude (of the point as given, not clamped). */
export function seaZone(longitude: number): string {
  if (longitude === -180 || longitude === 180) return 'Etc/GMT+12';
  for (const [left, right, zone] of SEA_BANDS) if (left <= longitude && right >= longitude) return zone;
  throw new RangeError(`Invalid longitude: ${longitude}`);
}

/** Every zone the sea bands name, in geo-tz's order. */
export const SEA_ZONES: readonly string[] = SEA_BANDS.map(([, , zone]) => zone);

/** geo-tz's bounds: it clamps points to them and starts its quadtree from them. */
const TOP = 89.9999;
const RIGHT = 179.9999;

/** A point exactly on an edge of a polygon: inside, as geo-tz's test counts it. */
const ON_EDGE = -1;

export class ZoneIndex {
  readonly names: readonly string[];
  private readonly nodes: Int32Array;
  private readonly cells: Int32Array;
  private readonly edges: Uint8Array;
  private readonly quads: Int32Array;
  private readonly edgesFile: { fd: number; offset: number; loaded: Int32Array } | undefined;
  private readonly root: number;
  private readonly seaIndex: Map<string, number>;

  constructor(shared: SharedZoneIndex) {
    const { buffer, layout } = shared;
    this.nodes = new Int32Array(buffer, layout.nodes[0], layout.nodes[1]);
    this.cells = new Int32Array(buffer, layout.cells[0], layout.cells[1]);
    this.edges = new Uint8Array(buffer, layout.edges[0], layout.edges[1]);
    this.quads = new Int32Array(buffer, layout.quads[0], layout.quads[1]);
    const file = shared.edgesFile;
    this.edgesFile = file && { fd: file.fd, offset: file.offset, loaded: new Int32Array(file.loaded) };
    this.names = shared.names;
    this.root = shared.root;
    this.seaIndex = new Map(SEA_ZONES.map((zone) => [zone, shared.names.indexOf(zone)]));
    for (const [zone, index] of this.seaIndex) if (index < 0) throw new Error(`zone index without the zone at sea ${zone}`);
  }

  /** The zone geo-tz names first at the point, by its index in `names`. Throws on what geo-tz refuses. */
  zoneIndexAt(latitude: number, longitude: number): number {
    if (Number.isNaN(latitude) || latitude > 90 || latitude < -90) throw new RangeError(`Invalid latitude: ${latitude}`);
    if (Number.isNaN(longitude) || longitude > 180 || longitude < -180) throw new RangeError(`Invalid longitude: ${longitude}`);
    // At the pole geo-tz names every zone at sea, Etc/GMT-12 first.
    if (latitude === 90) return this.seaIndex.get(SEA_ZONES[0])!;
    const lat = latitude >= TOP ? TOP : latitude <= -TOP ? -TOP : latitude;
    const lon = longitude >= RIGHT ? RIGHT : longitude <= -RIGHT ? -RIGHT : longitude;
    // geo-tz's descent, the same comparisons and the same arithmetic, so a point on a line goes where it goes there.
    let top = TOP;
    let bottom = -TOP;
    let left = -RIGHT;
    let right = RIGHT;
    let midLat = 0;
    let midLon = 0;
    let node = this.root;
    for (;;) {
      let quadrant: number;
      if (lat >= midLat && lon >= midLon) {
        quadrant = 0;
        bottom = midLat;
        left = midLon;
      } else if (lat >= midLat) {
        quadrant = 1;
        bottom = midLat;
        right = midLon;
      } else if (lon < midLon) {
        quadrant = 2;
        top = midLat;
        right = midLon;
      } else {
        quadrant = 3;
        top = midLat;
        left = midLon;
      }
      const code = this.nodes[node * 4 + quadrant];
      const kind = code & 3;
      if (kind === NODE) {
        node = code >>> 2;
        midLat = (top + bottom) / 2;
        midLon = (left + right) / 2;
        continue;
      }
      if (kind === ZONE) return code >>> 2;
      const zone = kind === CELL ? this.zoneInCell(code >>> 2, lon, lat) : -1;
      return zone >= 0 ? zone : this.seaIndex.get(seaZone(longitude))!;
    }
  }

  /** The zone name geo-tz gives first at the point. */
  zoneAt(latitude: number, longitude: number): string {
    return this.names[this.zoneIndexAt(latitude, longitude)];
  }

  /**
   * The first zone, in geo-tz's order of the quad's features, whose polygon holds the point; -1 for none. A cell's
   * record: its quad (of geo-tz's), the number of candidate zones, then each: its index and its number of parts (0: the cell lies inside it;
   * 16 bits each), then each part (a polygon of a MultiPolygon, with its holes): its parity from the edges west of the
   * cell (1 bit), its numbers of latitudes (15 bits) and of runs of edges (16 bits), the latitudes (where an edge west
   * of the cell begins or ends inside the cell's rows), and the runs: where their deltas begin in `edges` (25 bits)
   * with their number of edges (7 bits), and their first point.
   */
  private zoneInCell(at: number, x: number, y: number): number {
    const cells = this.cells;
    const quad = cells[at++];
    if (this.edgesFile && Atomics.load(this.edgesFile.loaded, quad) === 0) this.readQuad(quad);
    let entries = cells[at++];
    while (entries-- > 0) {
      const head = cells[at++];
      let parts = head >>> 16;
      if (parts === 0) return head & 0xffff;
      let inside = false;
      while (parts-- > 0) {
        const part = cells[at];
        const end = at + 1 + ((part >>> 1) & 0x7fff) + (part >>> 16) * 3;
        if (!inside) inside = this.partHolds(at, x, y);
        at = end;
      }
      if (inside) return head & 0xffff;
    }
    return -1;
  }

  /**
   * Reads a quad's edge bytes from the index file into the shared buffer, the first time a point needs them in any
   * thread (two threads at once write the same bytes; a thread that sees the flag set sees the bytes).
   */
  private readQuad(quad: number): void {
    const { fd, offset, loaded } = this.edgesFile!;
    const end = this.quads[quad * 2 + 1];
    for (let at = this.quads[quad * 2]; at < end; ) {
      const read = readSync(fd, this.edges, at, end - at, offset + at);
      if (read === 0) throw new Error('the zone index file ends early');
      at += read;
    }
    Atomics.store(loaded, quad, 1);
  }

  /** Whether a part's polygon holds the point (on its edge counts as inside, as in geo-tz). */
  private partHolds(at: number, x: number, y: number): boolean {
    const cells = this.cells;
    const head = cells[at++];
    let parity = head & 1;
    for (let end = at + ((head >>> 1) & 0x7fff); at < end; at++) if (cells[at] / COORDINATE_SCALE > y) parity ^= 1;
    for (let end = at + (head >>> 16) * 3; at < end; at += 3) {
      const run = cells[at];
      const crossed = this.crossings(run & 0x1ffffff, cells[at + 1], cells[at + 2], run >>> 25, x, y);
      if (crossed === ON_EDGE) return true;
      parity ^= crossed & 1;
    }
    return parity === 1;
  }

  /**
   * The edges of a run that geo-tz's test counts for the point (the ray goes west), or ON_EDGE. Each edge as
   * point-in-polygon-hao takes it: differences from the point, an exact orientation where the edge spans the
   * point's latitude. The run's points are whole millionths, the first given, then zigzag varint deltas.
   */
  private crossings(offset: number, x0: number, y0: number, count: number, x: number, y: number): number {
    const bytes = this.edges;
    let xi = x0;
    let yi = y0;
    let u1 = xi / COORDINATE_SCALE - x;
    let v1 = yi / COORDINATE_SCALE - y;
    let crossed = 0;
    for (let k = 0; k < count; k++) {
      let byte = bytes[offset++];
      let zigzag = byte & 0x7f;
      for (let shift = 7; byte >= 0x80; shift += 7) {
        byte = bytes[offset++];
        zigzag |= (byte & 0x7f) << shift;
      }
      xi += (zigzag >>> 1) ^ -(zigzag & 1);
      byte = bytes[offset++];
      zigzag = byte & 0x7f;
      for (let shift = 7; byte >= 0x80; shift += 7) {
        byte = bytes[offset++];
        zigzag |= (byte & 0x7f) << shift;
      }
      yi += (zigzag >>> 1) ^ -(zigzag & 1);
      const u2 = xi / COORDINATE_SCALE - x;
      const v2 = yi / COORDINATE_SCALE - y;
      if (v1 === 0 && v2 === 0) {
        if ((u2 <= 0 && u1 >= 0) || (u1 <= 0 && u2 >= 0)) return ON_EDGE;
      } else if ((v2 >= 0 && v1 <= 0) || (v2 <= 0 && v1 >= 0)) {
        const f = orient2d(u1, u2, v1, v2, 0, 0);
        if (f === 0) return ON_EDGE;
        if ((f > 0 && v2 > 0 && v1 <= 0) || (f < 0 && v2 <= 0 && v1 > 0)) crossed++;
      }
      u1 = u2;
      v1 = v2;
    }
    return crossed;
  }
}
