// A multi-query's `rerank_by: ["RRF", ...]`: reciprocal rank fusion of the sub-queries' rows into one list.
//
//   score(d) = sum over the sub-queries i that returned d of  weight_i / (rank_constant + rank_i(d))
//
// rank_i(d) is d's 1-based position in sub-query i's rows. Rows are ordered by score descending, ties by id ascending;
// each carries its fused score as `$dist` and the attributes its sub-queries returned (the first sub-query's values
// where two returned the same attribute). `offset` and `limit` then apply to the fused list.
import { compareIds, type DocId } from '../wire/ids';
import type { Rerank } from '../wire/query-request';

export function fuseRows(
  results: readonly (readonly Record<string, unknown>[])[],
  rerank: Rerank,
  offset: number,
  limit: number | null,
): Record<string, unknown>[] {
  const fused = new Map<DocId, { score: number; row: Record<string, unknown> }>();
  results.forEach((rows, i) => {
    const weight = rerank.weights[i];
    rows.forEach((row, rank) => {
      const id = row.id as DocId;
      const contribution = weight / (rerank.rankConstant + rank + 1);
      const seen = fused.get(id);
      if (seen) {
        seen.score += contribution;
        for (const [key, value] of Object.entries(row)) if (!(key in seen.row)) seen.row[key] = value;
      } else fused.set(id, { score: contribution, row: { ...row } });
    });
  });
  const ordered = [...fused.values()].sort(
    (a, b) => b.score - a.score || compareIds(a.row.id as DocId, b.row.id as DocId),
  );
  const end = limit === null ? undefined : offset + limit;
  return ordered.slice(offset, end).map(({ score, row }) => {
    const { id, $dist: _, ...attributes } = row;
    return { id, $dist: score, ...attributes };
  });
}
