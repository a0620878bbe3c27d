// The request bodies of a cell's queries: the measured query, its recall probe's exact counterpart, and the count of
// the rows its filter matches. Pure, so the script, setup() and the tests build exactly the same bodies.
import type { AggregateRequest, Consistency, QueryRequest } from '../turbopuffer-wire';
import { type QueryCell, ranksByVector } from './cells';
import { ATTRIBUTE_NAME } from './config';

/** turbopuffer's exact kNN requires a filter: this one matches every row (as tpuf-benchmark's kNN workloads do). */
const MATCH_ALL: ['id', 'Gte', number] = ['id', 'Gte', 0];

/**
 * The cell's query with query vector `vector` (unused by filter_ordered). `exact` swaps ANN for kNN with the same
 * filter: the ground truth of the recall probes.
 */
export function queryBody(
  cell: Pick<QueryCell, 'shape' | 'filter'>,
  consistency: Consistency,
  topK: number,
  vector: number[],
  exact = false,
): QueryRequest {
  const body: QueryRequest = ranksByVector(cell)
    ? { rank_by: ['vector', exact ? 'kNN' : 'ANN', vector], top_k: topK, consistency: { level: consistency } }
    : { rank_by: [ATTRIBUTE_NAME, 'asc'], top_k: topK, consistency: { level: consistency } };
  const filter = cell.filter ?? (exact ? MATCH_ALL : null);
  if (filter) body.filters = filter;
  return body;
}

/** The label under which countBody's answer carries the count. */
export const COUNT_LABEL = 'matches';

/** Counts the rows the cell's filter matches (strong: the namespace is indexed, nothing may be missed). */
export function countBody(cell: Pick<QueryCell, 'filter'>): AggregateRequest {
  const body: AggregateRequest = {
    aggregate_by: { [COUNT_LABEL]: ['Count'] },
    consistency: { level: 'strong' },
  };
  if (cell.filter) body.filters = cell.filter;
  return body;
}
