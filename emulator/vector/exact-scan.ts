// Exact tasks: the k nearest rows of a row range. Rows that already have int8 codes are bounded first: an int8
// estimate plus the quantisation error of row and query (per-row residual norms) brackets every exact distance, so
// only rows whose lower bound can beat the k-th best upper bound are re-scored from the f32 rows. The result is
// exact; the pass reads a quarter of the bytes. Rows without codes yet are scanned in f32.
import { countRows, forEachRow, hasBit } from './bitset';
import { CHUNK_ROWS, slotLayout } from './layout';
import { quantizeQuery } from './quantize';
import { estimateFor, estimateRows, exactKernel, keepScored, type SegmentLookup, scoreIds } from './scoring';
import type { SegmentRuntime } from './segment-runtime';
import type { ExactTask, ScanPart, TaskResult } from './tasks';
import { TopK } from './top-k';

/** Below this share of allowed rows a filtered exact scan gathers the allowed rows instead of scanning all. */
const GATHER_SHARE = 0.25;
/** Relative slack on the error bound for f32 rounding in the estimate and in the exact kernels. */
const ROUNDING_SLACK = 1e-5;

/** Rows of one part that survived the int8 bound: local numbers and lower bounds. */
interface Candidates {
  part: ScanPart;
  rt: SegmentRuntime;
  rows: number[];
  lower: number[];
}

/** Sparse filter: scores only the allowed rows, exactly. Returns rows scored, or -1 when the filter is not sparse. */
function gatherPart(
  rt: SegmentRuntime,
  task: ExactTask,
  part: ScanPart,
  slot: number,
  top: TopK,
  bound: TopK,
): number {
  const { dead, allow, metric } = task;
  if (!allow) return -1;
  const gFrom = part.rowBase + part.from;
  const gTo = part.rowBase + part.to;
  const allowed = countRows(allow, gFrom, gTo, dead);
  if (allowed >= (part.to - part.from) * GATHER_SHARE) return -1;
  const sl = slotLayout(rt.layout, slot);
  rt.f32.set(task.query, sl.query >> 2);
  let n = 0;
  const ids = sl.ids >> 2;
  forEachRow(allow, gFrom, gTo, dead, (row) => {
    rt.u32[ids + n++] = row - part.rowBase;
    if (n === CHUNK_ROWS) {
      scoreIds(rt, metric, slot, part.rowBase, n, top, bound);
      n = 0;
    }
  });
  if (n > 0) scoreIds(rt, metric, slot, part.rowBase, n, top, bound);
  return allowed;
}

/** f32 scan of local rows [from, to) into `top` (and `bound`, which exact distances tighten too). */
function f32Part(
  rt: SegmentRuntime,
  task: ExactTask,
  part: ScanPart,
  slot: number,
  top: TopK,
  bound: TopK,
): void {
  const { layout, f32 } = rt;
  const { dims } = layout;
  const { dead, allow } = task;
  const sl = slotLayout(layout, slot);
  f32.set(task.query, sl.query >> 2);
  const kernel = exactKernel(rt, task.metric);
  const s = sl.scores >> 2;
  for (let c = part.from; c < part.to; c += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, part.to - c);
    kernel(layout.vectors + c * dims * 4, n, dims, sl.query, sl.scores);
    keepScored(rt, s, n, part.rowBase + c, null, dead, allow, top, bound);
  }
}

/**
 * int8 pass over local rows [from, to) (which have codes): every row's exact distance lies within e +- eps, e the
 * estimate and eps from the residuals (see below). `bound` keeps the k smallest upper bounds; rows whose lower
 * bound does not exceed it are kept as candidates.
 */
