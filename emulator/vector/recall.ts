// Recall of the ANN path against an exact scan of the same indexed rows: what `_debug/recall` reports, and what
// the tests and benchmarks/bench-vector.ts check.
import { hasBit } from './bitset';
import { sampleDistinct, seededRandom } from './random';
import { mergeHits } from './top-k';
import type { RowBitset, VectorColumn } from './types';

export interface RecallOptions {
  /** Queries: stored rows sampled from the indexed rows (as turbopuffer does) unless `queries` is given. @default 25 */
  num?: number;
  /** @default 10 */
  k?: number;
  dead?: RowBitset;
  allow?: RowBitset;
  /** Explicit query vectors (each of the column's dims) instead of sampled rows. */
  queries?: Float32Array[];
  /** Seed of the row sample. @default 1 */
  seed?: number;
  /**
   * Measure the whole query path (ANN over the index merged with an exact scan of the unindexed tail, against an
   * exact scan of all rows) instead of the index alone. @default false
   */
  includeTail?: boolean;
}

/** Field names follow the `_debug/recall` response (camelCase here). */
export interface RecallReport {
  /** Mean over queries of |ann ∩ exact| / |exact| (1 when exact finds nothing). */
  avgRecall: number;
  /** Mean number of rows the ANN search returned. */
  avgAnnCount: number;
  /** Mean number of rows the exact search returned. */
  avgExhaustiveCount: number;
  queries: number;
}

function sampleQueries(
  column: VectorColumn,
  n: number,
  num: number,
  seed: number,
  dead?: RowBitset,
  allow?: RowBitset,
) {
  const eligible = (r: number) => !(dead && hasBit(dead, r)) && !(allow && !hasBit(allow, r));
  const rows = Array.from(sampleDistinct(n, Math.min(n, num * 4), seededRandom(seed))).filter(eligible);
  return rows.slice(0, num).map((r) => column.get(r));
}

export async function measureRecall(
  column: VectorColumn,
  options: RecallOptions = {},
): Promise<RecallReport> {
  const { num = 25, k = 10, dead, allow, seed = 1, includeTail = false } = options;
  const indexed = column.indexedRows;
  const to = includeTail ? column.rowCount : indexed;
  const queries = options.queries ?? sampleQueries(column, to, num, seed, dead, allow);
  let recall = 0;
  let annCount = 0;
  let exactCount = 0;
  for (const q of queries) {
    const index = (await column.ann(q, { k, dead, allow })).hits;
    const tail = includeTail ? (await column.scan(q, { from: indexed, to }, { k, dead, allow })).hits : [];
    // An index published meanwhile may cover tail rows too: keep each row once.
    const ann = {
      hits: includeTail ? mergeHits([index.filter((h) => h.row < indexed), tail], k) : index,
    };
    const exact = await column.scan(q, { from: 0, to }, { k, dead, allow });
    const truth = new Set(exact.hits.map((h) => h.row));
    const found = ann.hits.filter((h) => truth.has(h.row)).length;
    recall += truth.size === 0 ? 1 : found / truth.size;
    annCount += ann.hits.length;
    exactCount += exact.hits.length;
  }
  // No rows to sample: nothing can be missed.
  if (queries.length === 0) return { avgRecall: 1, avgAnnCount: 0, avgExhaustiveCount: 0, queries: 0 };
  const m = queries.length;
  return {
    avgRecall: recall / m,
    avgAnnCount: annCount / m,
    avgExhaustiveCount: exactCount / m,
    queries: queries.length,
  };
}
