// int8 quantisation of stored rows (codes, scale, norm, residual: everything the int8 passes read) and of a query
// in a thread's slot (codes widened to i16 for the estimate kernels).
import { widenCodes } from './kernels/kernels';
import { slotLayout } from './layout';
import type { SegmentRuntime } from './segment-runtime';
import type { DistanceMetric } from './types';

/** Quantises local rows [from, to) of a segment. Deterministic, so writing a row twice writes the same bytes. */
export function quantizeRows(rt: SegmentRuntime, metric: DistanceMetric, from: number, to: number): void {
  if (to <= from) return;
  const { layout, kernels } = rt;
  const d = layout.dims;
  const normalize = metric === 'cosine_distance';
  const src = layout.vectors + from * d * 4;
  const codes = layout.codes + from * d;
  const scales = layout.scales + from * 4;
  const norms = layout.norms + from * 4;
  kernels.quantize(src, to - from, d, normalize, codes, scales, norms);
  kernels.residuals(src, to - from, d, normalize, codes, scales, norms, layout.residuals + from * 4);
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
