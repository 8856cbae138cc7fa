// The catalog place nearest to a point, by the k-d tree the pipeline stored with the catalog.
import { unitVectors, type Point } from '../../pipeline/catalog/spatialIndex.js';

export class NearestPlace {
  private readonly coords: Float64Array;

  constructor(
    points: readonly Point[],
    private readonly order: Int32Array,
  ) {
    this.coords = unitVectors(points);
  }

  /** Index of the nearest point, or -1 when there are none. */
  nearest(latitude: number, longitude: number): number {
    const [target] = [unitVectors([{ latitude, longitude }])];
    let best = -1;
    let bestDistance = Infinity;
    const visit = (lo: number, hi: number, axis: number): void => {
      if (lo >= hi) return;
      const mid = (lo + hi) >> 1;
      const i = this.order[mid];
      const dx = this.coords[i * 3] - target[0];
      const dy = this.coords[i * 3 + 1] - target[1];
      const dz = this.coords[i * 3 + 2] - target[2];
      const d = dx * dx + dy * dy + dz * dz;
      if (d < bestDistance || (d === bestDistance && i < best)) {
        bestDistance = d;
        best = i;
      }
      const delta = target[axis] - this.coords[i * 3 + axis];
      const next = (axis + 1) % 3;
      if (delta < 0) {
        visit(lo, mid, next);
        if (delta * delta <= bestDistance) visit(mid + 1, hi, next);
      } else {
        visit(mid + 1, hi, next);
        if (delta * delta <= bestDistance) visit(lo, mid, next);
      }
    };
    visit(0, this.order.length, 0);
    return best;
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
