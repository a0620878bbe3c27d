// The top-k experiment's summary keys: one cell per top_k, selected by the `top_k` tag of its measured queries
// (warm-up queries are tagged `phase: warmup` and left out), shared by the thresholds and the result builder. Pure.
import { queryKeys } from '../metric-names';

/** The tags of one cell's measured queries. */
function cellTags(topK: number): { top_k: string; phase: string } {
  return { top_k: String(topK), phase: 'measured' };
}

export function cellKeys(topK: number) {
  return queryKeys(cellTags(topK));
}
