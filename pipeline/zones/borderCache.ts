// geo-tz's decoded border polygons, kept within a budget. geo-tz reads the polygons of a quad of its quadtree from its
// data file the first time a point falls in it, decodes them, and by default keeps them for ever in a Map: a scan of
// points spread over the map makes a serving thread hold every quad it touched (about 370 MB after 50,000 random
// points, of 20,433 quads in all; BENCHMARKS.md, issue 18), past its heap budget. This store, which geo-tz accepts in
// place of its Map (`setCache({ store })`), keeps the quads used last, up to a number of polygon points.

/** The part of a decoded quad this module reads: its features' polygons (GeoJSON Polygon or MultiPolygon). */
interface QuadFeatures {
  features: Array<{ geometry: { type: string; coordinates: unknown[] } }>;
}

/**
 * The points of a quad's polygons, counted ring by ring (a ring's length, not each point visited): what its decoded
 * form weighs, about 200 bytes of heap a point.
 */
export function polygonPoints(quad: QuadFeatures): number {
  let points = 0;
  for (const { geometry } of quad.features) {
    const polygons = (geometry.type === 'MultiPolygon' ? geometry.coordinates : [geometry.coordinates]) as unknown[][][];
    for (const rings of polygons) for (const ring of rings) points += ring.length;
  }
  return points;
}

/** What an entry weighs besides its points (its Map entry, its feature objects), in points. */
const ENTRY_POINTS = 16;

/** A Map-like store of decoded quads, least recently used first out, holding at most `budget` points. */
export class BorderCache {
  private readonly entries = new Map<string, { quad: QuadFeatures; points: number }>();
  private held = 0;

  constructor(readonly budget: number) {}

  get(key: string): QuadFeatures | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Used again: to the back of the queue.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.quad;
  }

  set(key: string, quad: QuadFeatures): void {
    const old = this.entries.get(key);
    if (old) {
      this.held -= old.points;
      this.entries.delete(key);
    }
    const points = polygonPoints(quad) + ENTRY_POINTS;
    this.entries.set(key, { quad, points });
    this.held += points;
    // The oldest go until the budget holds (the one just read stays, even alone over it: geo-tz reads it at once).
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.budget || oldest === key) break;
      this.entries.delete(oldest);
      this.held -= entry.points;
    }
  }

  /** The quads held. */
  get size(): number {
    return this.entries.size;
  }

  /** The points held, entries' own weight included. */
  get points(): number {
    return this.held;
  }
}
