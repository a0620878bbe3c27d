// Index work for a batch of rows: int8 quantisation, and for each segment that filled up an IVF build that first
// checks, on a sample, whether clustering pays off at all (the adaptive rule, see README.md).
import { chord } from './bounds';
import { widenCodes } from './kernels/kernels';
import { centroidSqNorms, nearestCentroid, trainCentroids } from './kmeans';
import { CHUNK_ROWS, MAX_LISTS, slotLayout } from './layout';
import { quantizeRows } from './quantize';
import { sampleDistinct, seededRandom } from './random';
import type { SegmentLookup } from './scoring';
import { backgroundYield } from './search-priority';
import type { SegmentRuntime } from './segment-runtime';
import type { IndexJob, IndexResult, IvfDecision } from './tasks';
import type { DistanceMetric } from './types';

/** Segments smaller than this are always scanned flat (an int8 pass over them is short: docs/engine-measurements.md §2). */
export const IVF_MIN_ROWS = 16_384;
/** Average rows per IVF list the list count aims for. */
const ROWS_PER_LIST = 128;
/** Sample rows per list for training (and for the recall check). */
const SAMPLE_PER_LIST = 40;
const KMEANS_ITERATIONS = 5;
/** The list radius for pruning is this quantile of its rows' distances from the centroid (see bounds.ts). */
const RADIUS_QUANTILE = 0.95;
/** Held-out rows per list that stand in for the database in the recall check. */
const HELDOUT_PER_LIST = 32;
/** Queries of the recall check, and the k of the recall@k the chosen nprobe must reach on the sample. */
const CHECK_QUERIES = 128;
const CHECK_K = 10;

/**
 * The k to check on a sample of `sampleRows` out of `rows`: the neighbours that are among a query's 10 nearest in
 * the whole segment are, on average, its 10 x sampleRows / rows nearest in the sample. Checking recall@10 on a 1/16
 * sample instead measured the wrong thing for data with many small clusters (1,000 clusters in a 64k segment leave
 * ~4 sample rows per cluster, so 6 of a query's 10 sample neighbours came from unrelated clusters spread over every
 * list, and well-clustered segments were scanned flat).
 */
export function checkK(sampleRows: number, rows: number): number {
  return Math.max(1, Math.min(CHECK_K, Math.round((CHECK_K * sampleRows) / rows)));
}
const TARGET_RECALL = 0.95;
/** If reaching TARGET_RECALL needs more than this share of the lists, the segment is scanned flat instead. */
export const MAX_PROBE_SHARE = 0.4;

export function listCount(rows: number): number {
  return Math.max(8, Math.min(MAX_LISTS, Math.round(rows / ROWS_PER_LIST)));
}

/**
 * Smallest nprobe whose recall@k (k = checkK) reaches TARGET_RECALL for held-out queries against a held-out database sample
 * (neither was used to train the centroids: training rows sit unusually close to their own centroid, which made
 * in-sample estimates far too optimistic on random data). A true neighbour is found with p probes iff its list
 * ranks among the query's p nearest centroids, so one pass per query gives the whole recall curve.
 */
function sampleNprobe(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  sample: Uint32Array,
  assignment: Int32Array,
  queryRows: Uint32Array,
  lists: number,
  slot: number,
): number {
  const { layout, kernels, f32, u32 } = rt;
  const d = layout.dims;
  const sl = slotLayout(layout, slot);
  const cosine = metric === 'cosine_distance';
  const idsKernel = cosine ? kernels.cosF32Ids : kernels.l2F32Ids;
  const kernel = cosine ? kernels.cosF32 : kernels.l2F32;
  const rankHits = new Float64Array(lists + 1);
  const dists = new Float32Array(sample.length);
  const s = sl.scores >> 2;
  let counted = 0;
  for (const qLocal of queryRows) {
    backgroundYield();
    // The query row, unit length for cosine.
    const src = (layout.vectors >> 2) + qLocal * d;
    const f = cosine ? f32[(layout.norms >> 2) + qLocal] : 1;
    for (let j = 0; j < d; j++) f32[(sl.query >> 2) + j] = f32[src + j] * f;
    for (let c = 0; c < sample.length; c += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, sample.length - c);
      u32.set(sample.subarray(c, c + n), sl.ids >> 2);
      idsKernel(layout.vectors, sl.ids, n, d, sl.query, sl.scores);
      dists.set(f32.subarray(s, s + n), c);
    }
    const truth = Array.from({ length: sample.length }, (_, i) => i)
      .sort((a, b) => dists[a] - dists[b] || a - b)
      .slice(0, checkK(sample.length, layout.capacity));
    kernel(layout.centroids, lists, d, sl.query, sl.scores);
    const order = Array.from({ length: lists }, (_, l) => l).sort((a, b) => f32[s + a] - f32[s + b] || a - b);
    const rank = new Int32Array(lists);
    order.forEach((l, r) => {
      rank[l] = r;
    });
    for (const t of truth) rankHits[rank[assignment[t]] + 1]++;
    counted += truth.length;
  }
  if (counted === 0) return 1;
  let found = 0;
  for (let p = 1; p <= lists; p++) {
    found += rankHits[p];
    if (found / counted >= TARGET_RECALL) return p;
  }
  return lists;
}

