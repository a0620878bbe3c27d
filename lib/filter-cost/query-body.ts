// The request body of a cell's query (and of its recall probe's exact counterpart). Pure, so the script, the recall
// probes and the tests build exactly the same bodies.

import type { QueryRequest } from '../turbopuffer-wire';
import { type QueryCell, ranksByVector } from './cells';
import { ATTRIBUTE_NAME, type FilterCostConfig } from './config';

/** turbopuffer's exact kNN requires a filter: this one matches every row (as tpuf-benchmark's kNN workloads do). */
const MATCH_ALL: ['id', 'Gte', number] = ['id', 'Gte', 0];

/**
 * The cell's query with query vector `vector` (ignored by filter_ordered). `exact` swaps ANN for kNN with the same
 * filter: the ground truth of the recall probes.
 */
export function queryBody(
  c: Pick<FilterCostConfig, 'topK' | 'consistency'>,
  cell: QueryCell,
  vector: number[],
  exact = false,
): QueryRequest {
  const body: QueryRequest = ranksByVector(cell)
    ? {
        rank_by: ['vector', exact ? 'kNN' : 'ANN', vector],
        top_k: c.topK,
        consistency: { level: c.consistency },
      }
    : { rank_by: [ATTRIBUTE_NAME, 'asc'], top_k: c.topK, consistency: { level: c.consistency } };
  const filter = cell.filter ?? (exact ? MATCH_ALL : undefined);
  if (filter) body.filters = filter;
  return body;
}
