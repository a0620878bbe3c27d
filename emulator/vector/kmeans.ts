// k-means on a sample of one segment's rows, centroids written into the segment's centroids region. Spherical
// (unit-length centroids, nearest = largest cosine) for cosine_distance; plain Lloyd for euclidean_squared.
import { slotLayout } from './layout';
import { backgroundYield } from './search-priority';
import type { SegmentRuntime } from './segment-runtime';
import type { DistanceMetric } from './types';

/** |c|^2 of each centroid: euclidean ranking uses |c|^2 - 2 c.x (cosine centroids are unit length). */
export function centroidSqNorms(rt: SegmentRuntime, lists: number): Float64Array {
  const { layout, f32 } = rt;
  const d = layout.dims;
  const out = new Float64Array(lists);
  for (let c = 0; c < lists; c++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += f32[(layout.centroids >> 2) + c * d + j] ** 2;
    out[c] = s;
  }
  return out;
}

/**
 * The nearest centroid of one row: one dot-product pass over the centroids with the row itself as the query
 * (argmax c.x for cosine, argmin |c|^2 - 2 c.x for euclidean). Leaves the dots in the slot's scores.
 */
export function nearestCentroid(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  lists: number,
  sqNorms: Float64Array,
  local: number,
  slot: number,
): number {
  const { layout, kernels, f32 } = rt;
  const sl = slotLayout(layout, slot);
  kernels.dotF32(layout.centroids, lists, layout.dims, layout.vectors + local * layout.dims * 4, sl.scores);
  const s = sl.scores >> 2;
  const cosine = metric === 'cosine_distance';
  let best = 0;
  let bestKey = Number.POSITIVE_INFINITY;
  for (let l = 0; l < lists; l++) {
    const key = cosine ? -f32[s + l] : sqNorms[l] - 2 * f32[s + l];
    if (key < bestKey) {
      bestKey = key;
      best = l;
    }
  }
  return best;
}

/** Copies a row into centroid c (unit length for cosine; norms region must hold 1/|x|). */
function seedCentroid(rt: SegmentRuntime, metric: DistanceMetric, c: number, local: number): void {
  const { layout, f32 } = rt;
  const d = layout.dims;
  const src = (layout.vectors >> 2) + local * d;
  const dst = (layout.centroids >> 2) + c * d;
  const f = metric === 'cosine_distance' ? f32[(layout.norms >> 2) + local] : 1;
  for (let j = 0; j < d; j++) f32[dst + j] = f32[src + j] * f;
}

/**
 * Trains `lists` centroids on the sample rows (local numbers; quantize must have filled norms) and returns the
 * sample's final assignment.
 */
export function trainCentroids(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  sample: Uint32Array,
  lists: number,
  iterations: number,
  random: () => number,
  slot: number,
): Int32Array {
  const { layout, f32 } = rt;
  const d = layout.dims;
  const cosine = metric === 'cosine_distance';
  for (let c = 0; c < lists; c++) seedCentroid(rt, metric, c, sample[c % sample.length]);
  const assignment = new Int32Array(sample.length);
  const sums = new Float64Array(lists * d);
  const counts = new Uint32Array(lists);
  const vec = layout.vectors >> 2;
  const norms = layout.norms >> 2;
  const cen = layout.centroids >> 2;
  for (let it = 0; it <= iterations; it++) {
    const sqNorms = centroidSqNorms(rt, lists);
    for (let i = 0; i < sample.length; i++) {
      if ((i & 511) === 511) backgroundYield();
      assignment[i] = nearestCentroid(rt, metric, lists, sqNorms, sample[i], slot);
    }
    if (it === iterations) break;
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < sample.length; i++) {
      const c = assignment[i];
      const local = sample[i];
      const f = cosine ? f32[norms + local] : 1;
      const src = vec + local * d;
      const dst = c * d;
      for (let j = 0; j < d; j++) sums[dst + j] += f32[src + j] * f;
      counts[c]++;
    }
    for (let c = 0; c < lists; c++) {
      if (counts[c] === 0) {
        seedCentroid(rt, metric, c, sample[Math.floor(random() * sample.length)]);
        continue;
      }
      let scale = 1 / counts[c];
      if (cosine) {
        let s = 0;
        for (let j = 0; j < d; j++) s += sums[c * d + j] * sums[c * d + j];
        scale = s > 0 ? 1 / Math.sqrt(s) : 0;
      }
      for (let j = 0; j < d; j++) f32[cen + c * d + j] = sums[c * d + j] * scale;
    }
  }
  return assignment;
}
