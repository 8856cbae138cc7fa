// The catalog place nearest to a point, by the k-d tree the pipeline stored with the catalog, over the places'
// unit vectors (shared by the threads, catalogTables.ts).
import { unitVectors, type Point } from '../../pipeline/catalog/spatialIndex.js';

const RAD = Math.PI / 180;

export class NearestPlace {
  // The query being answered (nearest): kept in fields so that the descent allocates nothing.
  private tx = 0;
  private ty = 0;
  private tz = 0;
  private best = -1;
  private bestDistance = Infinity;

  /** `coords`: three per point (unitVectors); `order`: the tree (buildSpatialOrder). */
  constructor(
    private readonly coords: Float64Array,
    private readonly order: Int32Array,
  ) {}

  static of(points: readonly Point[], order: Int32Array): NearestPlace {
    return new NearestPlace(unitVectors(points), order);
  }

  /** Index of the nearest point, or -1 when there are none. */
  nearest(latitude: number, longitude: number): number {
    const cosLat = Math.cos(latitude * RAD);
    this.tx = cosLat * Math.cos(longitude * RAD);
    this.ty = cosLat * Math.sin(longitude * RAD);
    this.tz = Math.sin(latitude * RAD);
    this.best = -1;
    this.bestDistance = Infinity;
    this.visit(0, this.order.length, 0);
    return this.best;
  }

  private visit(lo: number, hi: number, axis: number): void {
    if (lo >= hi) return;
    const mid = (lo + hi) >> 1;
    const i = this.order[mid];
    const c = this.coords;
    const dx = c[i * 3] - this.tx;
    const dy = c[i * 3 + 1] - this.ty;
    const dz = c[i * 3 + 2] - this.tz;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < this.bestDistance || (d === this.bestDistance && i < this.best)) {
      this.bestDistance = d;
      this.best = i;
    }
    const delta = (axis === 0 ? this.tx : axis === 1 ? this.ty : this.tz) - c[i * 3 + axis];
    const next = axis === 2 ? 0 : axis + 1;
    if (delta < 0) {
      this.visit(lo, mid, next);
      if (delta * delta <= this.bestDistance) this.visit(mid + 1, hi, next);
    } else {
      this.visit(mid + 1, hi, next);
      if (delta * delta <= this.bestDistance) this.visit(lo, mid, next);
    }
  }

  /** Indexes of the `k` nearest points, nearest first (ties by index), leaving out `except`. */
  nearestK(latitude: number, longitude: number, k: number, except = -1): number[] {
    const target = unitVectors([{ latitude, longitude }]);
    // The best so far, sorted by distance: k is small (a page's "nearby places"), so insertion is cheap.
    const best: Array<[distance: number, index: number]> = [];
    const worst = (): number => (best.length < k ? Infinity : best[best.length - 1][0]);
    const visit = (lo: number, hi: number, axis: number): void => {
      if (lo >= hi) return;
      const mid = (lo + hi) >> 1;
      const i = this.order[mid];
      const dx = this.coords[i * 3] - target[0];
      const dy = this.coords[i * 3 + 1] - target[1];
      const dz = this.coords[i * 3 + 2] - target[2];
      const d = dx * dx + dy * dy + dz * dz;
      if (i !== except && d <= worst()) {
        let at = best.length;
        while (at > 0 && (best[at - 1][0] > d || (best[at - 1][0] === d && best[at - 1][1] > i))) at--;
        best.splice(at, 0, [d, i]);
        if (best.length > k) best.pop();
      }
      const delta = target[axis] - this.coords[i * 3 + axis];
      const next = (axis + 1) % 3;
      const [near, far] = delta < 0 ? [[lo, mid], [mid + 1, hi]] : [[mid + 1, hi], [lo, mid]];
      visit(near[0], near[1], next);
      if (delta * delta <= worst()) visit(far[0], far[1], next);
    };
    if (k > 0) visit(0, this.order.length, 0);
    return best.map(([, i]) => i);
  }
}
