// ANN tasks: an int8 pass over indexed rows (flat, or over the IVF lists worth probing), then an exact re-score of
// the best estimates from the f32 rows. Runs on whichever thread calls it; `slot` is that thread's scratch area.
import { hasBit } from './bitset';
import { canSkipList, chord } from './bounds';
import type { Estimate } from './kernels/kernels';
import { CHUNK_ROWS, signBytes, slotLayout } from './layout';
import { quantizeQuery } from './quantize';
import { estimateFor, estimateRows, exactKernel, keepScored, type SegmentLookup, scoreIds } from './scoring';
import type { SegmentRuntime } from './segment-runtime';
import type { AnnPart, AnnTask, TaskResult } from './tasks';
import { TopK } from './top-k';

/** Whether the query (prepared, as in a task) is within the radius of its nearest list in this IVF segment. */
function withinNearestRadius(
  rt: SegmentRuntime,
  metric: AnnTask['metric'],
  query: Float32Array,
  lists: number,
  slot: number,
): boolean {
  const { layout, f32 } = rt;
  const sl = slotLayout(layout, slot);
  f32.set(query, sl.query >> 2);
  exactKernel(rt, metric)(layout.centroids, lists, layout.dims, sl.query, sl.scores);
  let nearest = 0;
  for (let l = 1; l < lists; l++)
    if (f32[(sl.scores >> 2) + l] < f32[(sl.scores >> 2) + nearest]) nearest = l;
  return chord(metric, f32[(sl.scores >> 2) + nearest]) <= f32[(layout.radii >> 2) + nearest];
}

/**
 * Does the query look like the data nprobe was calibrated on? Per segment: no farther from its nearest centroid
 * than that list's own rows (its 95th-percentile radius). A data-like query fails that test in about 1 segment in
 * 20 by construction, which at 1M rows (15 IVF segments) sent most queries down the slow path in some segment; a
 * query unlike the data (random queries on clustered data) fails it in most segments. So the search decides once,
 * by a strict majority of the IVF segments, and every segment follows. Runs on `slot` of the calling thread
 * (centroids only: lists x dims per segment).
 */
export function likeData(
  parts: readonly AnnPart[],
  lookup: SegmentLookup,
  metric: AnnTask['metric'],
  query: Float32Array,
  slot: number,
): boolean | undefined {
  const ivf = parts.filter((p) => p.lists > 0);
  if (ivf.length < 2) return undefined;
  const within = ivf.filter((p) => withinNearestRadius(lookup(p.seg), metric, query, p.lists, slot)).length;
  return within * 2 > ivf.length;
}

/**
 * Sign-sketch pre-pass for flat parts (README "Searching"): only where a sketch tells rows apart (cosine, many
 * dimensions), where the int8 pass it saves is large, and without a filter (a filter's few rows are scored anyway).
 */
const SKETCH_MIN_ROWS = 16_384;
const SKETCH_MIN_DIMS = 256;
/**
 * Share of a part's rows, nearest by sketch, that get int8 estimates. i.i.d. random 768-d vectors are the hardest
 * case (true neighbours are barely closer than the rest): recall@10 0.964 there with 10% (benchmarks/bench-vector.ts).
 */
const SKETCH_SHARE = 0.1;
/** When the sketch cannot separate rows (ties: e.g. all-positive data), the part is scanned whole after all. */
const SKETCH_GIVE_UP_SHARE = 0.5;

/** Whether a flat part of `rows` rows gets the sign-sketch pre-pass (`filtered`: the search has an allow set). */
export function sketches(metric: AnnTask['metric'], dims: number, rows: number, filtered: boolean): boolean {
  return (
    !filtered &&
    metric === 'cosine_distance' &&
    signBytes(dims) > 0 &&
    dims >= SKETCH_MIN_DIMS &&
    rows >= SKETCH_MIN_ROWS
  );
}

/**
 * Relative costs per row, in rows of a contiguous int8 pass, for cutting a search into equal pieces. From a
 * `--cpu-prof` of 1M x 768 searches on the worker pool: int8 estimates of rows gathered by id (IVF lists, sketch
 * candidates) cost about 3x contiguous ones (a cache miss per row); a sketched row about 0.3 for the Hamming pass and
 * its selection, plus its 10% share gathered; an f32 centroid about 2.
 */