/** Lays the segment's rows out in list order (ids + listOffsets) for the given centroids. */
function layoutLists(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  rows: number,
  lists: number,
  slot: number,
): void {
  const { layout, u32, f32, kernels } = rt;
  const d = layout.dims;
  const cosine = metric === 'cosine_distance';
  const assign = new Uint16Array(rows);
  const counts = new Uint32Array(lists + 1);
  const memberChord = new Float32Array(rows);
  const sl = slotLayout(layout, slot);
  const scores = sl.scores >> 2;
  const norms = layout.norms >> 2;
  const scales = layout.scales >> 2;
  const sqNorms = centroidSqNorms(rt, lists);
  // Rows are assigned with int8 estimates against quantised centroids (several times faster than f32 here, where
  // the centroids sit in cache and the work is compute-bound); the radius then uses the exact distance.
  kernels.quantize(
    layout.centroids,
    lists,
    d,
    cosine,
    layout.centroidCodes,
    layout.centroidScales,
    layout.centroidNorms,
  );
  const estimate = {
    scales: layout.centroidScales,
    norms: layout.centroidNorms,
    c: 0,
    w: cosine ? 0 : 1,
    b: -1,
  };
  for (let r = 0; r < rows; r++) {
    if ((r & 1023) === 1023) backgroundYield();
    // Cosine: argmax scale_c * dot (the row's scale is common to all). Euclidean: argmin |c|^2 - 2 c.x.
    estimate.b = cosine ? -1 : -2 * f32[scales + r];
    widenCodes(rt.i8, rt.i16, layout.codes + r * d, sl.queryCodes, d);
    kernels.estimateI8(layout.centroidCodes, lists, d, sl.queryCodes, sl.scores, estimate);
    let l = 0;
    for (let c = 1; c < lists; c++) if (f32[scores + c] < f32[scores + l]) l = c;
    assign[r] = l;
    counts[l + 1]++;
    kernels.dotF32(layout.centroids + l * d * 4, 1, d, layout.vectors + r * d * 4, sl.scores);
    // norms hold 1/|x| (cosine) or |x|^2 (euclidean).
    const dot = f32[scores];
    const dist = cosine ? 1 - dot * f32[norms + r] : f32[norms + r] + sqNorms[l] - 2 * dot;
    memberChord[r] = chord(metric, dist);
  }
  const offsets = layout.listOffsets >> 2;
  u32[offsets] = 0;
  for (let l = 0; l < lists; l++) u32[offsets + l + 1] = u32[offsets + l] + counts[l + 1];
  const next = new Uint32Array(lists);
  for (let l = 0; l < lists; l++) next[l] = u32[offsets + l];
  const ids = layout.ids >> 2;
  for (let r = 0; r < rows; r++) u32[ids + next[assign[r]]++] = r;
  for (let l = 0; l < lists; l++) {
    const members = Float32Array.from(
      u32.subarray(ids + u32[offsets + l], ids + u32[offsets + l + 1]),
      (r) => memberChord[r],
    ).sort();
    const at = Math.min(members.length - 1, Math.floor(members.length * RADIUS_QUANTILE));
    f32[(layout.radii >> 2) + l] = members.length > 0 ? members[at] : 0;
  }
}

/** Builds the IVF of a full segment, or decides it is better scanned flat. */
export function buildIvf(
  rt: SegmentRuntime,
  metric: DistanceMetric,
  seed: number,
  slot: number,
): Omit<IvfDecision, 'seg'> {
  const rows = rt.layout.capacity;
  if (rows < IVF_MIN_ROWS) return { lists: 0, nprobe: 0 };
  const lists = listCount(rows);
  const random = seededRandom(seed);
  const train = lists * SAMPLE_PER_LIST;
  const held = lists * HELDOUT_PER_LIST;
  const rowsSample = sampleDistinct(rows, train + held + CHECK_QUERIES, random);
  const trainRows = rowsSample.subarray(0, train);
  const heldRows = rowsSample.subarray(train, train + held);
  const queryRows = rowsSample.subarray(train + held);
  trainCentroids(rt, metric, trainRows, lists, KMEANS_ITERATIONS, random, slot);
  const sqNorms = centroidSqNorms(rt, lists);
  backgroundYield();
  const heldAssignment = Int32Array.from(heldRows, (r) =>
    nearestCentroid(rt, metric, lists, sqNorms, r, slot),
  );
  backgroundYield();
  const nprobe = sampleNprobe(rt, metric, heldRows, heldAssignment, queryRows, lists, slot);
  if (nprobe > lists * MAX_PROBE_SHARE) return { lists: 0, nprobe: 0 };
  layoutLists(rt, metric, rows, lists, slot);
  return { lists, nprobe };
}

export function runIndexJob(job: IndexJob, lookup: SegmentLookup, slot: number): IndexResult {
  const built: IvfDecision[] = [];
  for (const s of job.segments) {
    const rt = lookup(s.seg);
    quantizeRows(rt, job.metric, s.quantizeFrom, s.quantizeTo);
    if (s.buildIvf) built.push({ ...buildIvf(rt, job.metric, s.seed, slot), seg: s.seg });
  }
  return { built };
}
