// Recall of the ANN path against an exact scan of the same indexed rows: what `_debug/recall` reports, and what
// the tests and scripts/bench-vector.ts check.
import { hasRow } from './bitset';
import { sampleDistinct, seededRandom } from './random';
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

function sampleQueries(column: VectorColumn, num: number, seed: number, dead?: RowBitset, allow?: RowBitset) {
  const n = column.indexedRows;
  const eligible = (r: number) => !(dead && hasRow(dead, r)) && !(allow && !hasRow(allow, r));
  const rows = Array.from(sampleDistinct(n, Math.min(n, num * 4), seededRandom(seed))).filter(eligible);
  return rows.slice(0, num).map((r) => column.get(r));
}

export async function measureRecall(
  column: VectorColumn,
  options: RecallOptions = {},
): Promise<RecallReport> {
  const { num = 25, k = 10, dead, allow, seed = 1 } = options;
  const queries = options.queries ?? sampleQueries(column, num, seed, dead, allow);
  const to = column.indexedRows;
  let recall = 0;
  let annCount = 0;
  let exactCount = 0;
  for (const q of queries) {
    const ann = await column.ann(q, { k, dead, allow });
    const exact = await column.scan(q, { from: 0, to }, { k, dead, allow });
    const truth = new Set(exact.hits.map((h) => h.row));
    const found = ann.hits.filter((h) => truth.has(h.row)).length;
    recall += truth.size === 0 ? 1 : found / truth.size;
    annCount += ann.hits.length;
    exactCount += exact.hits.length;
  }
  const m = Math.max(1, queries.length);
  return {
    avgRecall: recall / m,
    avgAnnCount: annCount / m,
    avgExhaustiveCount: exactCount / m,
    queries: queries.length,
  };
}