const GATHERED_ROW_COST = 3;
const SKETCHED_ROW_COST = 0.3 + SKETCH_SHARE * GATHERED_ROW_COST;
const CENTROID_COST = 2;

/** A part's cost in int8-row units (see above); `filtered` as in sketches(). */
export function annPartCost(
  part: AnnPart,
  metric: AnnTask['metric'],
  dims: number,
  probeFactor: number,
  filtered: boolean,
): number {
  const rows = part.to - part.from;
  if (part.lists > 0)
    return (
      part.lists * CENTROID_COST +
      rows * Math.min(1, (part.nprobe * probeFactor) / part.lists) * GATHERED_ROW_COST
    );
  return sketches(metric, dims, rows, filtered) ? rows * SKETCHED_ROW_COST : rows;
}

/** Per-thread scratch: the sketch distance of every row of the part being searched. */
let sketchDistances = new Uint16Array(0);

/**
 * int8 estimates for the rows of a flat part nearest to the query by Hamming distance of sign sketches; returns
 * rows scored, or null when the sketch does not discriminate (the caller scans the part whole).
 */
function sketchPart(
  rt: SegmentRuntime,
  task: AnnTask,
  part: AnnPart,
  slot: number,
  approx: TopK,
  kth: TopK,
  estimate: Estimate,
): number | null {
  const { layout, kernels, f32, u32, i8 } = rt;
  const { dims, signBytes } = layout;
  const rows = part.to - part.from;
  const sl = slotLayout(layout, slot);
  // The query's sketch from its floats (the rows' come from their codes: the same signs, except values that round
  // to code 0).
  const qs = sl.querySigns;
  i8.fill(0, qs, qs + signBytes);
  const q = sl.query >> 2;
  for (let j = 0; j < dims; j++) if (f32[q + j] < 0) i8[qs + (j >> 3)] |= 1 << (j & 7);
  if (sketchDistances.length < rows) sketchDistances = new Uint16Array(rows);
  const distances = sketchDistances;
  const histogram = new Uint32Array(dims + 1);
  const s = sl.scores >> 2;
  for (let c = 0; c < rows; c += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, rows - c);
    kernels.hamming(layout.signs + (part.from + c) * signBytes, n, signBytes, qs, sl.scores);
    for (let i = 0; i < n; i++) {
      const h = u32[s + i];
      distances[c + i] = h;
      histogram[h]++;
    }
  }
  // The smallest distance cut that keeps the budget: every row at or under it (ties included) is estimated.
  const budget = Math.ceil(rows * SKETCH_SHARE);
  let cut = 0;
  let kept = histogram[0];
  while (kept < budget && cut < dims) kept += histogram[++cut];
  if (kept > rows * SKETCH_GIVE_UP_SHARE) return null;
  const ids = sl.ids >> 2;
  let m = 0;
  const estimateGathered = (): void => {
    kernels.estimateI8Ids(layout.codes, sl.ids, m, dims, sl.queryCodes, sl.scores, estimate);
    // Dead rows were left out of the gather already: no filter to apply here.
    keepScored(rt, s, m, part.rowBase, ids, undefined, undefined, approx, kth);
    m = 0;
  };
  const { dead } = task;
  for (let i = 0; i < rows; i++) {
    if (distances[i] > cut) continue;
    const local = part.from + i;
    if (dead && hasBit(dead, part.rowBase + local)) continue;
    u32[ids + m++] = local;
    if (m === CHUNK_ROWS) estimateGathered();
  }
  if (m > 0) estimateGathered();
  return kept;
}

