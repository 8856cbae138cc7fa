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
}
