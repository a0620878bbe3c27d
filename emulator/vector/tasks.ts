// The units of work a thread runs against segments (in-thread or in a worker): exact scans, ANN probes, index
// builds. Plain data, so the same objects travel by postMessage.
import type { DistanceMetric, Hit, RowBitset } from './types';

/** Rows [from, to) of one segment, in its local numbering; the global row is rowBase + local. */
export interface ScanPart {
  seg: number;
  rowBase: number;
  from: number;
  to: number;
}

export interface ExactTask {
  kind: 'exact';
  metric: DistanceMetric;
  /** Unit length for cosine (see prepareQuery). */
  query: Float32Array;
  k: number;
  parts: ScanPart[];
  dead?: RowBitset;
  allow?: RowBitset;
  /** Global rows below this have int8 codes and residuals, so the scan may bound them first. */
  quantized: number;
}

/** An indexed part: IVF when lists > 0 (probe the nprobe nearest lists), otherwise a flat int8 scan of [from, to). */
export interface AnnPart extends ScanPart {
  lists: number;
  nprobe: number;
}

export interface AnnTask {
  kind: 'ann';
  metric: DistanceMetric;
  query: Float32Array;
  k: number;
  /** Candidates kept from the int8 pass and re-scored exactly from the f32 rows. */
  rerank: number;
  /** Multiplies every part's nprobe (filters and deletes thin the lists out, so more lists are probed). */
  probeFactor: number;
  /** Decided once per search (ann-scan.ts likeData); undefined: each segment decides for itself. */
  likeData?: boolean;
  parts: AnnPart[];
  dead?: RowBitset;
  allow?: RowBitset;
}

export interface TaskResult {
  hits: Hit[];
  /** Rows whose distance (exact or int8) was computed. */
  scored: number;
}

/** Index work on one segment: quantise rows [quantizeFrom, quantizeTo), then build its IVF when buildIvf. */
export interface IndexSegmentJob {
  seg: number;
  quantizeFrom: number;
  quantizeTo: number;
  buildIvf: boolean;
  seed: number;
}

export interface IndexJob {
  kind: 'index';
  metric: DistanceMetric;
  segments: IndexSegmentJob[];
}

/** Quantise local rows [from, to) of one segment as they arrive, so exact scans can bound them with int8. */
export interface QuantizeJob {
  kind: 'quantize';
  metric: DistanceMetric;
  seg: number;
  from: number;
  to: number;
}

/** What an IVF build decided for one segment: lists = 0 means "scan it flat" (clustering did not pay). */
export interface IvfDecision {
  seg: number;
  lists: number;
  nprobe: number;
}

export interface IndexResult {
  built: IvfDecision[];
}

/** The query as the kernels expect it: a copy, normalised for cosine (a zero query stays zero). */
export function prepareQuery(query: Float32Array, metric: DistanceMetric): Float32Array {
  const q = Float32Array.from(query);
  if (metric === 'cosine_distance') {
    let s = 0;
    for (let i = 0; i < q.length; i++) s += q[i] * q[i];
    if (s > 0) {
      const inv = 1 / Math.sqrt(s);
      for (let i = 0; i < q.length; i++) q[i] *= inv;
    }
  }
  return q;
}
