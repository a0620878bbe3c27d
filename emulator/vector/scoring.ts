// What the exact and the ANN scans share: the per-metric kernels, exact scoring of listed rows, keeping a chunk of
// scored rows, and int8 estimates of a quantised query (its constants, a chunk of rows).
import { hasBit } from './bitset';
import type { Estimate } from './kernels/kernels';
import { type SlotLayout, slotLayout } from './layout';
import type { SegmentRuntime } from './segment-runtime';
import type { TopK } from './top-k';
import type { DistanceMetric, RowBitset } from './types';

export type SegmentLookup = (seg: number) => SegmentRuntime;

export function exactKernel(rt: SegmentRuntime, metric: DistanceMetric) {
  return metric === 'cosine_distance' ? rt.kernels.cosF32 : rt.kernels.l2F32;
}

function exactIdsKernel(rt: SegmentRuntime, metric: DistanceMetric) {
  return metric === 'cosine_distance' ? rt.kernels.cosF32Ids : rt.kernels.l2F32Ids;
}

/**
 * Exact distances for `n` local rows of one segment whose numbers are already in the slot's ids (the query in the
 * slot's query), pushed into every heap given.
 */
export function scoreIds(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  slot: number,
  rowBase: number,
  n: number,
  top: TopK,
  also?: TopK,
): void {
  const { layout } = rt;
  const sl = slotLayout(layout, slot);
  exactIdsKernel(rt, metric)(layout.vectors, sl.ids, n, layout.dims, sl.query, sl.scores);
  const s = sl.scores >> 2;
  const ids = sl.ids >> 2;
  for (let i = 0; i < n; i++) {
    const d = rt.f32[s + i];
    const row = rowBase + rt.u32[ids + i];
    top.push(d, row);
    also?.push(d, row);
  }
}

/**
 * Offers `n` scored rows to `top` and `also`, leaving out dead rows and rows the filter does not allow. Distances are
 * at f32[s .. s+n); row i is `rowBase` + i, or `rowBase` + u32[ids + i] when the rows were gathered by id. `top` sets
 * the bar; its threshold only changes on a push, so it is read once per push, not once per row (scans call this on
 * every row they score).
 */
export function keepScored(
  rt: SegmentRuntime,
  s: number,
  n: number,
  rowBase: number,
  ids: number | null,
  dead: RowBitset | undefined,
  allow: RowBitset | undefined,
  top: TopK,
  also: TopK,
): void {
  const { f32, u32 } = rt;
  let threshold = top.threshold;
  for (let i = 0; i < n; i++) {
    const d = f32[s + i];
    if (!(d <= threshold)) continue;
    const row = rowBase + (ids === null ? i : u32[ids + i]);
    if (dead && hasBit(dead, row)) continue;
    if (allow && !hasBit(allow, row)) continue;
    top.push(d, row);
    also.push(d, row);
    threshold = top.threshold;
  }
}

/** int8 estimates for the `n` local rows from `c` (which have codes) into the slot's scores. */
export function estimateRows(
  rt: SegmentRuntime,
  sl: SlotLayout,
  estimate: Estimate,
  c: number,
  n: number,
): void {
  const { layout } = rt;
  rt.kernels.estimateI8(layout.codes + c * layout.dims, n, layout.dims, sl.queryCodes, sl.scores, {
    ...estimate,
    scales: layout.scales + c * 4,
    norms: layout.norms + c * 4,
  });
}

/** The estimate constants for this thread's quantised query in one segment (see kernels.wat estimate_i8). */
export function estimateFor(rt: SegmentRuntime, metric: DistanceMetric, slot: number): Estimate {
  const { layout, f32 } = rt;
  const sl = slotLayout(layout, slot);
  const qScale = f32[sl.queryScale >> 2];
  const qNorm = f32[sl.queryNorm >> 2];
  // Cosine: 1 - x.q on unit vectors. Euclidean: |x - q|^2 = |x|^2 - 2 x.q + |q|^2. x.q estimated from the codes.
  return metric === 'cosine_distance'
    ? { scales: layout.scales, norms: layout.norms, c: 1, w: 0, b: -qScale }
    : { scales: layout.scales, norms: layout.norms, c: qNorm, w: 1, b: -2 * qScale };
}