/** int8 pass over one part into `approx`; returns rows scored. */
function annPart(
  rt: SegmentRuntime,
  task: AnnTask,
  part: AnnPart,
  slot: number,
  approx: TopK,
  kth: TopK,
): number {
  const { layout, kernels, f32, u32 } = rt;
  const { dims } = layout;
  const { dead, allow } = task;
  const sl = slotLayout(layout, slot);
  f32.set(task.query, sl.query >> 2);
  quantizeQuery(rt, task.metric, slot);
  const estimate = estimateFor(rt, task.metric, slot);
  const s = sl.scores >> 2;
  if (part.lists === 0) {
    const sketched = sketches(task.metric, dims, part.to - part.from, allow !== undefined)
      ? sketchPart(rt, task, part, slot, approx, kth, estimate)
      : null;
    if (sketched !== null) return sketched;
    for (let c = part.from; c < part.to; c += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, part.to - c);
      estimateRows(rt, sl, estimate, c, n);
      keepScored(rt, s, n, part.rowBase + c, null, dead, allow, approx, kth);
    }
    return part.to - part.from;
  }
  // IVF: rank the segment's centroids and scan the nprobe nearest lists (scaled up for filters). nprobe was
  // calibrated on held-out rows (index-build.ts), so it holds for queries that look like the data (task.likeData,
  // decided once per search over every segment: likeData above). Any other query (e.g. random queries on clustered
  // data) also scans every further list the triangle inequality cannot rule out against the running k-th best
  // estimate, so it probes more lists instead of losing recall. Lists of several clusters have radii too wide for
  // that bound to rule much out, so applying it to data-like queries as well made them scan nearly every list.
  exactKernel(rt, task.metric)(layout.centroids, part.lists, dims, sl.query, sl.scores);
  const order = Array.from({ length: part.lists }, (_, l) => l);
  const centroidChord = Array.from({ length: part.lists }, (_, l) => chord(task.metric, f32[s + l]));
  order.sort((a, b) => centroidChord[a] - centroidChord[b] || a - b);
  const probes = Math.min(part.lists, Math.ceil(part.nprobe * task.probeFactor));
  const offsets = layout.listOffsets >> 2;
  const radii = layout.radii >> 2;
  const likeData = task.likeData ?? centroidChord[order[0]] <= f32[radii + order[0]];
  const ids = layout.ids >> 2;
  let scored = 0;
  for (let p = 0; p < part.lists; p++) {
    const l = order[p];
    if (p >= probes) {
      if (likeData) break;
      if (canSkipList(centroidChord[l], f32[radii + l], chord(task.metric, kth.threshold))) continue;
    }
    const start = u32[offsets + l];
    const end = u32[offsets + l + 1];
    for (let c = start; c < end; c += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, end - c);
      kernels.estimateI8Ids(layout.codes, layout.ids + c * 4, n, dims, sl.queryCodes, sl.scores, estimate);
      keepScored(rt, s, n, part.rowBase, ids + c, dead, allow, approx, kth);
      scored += n;
    }
  }
  return scored;
}

/** Re-scores the int8 candidates exactly from the f32 rows and keeps the task's top k. */
function rerank(task: AnnTask, lookup: SegmentLookup, slot: number, candidates: number[], top: TopK): void {
  candidates.sort((a, b) => a - b);
  let c = 0;
  for (const part of [...task.parts].sort((a, b) => a.rowBase + a.from - (b.rowBase + b.from))) {
    const lo = part.rowBase + part.from;
    const hi = part.rowBase + part.to;
    while (c < candidates.length && candidates[c] < lo) c++;
    if (c >= candidates.length || candidates[c] >= hi) continue;
    const rt = lookup(part.seg);
    const sl = slotLayout(rt.layout, slot);
    rt.f32.set(task.query, sl.query >> 2);
    const ids = sl.ids >> 2;
    let n = 0;
    while (c < candidates.length && candidates[c] < hi) {
      rt.u32[ids + n++] = candidates[c++] - part.rowBase;
      if (n === CHUNK_ROWS) {
        scoreIds(rt, task.metric, slot, part.rowBase, n, top);
        n = 0;
      }
    }
    if (n > 0) scoreIds(rt, task.metric, slot, part.rowBase, n, top);
  }
}

export function runAnn(task: AnnTask, lookup: SegmentLookup, slot: number): TaskResult {
  const approx = new TopK(Math.max(task.rerank, task.k));
  // The k best estimates so far: the distance a row must beat, which bounds the lists worth probing.
  const kth = new TopK(task.k);
  let scored = 0;
  for (const part of task.parts) scored += annPart(lookup(part.seg), task, part, slot, approx, kth);
  const top = new TopK(task.k);
  rerank(
    task,
    lookup,
    slot,
    approx.hits().map((h) => h.row),
    top,
  );
  return { hits: top.hits(), scored };
}
