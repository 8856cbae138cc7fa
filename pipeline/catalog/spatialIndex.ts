// A k-d tree over the places' unit vectors on the sphere (where the straight-line nearest is also the
// great-circle nearest, with no special cases at the poles or the date line), built by the pipeline.
// The tree is implicit in an order of the places: the node of [lo, hi) is at (lo + hi) >> 1, split on depth % 3.

export interface Point {
  latitude: number;
  longitude: number;
}

export function unitVectors(points: readonly Point[]): Float64Array {
  const rad = Math.PI / 180;
  const out = new Float64Array(points.length * 3);
  points.forEach((p, i) => {
    const cosLat = Math.cos(p.latitude * rad);
    out[i * 3] = cosLat * Math.cos(p.longitude * rad);
    out[i * 3 + 1] = cosLat * Math.sin(p.longitude * rad);
    out[i * 3 + 2] = Math.sin(p.latitude * rad);
  });
  return out;
}

export function buildSpatialOrder(points: readonly Point[]): Int32Array {
  const coords = unitVectors(points);
  const order = Int32Array.from(points.keys());
  const build = (lo: number, hi: number, axis: number): void => {
    if (hi - lo <= 1) return;
    const slice = Array.from(order.subarray(lo, hi)).sort((a, b) => coords[a * 3 + axis] - coords[b * 3 + axis] || a - b);
    order.set(slice, lo);
    const mid = (lo + hi) >> 1;
    build(lo, mid, (axis + 1) % 3);
    build(mid + 1, hi, (axis + 1) % 3);
  };
  build(0, points.length, 0);
  return order;
}