function boundedPart(
  rt: SegmentRuntime,
  task: ExactTask,
  part: ScanPart,
  slot: number,
  bound: TopK,
): Candidates {
  const { layout, f32 } = rt;
  const { dead, allow } = task;
  const cosine = task.metric === 'cosine_distance';
  const sl = slotLayout(layout, slot);
  f32.set(task.query, sl.query >> 2);
  quantizeQuery(rt, task.metric, slot);
  const estimate = estimateFor(rt, task.metric, slot);
  const qRes = f32[sl.queryResidual >> 2];
  const qLen = cosine ? 1 : Math.sqrt(f32[sl.queryNorm >> 2]);
  const norms = layout.norms >> 2;
  const residuals = layout.residuals >> 2;
  const s = sl.scores >> 2;
  const out: Candidates = { part, rt, rows: [], lower: [] };
  for (let c = part.from; c < part.to; c += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, part.to - c);
    estimateRows(rt, sl, estimate, c, n);
    let threshold = bound.threshold;
    for (let i = 0; i < n; i++) {
      const local = c + i;
      const e = f32[s + i];
      const r = f32[residuals + local];
      // With x = s_x c_x + r_x and q = s_q c_q + r_q: |x.q - s_x s_q c_x.c_q| <= (|x| + |r_x|) |r_q| + |r_x| |q|.
      // Cosine works on unit vectors (|x| = |q| = 1); euclidean distances move by twice the dot error.
      const xLen = cosine ? 1 : Math.sqrt(f32[norms + local]);
      const dotError = (xLen + r) * qRes + r * qLen;
      const eps = (cosine ? dotError : 2 * dotError) + ROUNDING_SLACK * (1 + Math.abs(e) + xLen * xLen);
      const lower = e - eps;
      if (lower > threshold) continue;
      const row = part.rowBase + local;
      if (dead && hasBit(dead, row)) continue;
      if (allow && !hasBit(allow, row)) continue;
      bound.push(e + eps, row);
      threshold = bound.threshold;
      out.rows.push(local);
      out.lower.push(lower);
    }
    // The threshold only falls: drop candidates it has ruled out since they were kept.
    if (out.rows.length > 4 * CHUNK_ROWS) compact(out, bound.threshold);
  }
  return out;
}

function compact(cands: Candidates, threshold: number): void {
  let w = 0;
  for (let i = 0; i < cands.rows.length; i++) {
    if (cands.lower[i] > threshold) continue;
    cands.rows[w] = cands.rows[i];
    cands.lower[w++] = cands.lower[i];
  }
  cands.rows.length = w;
  cands.lower.length = w;
}

/** Exact distances of the candidates that can still make the top k. */
function rescore(task: ExactTask, cands: Candidates, slot: number, threshold: number, top: TopK): void {
  compact(cands, threshold);
  const { rt, part } = cands;
  const sl = slotLayout(rt.layout, slot);
  rt.f32.set(task.query, sl.query >> 2);
  const ids = sl.ids >> 2;
  for (let c = 0; c < cands.rows.length; c += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, cands.rows.length - c);
    for (let i = 0; i < n; i++) rt.u32[ids + i] = cands.rows[c + i];
    scoreIds(rt, task.metric, slot, part.rowBase, n, top);
  }
}

export function runExact(task: ExactTask, lookup: SegmentLookup, slot: number): TaskResult {
  const top = new TopK(task.k);
  // The k smallest upper bounds seen (exact distances are their own bounds): no row above it can make the top k.
  const bound = new TopK(task.k);
  const pending: Candidates[] = [];
  let scored = 0;
  for (const part of task.parts) {
    const rt = lookup(part.seg);
    const gathered = gatherPart(rt, task, part, slot, top, bound);
    if (gathered >= 0) {
      scored += gathered;
      continue;
    }
    if (
      task.allow &&
      countRows(task.allow, part.rowBase + part.from, part.rowBase + part.to, task.dead) === 0
    )
      continue;
    const coded = Math.min(part.to, Math.max(part.from, task.quantized - part.rowBase));
    if (coded > part.from) {
      const bounded = { ...part, to: coded };
      const cands = boundedPart(rt, task, bounded, slot, bound);
      compact(cands, bound.threshold);
      // Loose bounds (e.g. rows dominated by one huge coordinate) leave too many rows to gather: scan them instead.
      if (cands.rows.length > (coded - part.from) * GATHER_SHARE)
        f32Part(rt, task, bounded, slot, top, bound);
      else pending.push(cands);
    }
    if (coded < part.to) f32Part(rt, task, { ...part, from: coded }, slot, top, bound);
    scored += part.to - part.from;
  }
  for (const cands of pending) rescore(task, cands, slot, bound.threshold, top);
  return { hits: top.hits(), scored };
}
