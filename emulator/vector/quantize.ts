// int8 quantisation of stored rows (codes, scale, norm, residual: everything the int8 passes read) and of a query
// in a thread's slot (codes widened to i16 for the estimate kernels).
import { widenCodes } from './kernels/kernels';
import { slotLayout } from './layout';
import { backgroundYield } from './search-priority';
import type { SegmentRuntime } from './segment-runtime';
import type { DistanceMetric } from './types';

/** Rows quantised between two background yields: a short slice, so searches beside it wait little. */
const QUANTIZE_CHUNK_ROWS = 256;

/** Quantises local rows [from, to) of a segment. Deterministic, so writing a row twice writes the same bytes. */
export function quantizeRows(rt: SegmentRuntime, metric: DistanceMetric, from: number, to: number): void {
  const { layout, kernels } = rt;
  const d = layout.dims;
  const normalize = metric === 'cosine_distance';
  for (let at = from; at < to; at += QUANTIZE_CHUNK_ROWS) {
    if (at > from) backgroundYield();
    const n = Math.min(QUANTIZE_CHUNK_ROWS, to - at);
    const src = layout.vectors + at * d * 4;
    const codes = layout.codes + at * d;
    const scales = layout.scales + at * 4;
    const norms = layout.norms + at * 4;
    kernels.quantize(src, n, d, normalize, codes, scales, norms);
    kernels.residuals(src, n, d, normalize, codes, scales, norms, layout.residuals + at * 4);
    if (layout.signBytes > 0)
      kernels.signs(codes, n, d, layout.signs + at * layout.signBytes, layout.signBytes);
  }
}

/** Quantises the query already in this thread's slot (unit length for cosine). */
export function quantizeQuery(rt: SegmentRuntime, metric: DistanceMetric, slot: number): void {
  const { layout, kernels } = rt;
  const d = layout.dims;
  const sl = slotLayout(layout, slot);
  const normalize = metric === 'cosine_distance';
  kernels.quantize(sl.query, 1, d, normalize, sl.queryCodes8, sl.queryScale, sl.queryNorm);
  kernels.residuals(sl.query, 1, d, normalize, sl.queryCodes8, sl.queryScale, sl.queryNorm, sl.queryResidual);
  widenCodes(rt.i8, rt.i16, sl.queryCodes8, sl.queryCodes, d);
}
